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
