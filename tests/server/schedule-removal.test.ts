import { beforeEach, describe, expect, it } from 'vitest';
import type { ScheduleRemoval } from '../../contract';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

/*
 * GET /schedule/{id}/removal: what «Удалить» and «Отменить мастер-класс» will do, asked before staff choose.
 * The delete's and the cancel's own rules, and the money of the open bookings split as the cancel then gives
 * it back (each case checked against what the cancel did).
 */

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const settle = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });
beforeEach(async () => {
  const res = await settle({ prepayment: 'none', refund_to: 'credit' });
  expect(res.statusCode, res.body).toBe(200);
});

const send = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = staff) => {
  const res = await t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });
  return { status: res.statusCode, body: res.json() };
};
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = staff) => {
  const res = await send(method, url, payload, headers);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
};
const removal = (id: number): Promise<ScheduleRemoval> => ok('GET', `/schedule/${id}/removal`);
type User = ReturnType<typeof telegramUser>;
const mine = async (user: User, scheduleId: number, extra = {}) => {
  const res = await book(t.app, user, bookingPayload(scheduleId, extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().record.id as number;
};
const byPhone = async (scheduleId: number) => (await ok('POST', '/records/', bookingPayload(scheduleId))).record.id;
const pay = (id: number, amount?: number) => ok('POST', `/records/${id}/payments`, { method: 'cash', amount });
const credit = async (user: User) => (await ok('GET', '/me/credit', undefined, tma(user))).balance as number;
const money = async (id: number) => (await ok('GET', `/records/${id}`)).money;

const HAS_BOOKINGS = (n: number) =>
  `На этом занятии есть записи (${n}) или деньги по ним: удалить его нельзя. Отмените мастер-класс: записи останутся, клиентам сообщат причину и куда пошли их деньги.`;
const KEPT = (n: number) =>
  `На этом занятии есть записи (${n}) или деньги по ним: удалить его нельзя. Оно остаётся в Истории вместе с записями и оплатами; вернуть деньги клиенту можно в меню его записи: «Оплата и цена».`;

describe('what removing a session would do', () => {
  it('names the open bookings and where their money goes, and the cancel does just that', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 3000, capacity: 4 });
    // Cancelled before, paid in cash by someone without Telegram: still owed back, untouched by the cancel.
    const earlier = await byPhone(schedule.id);
    await pay(earlier);
    await ok('PUT', `/records/cancel/${earlier}`, { cancel_reason: 'Передумала' });

    const [anna, boris, vera, dan] = [telegramUser(), telegramUser(), telegramUser(), telegramUser()];
    await pay(await mine(anna, schedule.id)); // cash → studio balance (the studio refunds to credit)
    await ok('POST', `/customers/${boris.id}/credit`, { amount: 1000, reason: 'Компенсация' });
    await pay(await mine(boris, schedule.id)); // 1 000 from the balance, 2 000 cash → all to the balance
    const gift = await ok('POST', '/certificates/', {
      amount: 2000,
      method: 'cash',
      buyer_name: 'Ольга',
      recipient_name: 'Вера',
    });
    await pay(await mine(vera, schedule.id, { certificate_code: gift.code })); // 2 000 certificate, 1 000 cash
    const phone = await byPhone(schedule.id);
    await pay(phone); // no Telegram, no balance: owed back
    await mine(dan, schedule.id); // the session is full: queued, nothing paid

    expect(await removal(schedule.id)).toEqual({
      delete: { ok: false, detail: HAS_BOOKINGS(5) },
      cancel: { ok: true, detail: null },
      bookings: 5,
      queued: 1,
      people: 4,
      without_telegram: 1,
      money: { paid: 12_000, to_certificates: 2000, to_credit: 7000, owed: 3000 },
      refunds_owed: 3000,
    } satisfies ScheduleRemoval);
    // The server refuses the delete the same way.
    expect(await send('DELETE', `/schedule/${schedule.id}`)).toEqual({
      status: 409,
      body: { detail: HAS_BOOKINGS(5) },
    });

    await ok('POST', `/schedule/${schedule.id}/cancel`, { reason: 'Шеф заболел' });
    expect([await credit(anna), await credit(boris), await credit(vera), await credit(dan)]).toEqual([
      3000, 3000, 1000, 0,
    ]);
    expect((await ok('GET', `/certificates/${gift.code}`)).balance).toBe(2000);
    expect(await money(phone)).toMatchObject({ balance: -3000, status: 'refund_owed' });
    // Cancelled, it stays in history: neither deleted nor cancelled again; all its refunds owed are those before.
    expect(await removal(schedule.id)).toEqual({
      delete: { ok: false, detail: KEPT(6) },
      cancel: { ok: false, detail: 'Мастер-класс уже отменён' },
      bookings: 0,
      queued: 0,
      people: 0,
      without_telegram: 0,
      money: { paid: 0, to_certificates: 0, to_credit: 0, owed: 0 },
      refunds_owed: 6000,
    } satisfies ScheduleRemoval);
  });

  it('with refunds as money: what credit paid goes back to the balance, the rest is owed', async () => {
    expect((await settle({ refund_to: 'refund' })).statusCode).toBe(200);
    const { schedule } = await createSession(t.app, staff, { price: 2500 });
    const olga = telegramUser();
    await ok('POST', `/customers/${olga.id}/credit`, { amount: 500, reason: 'Подарок' });
    const id = await mine(olga, schedule.id);
    await pay(id);
    expect((await removal(schedule.id)).money).toEqual({ paid: 2500, to_certificates: 0, to_credit: 500, owed: 2000 });
    await ok('POST', `/schedule/${schedule.id}/cancel`, { reason: 'Нет продуктов' });
    expect(await credit(olga)).toBe(500);
    expect(await money(id)).toMatchObject({ balance: -2000, status: 'refund_owed' });
  });

  it('a past session with bookings can be neither deleted nor cancelled: it stays in history', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 1800 });
    const id = await mine(telegramUser(), schedule.id);
    await pay(id, 1000);
    await ok('PUT', `/schedule/${schedule.id}`, { date: new Date(Date.now() - 86_400_000).toISOString() });
    expect(await removal(schedule.id)).toMatchObject({
      delete: { ok: false, detail: KEPT(1) },
      cancel: { ok: false, detail: 'Мастер-класс уже прошёл: отменить его нельзя' },
      bookings: 1,
      people: 1,
      money: { paid: 1000 },
    });
    expect(await send('DELETE', `/schedule/${schedule.id}`)).toEqual({ status: 409, body: { detail: KEPT(1) } });
    expect((await send('POST', `/schedule/${schedule.id}/cancel`, { reason: 'Поздно' })).status).toBe(409);
  });

  it('a session with nothing of anyone’s on it may be deleted; an unknown one is 404', async () => {
    const { schedule } = await createSession(t.app, staff);
    const boris = telegramUser();
    const id = await mine(boris, schedule.id);
    await ok('PUT', `/records/cancel/${id}`, { cancel_reason: 'Не смогу' }, tma(boris));
    expect(await removal(schedule.id)).toEqual({
      delete: { ok: true, detail: null },
      cancel: { ok: true, detail: null },
      bookings: 0,
      queued: 0,
      people: 0,
      without_telegram: 0,
      money: { paid: 0, to_certificates: 0, to_credit: 0, owed: 0 },
      refunds_owed: 0,
    } satisfies ScheduleRemoval);
    expect((await send('DELETE', `/schedule/${schedule.id}`)).status).toBe(200);
    expect((await send('GET', `/schedule/${schedule.id}/removal`)).status).toBe(404);
  });
});
