import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

/*
 * Money follows what it came from: a staff price is per person, so it follows the party; a refund
 * returns credit to credit and a certificate's part to the certificate, never as cash.
 */

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const settings = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });
beforeEach(async () => {
  const res = await settings({ prepayment: 'none', refund_to: 'credit', bank_account: '', bank_recipient: '' });
  expect(res.statusCode, res.body).toBe(200);
});

type User = ReturnType<typeof telegramUser>;
const pay = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/payments`, headers: staff, payload });
const party = (id: number, user: User, people_count: number) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/records/${id}`, headers: tma(user), payload: { people_count } });
const credit = (user: User) =>
  t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) }).then((r) => r.json().balance as number);
const setPrice = (id: number, price: number | null) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v1/records/${id}/price`,
    headers: staff,
    payload: { price, reason: 'Свой человек' },
  });

describe('a staff price', () => {
  it('is per person: 1000 for one is 8000 for eight, and a smaller party gets its excess back', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 3000, capacity: 10 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    expect((await setPrice(id, 1000)).json().money).toMatchObject({ price: 1000, price_override: 1000 });
    expect((await party(id, anna, 8)).json().money).toMatchObject({ price: 8000, price_override: 1000, balance: 8000 });
    expect((await pay(id, { method: 'cash' })).json().money).toMatchObject({ amount_paid: 8000, balance: 0 });
    expect((await party(id, anna, 2)).json().money).toMatchObject({ price: 2000, amount_paid: 2000, balance: 0 });
    expect(await credit(anna)).toBe(6000);
  });

  it('with prepayment, a larger party with a staff price holds what is short until pay_by', async () => {
    await settings({ prepayment: 'full', payment_hold_minutes: 30 });
    const { schedule } = await createSession(t.app, staff, { price: 3000, capacity: 10 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await setPrice(id, 1000);
    expect((await pay(id, { method: 'cash' })).json().money).toMatchObject({ balance: 0, pay_by: null });
    const m = (await party(id, anna, 3)).json().money;
    expect(m).toMatchObject({ price: 3000, balance: 2000, required_now: 3000 });
    expect(m.pay_by).not.toBeNull();
  });
});

const refund = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/refunds`, headers: staff, payload });
const ledger = (id: number) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: staff }).then((r) => r.json());
const giveCredit = async (user: User, amount: number) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/customers/${user.id}/credit`,
    headers: staff,
    payload: { amount, reason: 'Подарок' },
  });
  expect(res.statusCode, res.body).toBe(200);
};
const deliberate = (amount: number, method: string) => ({
  amount,
  method,
  over_owed: true,
  note: 'Клиент попросил вернуть',
});

/** A booking of 3000 the customer paid 2000 from credit and 1000 in cash: nothing is owed back. */
async function paidByCreditAndCash(): Promise<{ id: number; anna: User }> {
  const { schedule } = await createSession(t.app, staff, { price: 3000 });
  const anna = telegramUser();
  await giveCredit(anna, 2000);
  const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
  expect((await pay(id, { method: 'cash' })).json().money).toMatchObject({
    amount_paid: 3000,
    paid_by_credit: 2000,
    balance: 0,
  });
  expect(await credit(anna)).toBe(0);
  return { id, anna };
}

describe('a refund goes back where the money came from', () => {
  it('only what was paid in money can leave as cash; credit goes back to credit', async () => {
    const { id, anna } = await paidByCreditAndCash();
    const cash = await refund(id, deliberate(3000, 'cash'));
    expect(cash.statusCode).toBe(409);
    expect(cash.json().detail).toBe(
      'Деньгами (наличные, карта, перевод, Telegram) за запись оплачено 1\u00a0000\u00a0RSD: вернуть деньгами больше нельзя, оплаченное с баланса в студии возвращается на баланс, сертификатом — на сертификат',
    );
    expect((await refund(id, deliberate(1001, 'card'))).statusCode).toBe(409);
    expect((await refund(id, deliberate(1000, 'cash'))).statusCode).toBe(201);
    expect((await refund(id, deliberate(1, 'bank_transfer'))).statusCode).toBe(409);
    expect((await refund(id, deliberate(2000, 'credit'))).statusCode).toBe(201);
    expect(await credit(anna)).toBe(2000);
    expect((await ledger(id)).money).toMatchObject({ amount_paid: 0, paid_by_credit: 0 });
  });

  it('a certificate’s part goes back to the certificate only, never as cash or credit', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 3000 });
    const sold = await t.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/',
      headers: staff,
      payload: { amount: 3000, method: 'cash' },
    });
    expect(sold.statusCode, sold.body).toBe(201);
    const anna = telegramUser();
    const booked = await book(
      t.app,
      anna,
      bookingPayload(schedule.id, { certificate_code: sold.json().certificate?.code ?? sold.json().code }),
    );
    const id = booked.json().record.id;
    expect(booked.json().money).toMatchObject({ amount_paid: 3000, paid_by_certificate: 3000 });
    expect((await refund(id, deliberate(3000, 'cash'))).statusCode).toBe(409);
    const toCredit = await refund(id, deliberate(1, 'credit'));
    expect(toCredit.statusCode).toBe(409);
    expect(toCredit.json().detail).toMatch(/сертификатом возвращается на сертификат/);
    expect(await credit(anna)).toBe(0);
  });

  it('refunds at once never return more than each source paid (several rounds)', async () => {
    for (let round = 0; round < 4; round++) {
      const { id, anna } = await paidByCreditAndCash();
      const results = await Promise.all([
        refund(id, deliberate(1000, 'cash')),
        refund(id, deliberate(1000, 'card')),
        refund(id, deliberate(2000, 'credit')),
        refund(id, deliberate(3000, 'cash')),
        refund(id, deliberate(2000, 'credit')),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
      const rows: { amount: number; method: string; kind: string }[] = (await ledger(id)).payments;
      const out = (methods: string[]) =>
        -rows.filter((p) => p.kind === 'refund' && methods.includes(p.method)).reduce((s, p) => s + p.amount, 0);
      expect(out(['cash', 'card'])).toBe(1000);
      expect(out(['credit'])).toBe(2000);
      expect(await credit(anna)).toBe(2000);
    }
  });
});

describe('a staff booking for a customer', () => {
  const staffBook = (scheduleId: number, user: User, extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: staff,
      payload: { ...bookingPayload(scheduleId), telegram_id: user.id, ...extra },
    });

  it('does not spend their credit unless they agreed (use_credit); their own booking does', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 3000, capacity: 10 });
    const anna = telegramUser();
    await giveCredit(anna, 5000);
    const plain = await staffBook(schedule.id, anna);
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().money).toMatchObject({ amount_paid: 0, paid_by_credit: 0, balance: 3000 });
    expect(await credit(anna)).toBe(5000);
    // Without the credit, a cash refund of the booking has nothing of money to return.
    expect((await refund(plain.json().record.id, deliberate(3000, 'cash'))).statusCode).toBe(409);

    const { schedule: other } = await createSession(t.app, staff, { price: 3000, capacity: 10 });
    const agreed = await staffBook(other.id, anna, { use_credit: true });
    expect(agreed.json().money).toMatchObject({ amount_paid: 3000, paid_by_credit: 3000, balance: 0 });
    expect(await credit(anna)).toBe(2000);

    const { schedule: third } = await createSession(t.app, staff, { price: 1000, capacity: 10 });
    expect((await book(t.app, anna, bookingPayload(third.id))).json().money).toMatchObject({ paid_by_credit: 1000 });
    expect(await credit(anna)).toBe(1000);
  });

  it('a queued staff booking promoted later still does not spend credit the customer did not agree to', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 3000, capacity: 1 });
    const boris = telegramUser();
    const first = (await book(t.app, boris, bookingPayload(schedule.id))).json().record.id;
    const anna = telegramUser();
    await giveCredit(anna, 5000);
    const queued = await staffBook(schedule.id, anna);
    expect(queued.json().record.state).toBe('QUEUED');
    const cancel = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${first}`,
      headers: tma(boris),
      payload: { cancel_reason: 'Заболел' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const promoted = await ledger(queued.json().record.id);
    expect(promoted.money).toMatchObject({ amount_paid: 0, paid_by_credit: 0, balance: 3000 });
    expect(await credit(anna)).toBe(5000);
  });
});
