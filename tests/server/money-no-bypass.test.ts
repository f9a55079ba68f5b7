import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { customerActor } from '../../core/kernel/actor';
import { invoiceFor, preCheckoutRefusal } from '../../core/payments/telegram';
import { refusals as en } from '../../contract/texts/en/refusals';
import { refusals as sr } from '../../contract/texts/sr/refusals';

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const ACCOUNT = '160000000000005120';
const settings = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });
beforeEach(async () => {
  const res = await settings({ prepayment: 'none', refund_to: 'credit', bank_account: '', bank_recipient: '' });
  expect(res.statusCode, res.body).toBe(200);
});

type User = ReturnType<typeof telegramUser>;
const view = (id: number, user: User) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(user) }).then((r) => r.json());
const pay = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/payments`, headers: staff, payload });
const refund = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/refunds`, headers: staff, payload });
const party = (id: number, user: User, people_count: number) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/records/${id}`, headers: tma(user), payload: { people_count } });
const credit = (user: User) =>
  t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) }).then((r) => r.json().balance as number);

/** A booking of 2 × 3000 paid in cash, then made 1 person: 3000 is owed back (the studio refunds). */
async function owedBack(): Promise<number> {
  await settings({ refund_to: 'refund' });
  const { schedule } = await createSession(t.app, staff, { price: 3000 });
  const anna = telegramUser();
  const id = (await book(t.app, anna, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
  expect((await pay(id, { method: 'cash' })).statusCode).toBe(201);
  expect((await party(id, anna, 1)).json().money).toMatchObject({ balance: -3000, status: 'refund_owed' });
  return id;
}

describe('a refund', () => {
  it('two managers refunding the owed 3000 at once: one refund, the other is refused with 409 (several rounds)', async () => {
    for (let round = 0; round < 4; round++) {
      const id = await owedBack();
      const both = await Promise.all([
        refund(id, { amount: 3000, method: 'cash' }),
        refund(id, { amount: 3000, method: 'card' }),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const refused = both.find((r) => r.statusCode === 409)!;
      expect(refused.json().detail).toMatch(/Возвращать нечего|не больше/);
      const m = (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: staff })).json()
        .money;
      expect(m).toMatchObject({ amount_paid: 3000, balance: 0 });
    }
  });

  it('from a stale dialog, after the owed money went back: refused; above what is owed only when deliberate, with a reason', async () => {
    const id = await owedBack();
    expect((await refund(id, { amount: 3000, method: 'cash' })).statusCode).toBe(201);
    const stale = await refund(id, { amount: 3000, method: 'cash' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toBe('Возвращать нечего: по записи ничего не причитается клиенту');
    const noReason = await refund(id, { amount: 500, method: 'cash', over_owed: true });
    expect(noReason.statusCode).toBe(422);
    const deliberate = await refund(id, { amount: 500, method: 'cash', over_owed: true, note: 'Жалоба на качество' });
    expect(deliberate.statusCode, deliberate.body).toBe(201);
    expect(deliberate.json().money).toMatchObject({ amount_paid: 2500, balance: 500 });
    const row = deliberate.json().payments.at(-1);
    expect(row).toMatchObject({ amount: -500, kind: 'refund', note: 'Жалоба на качество' });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['after'])
      .where('entity', '=', 'record')
      .where('entity_id', '=', id)
      .execute();
    expect(audit.map((a) => String(a.after)).filter((a) => a.includes('over_owed'))).toHaveLength(1);
    // Never more than was paid, deliberate or not.
    const tooMuch = await refund(id, { amount: 2501, method: 'cash', over_owed: true, note: 'Ошибка' });
    expect(tooMuch.statusCode).toBe(409);
  });
});

describe('a queued booking', () => {
  it('cannot be paid: no IPS QR, no invoice, pre-checkout refuses it, in the customer’s language', async () => {
    await settings({ bank_account: ACCOUNT, bank_recipient: 'Kulinarni studio' });
    const { schedule } = await createSession(t.app, staff, { price: 2000, capacity: 1 });
    const anna = telegramUser();
    const bob = telegramUser();
    expect((await book(t.app, anna, bookingPayload(schedule.id))).json().record.state).toBe('ACTIVE');
    const queued = (await book(t.app, bob, bookingPayload(schedule.id))).json();
    expect(queued.record.state).toBe('QUEUED');
    const id = queued.record.id;
    const qr = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/ips-qr`, headers: tma(bob) });
    expect(qr.statusCode).toBe(409);
    expect(qr.json().detail).toBe('Вы в листе ожидания: оплата понадобится, когда освободится место');
    await expect(invoiceFor(t.database, customerActor(bob.id), id)).rejects.toMatchObject({
      code: 'paymentQueued',
    });
    const q = { from_id: bob.id, currency: 'RSD', total_amount: 2000 * 100, invoice_payload: `record:${id}` };
    expect(await preCheckoutRefusal(t.database, q)).toBe('paymentQueued');
    expect(en.paymentQueued).toMatch(/waiting list/);
    expect(sr.paymentQueued).toMatch(/listi čekanja/);
  });

  it('when its session has passed it is cancelled, and what it paid follows the rules (here: to credit)', async () => {
    const start = new Date(Date.now() + 2 * 3600_000);
    const { schedule } = await createSession(t.app, staff, { price: 2000, capacity: 1, date: start.toISOString() });
    const anna = telegramUser();
    const bob = telegramUser();
    await book(t.app, anna, bookingPayload(schedule.id));
    const id = (await book(t.app, bob, bookingPayload(schedule.id))).json().record.id;
    // Staff took money for the queued booking at the desk.
    expect((await pay(id, { amount: 2000, method: 'cash' })).statusCode).toBe(201);
    await t.scheduler.runOnce(new Date(start.getTime() - 60_000));
    expect((await view(id, bob)).record.state).toBe('QUEUED');
    await t.scheduler.runOnce(new Date(start.getTime() + 60_000));
    expect((await view(id, bob)).record).toMatchObject({ state: 'CANCELLED', cancel_reason: 'Место не освободилось' });
    expect(await credit(bob)).toBe(2000);
    // The customer is told, and where the money went.
    const told = await t.database.db
      .selectFrom('notifications')
      .select(['kind', 'payload'])
      .where('chat_id', '=', bob.id)
      .where('kind', '=', 'record.cancelled')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(told.payload).money).toMatchObject({ to_credit: 2000 });
    // Idempotent: the next tick changes nothing.
    await t.scheduler.runOnce(new Date(start.getTime() + 120_000));
    expect(await credit(bob)).toBe(2000);
  });
});

describe('prepayment after a party change', () => {
  it('paid for 1, changed to 8: the 7 unpaid seats are held like a new booking and cancelled at pay_by if unpaid', async () => {
    await settings({ prepayment: 'full', payment_hold_minutes: 30 });
    const { schedule } = await createSession(t.app, staff, { price: 1000, capacity: 10 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    expect((await pay(id, { method: 'cash' })).json().money).toMatchObject({ pay_by: null, status: 'paid' });
    const eight = await party(id, anna, 8);
    expect(eight.statusCode, eight.body).toBe(200);
    const m = eight.json().money;
    expect(m).toMatchObject({ price: 8000, amount_paid: 1000, required_now: 8000, pay_now: 7000 });
    expect(m.pay_by).not.toBeNull();
    const payBy = new Date(m.pay_by).getTime();
    // The customer's message about the change says the same: what to pay, by when.
    const told = await t.database.db
      .selectFrom('notifications')
      .select(['kind', 'payload'])
      .where('chat_id', '=', anna.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(told.payload).money).toMatchObject({ pay_by: m.pay_by, required_now: 8000, amount_paid: 1000 });
    expect(payBy - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(payBy - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    await t.scheduler.runOnce(new Date(payBy + 1000));
    const gone = await view(id, anna);
    expect(gone.record).toMatchObject({ state: 'CANCELLED', cancel_reason: 'Не оплачено вовремя' });
    // What it paid goes back by the rules.
    expect(await credit(anna)).toBe(1000);
  });

  it('a larger party paid in time keeps its seats', async () => {
    await settings({ prepayment: 'full', payment_hold_minutes: 30 });
    const { schedule } = await createSession(t.app, staff, { price: 1000, capacity: 10 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'cash' });
    const payBy = new Date((await party(id, anna, 3)).json().money.pay_by).getTime();
    expect((await pay(id, { method: 'card' })).json().money).toMatchObject({ pay_by: null, status: 'paid' });
    await t.scheduler.runOnce(new Date(payBy + 1000));
    expect((await view(id, anna)).record.state).toBe('ACTIVE');
  });
});
