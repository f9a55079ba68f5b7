import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

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
const view = (id: number, user: User) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(user) }).then((r) => r.json());
const ledger = (id: number) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: staff }).then((r) => r.json());
const pay = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/payments`, headers: staff, payload });
const cancel = (id: number, user: User) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v1/records/cancel/${id}`,
    headers: tma(user),
    payload: { cancel_reason: 'Заболел' },
  });
const credit = (user: User) =>
  t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) }).then((r) => r.json().balance as number);
const outbox = (chatId: number) =>
  t.database.db
    .selectFrom('notifications')
    .select(['kind', 'payload'])
    .where('chat_id', '=', chatId)
    .orderBy('id')
    .execute();

describe('the price', () => {
  it('is fixed when booking: a later workshop price leaves it, a party change re-prices at the booking’s unit price', async () => {
    const { schedule, workshop } = await createSession(t.app, staff, { price: 3000 });
    const anna = telegramUser();
    const res = await book(t.app, anna, bookingPayload(schedule.id, { people_count: 2 }));
    expect(res.json().money).toMatchObject({
      price: 6000,
      unit_price: 3000,
      amount_due: 6000,
      amount_paid: 0,
      status: 'unpaid',
    });
    const id = res.json().record.id;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workshops/${workshop.id}`,
      headers: staff,
      payload: { price: 5000 },
    });
    expect(put.statusCode).toBe(200);
    expect((await view(id, anna)).money.price).toBe(6000);
    const three = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/${id}`,
      headers: tma(anna),
      payload: { people_count: 3 },
    });
    expect(three.json().money).toMatchObject({ price: 9000, unit_price: 3000 });
  });

  it('staff override it with a reason, audited before → after', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 3000 });
    const id = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id;
    const noReason = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/${id}/price`,
      headers: staff,
      payload: { price: 2000, reason: ' ' },
    });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().detail).toMatch(/причину/);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/${id}/price`,
      headers: staff,
      payload: { price: 2000, reason: 'Скидка постоянному клиенту' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().money).toMatchObject({ price: 2000, price_override: 2000, amount_due: 2000 });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'record')
      .where('entity_id', '=', id)
      .where('action', '=', 'updated')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.before!)).toMatchObject({ price: 3000, price_override: null });
    expect(JSON.parse(audit.after!)).toMatchObject({ price: 2000, reason: 'Скидка постоянному клиенту' });
  });
});

describe('payments at the desk', () => {
  it('records the balance by default, refuses more than is owed (409) and the ledger explains the status', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 3500 });
    const id = (await book(t.app, telegramUser(), bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
    const part = await pay(id, { amount: 2000, method: 'cash' });
    expect(part.statusCode).toBe(201);
    expect(part.json().money).toMatchObject({ amount_paid: 2000, balance: 5000, status: 'deposit_paid' });
    const over = await pay(id, { amount: 5001, method: 'card' });
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toMatch(/больше остатка/);
    const rest = await pay(id, { method: 'card' });
    expect(rest.json().money).toMatchObject({ amount_paid: 7000, balance: 0, status: 'paid' });
    expect(rest.json().payments.map((p: { amount: number; method: string }) => [p.amount, p.method])).toEqual([
      [2000, 'cash'],
      [5000, 'card'],
    ]);
    expect((await pay(id, { method: 'cash' })).statusCode).toBe(409);
    const bad = await pay(id, { amount: 10, method: 'telegram' });
    expect(bad.statusCode).toBe(422);
  });

  it('two staff recording the last payment at once: one is accepted, the other gets 409', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 4000 });
    const id = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id;
    const results = await Promise.all(Array.from({ length: 6 }, () => pay(id, { amount: 4000, method: 'cash' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await ledger(id)).payments).toHaveLength(1);
    expect((await ledger(id)).money.amount_paid).toBe(4000);
  });
});

describe('cancellations and credit', () => {
  it('cancel with refund_to credit: paid money becomes credit, the message says so, and the next booking spends it', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 3000 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'bank_transfer' });
    const res = await cancel(id, anna);
    expect(res.statusCode).toBe(200);
    expect(res.json().money).toMatchObject({ amount_paid: 0, amount_due: 0, status: 'credited' });
    expect(await credit(anna)).toBe(3000);
    const told = (await outbox(anna.id)).find((n) => n.kind === 'record.cancelled')!;
    expect(JSON.parse(told.payload).money).toMatchObject({ to_credit: 3000 });

    const next = await createSession(t.app, staff, { price: 2000 });
    const booked = await book(t.app, anna, bookingPayload(next.schedule.id, { people_count: 2 }));
    expect(booked.json().money).toMatchObject({
      price: 4000,
      amount_paid: 3000,
      paid_by_credit: 3000,
      balance: 1000,
      status: 'deposit_paid',
    });
    expect(await credit(anna)).toBe(0);
    const rows = (await ledger(booked.json().record.id)).payments;
    expect(rows).toMatchObject([{ amount: 3000, method: 'credit', kind: 'payment', recorded_by_kind: 'system' }]);
  });

  it('credit covers a cheaper booking only up to its price; the rest stays', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 5000 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'cash' });
    await cancel(id, anna);
    const cheap = await createSession(t.app, staff, { price: 1500 });
    const booked = (await book(t.app, anna, bookingPayload(cheap.schedule.id))).json();
    expect(booked.money).toMatchObject({ amount_paid: 1500, status: 'paid', paid_by_credit: 1500 });
    expect(await credit(anna)).toBe(3500);
  });

  it('cancel with refund_to refund: the booking owes the money back until staff record the refund', async () => {
    await settings({ refund_to: 'refund' });
    const { schedule } = await createSession(t.app, staff, { price: 3000 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'cash' });
    const res = await cancel(id, anna);
    expect(res.json().money).toMatchObject({ amount_paid: 3000, balance: -3000, status: 'refund_owed' });
    expect(await credit(anna)).toBe(0);
    const desk = (await t.app.inject({ method: 'GET', url: '/api/v1/payments/', headers: staff })).json();
    expect(desk.refunds_owed).toBeGreaterThanOrEqual(3000);
    const tooMuch = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${id}/refunds`,
      headers: staff,
      payload: { amount: 3001, method: 'cash' },
    });
    expect(tooMuch.statusCode).toBe(409);
    const refund = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${id}/refunds`,
      headers: staff,
      payload: { method: 'cash' },
    });
    expect(refund.statusCode).toBe(201);
    expect(refund.json().money).toMatchObject({ amount_paid: 0, balance: 0, status: 'refunded' });
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/payments/', headers: staff })).json();
    expect(after.refunds_owed).toBe(desk.refunds_owed - 3000);
  });

  it('a smaller party gets its excess back to credit; a no-show keeps what was paid', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 2000 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id, { people_count: 3 }))).json().record.id;
    await pay(id, { method: 'cash' });
    const smaller = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/${id}`,
      headers: tma(anna),
      payload: { people_count: 1 },
    });
    expect(smaller.json().money).toMatchObject({ price: 2000, amount_paid: 2000, status: 'paid' });
    expect(await credit(anna)).toBe(4000);
  });

  it('a session with paid bookings is cancelled by staff (a delete is refused): everything paid goes back to credit and the message says so', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 2500 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'card' });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/schedule/${schedule.id}`, headers: staff });
    expect(del.statusCode).toBe(409);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/v1/schedule/${schedule.id}/cancel`,
      headers: staff,
      payload: { reason: 'Шеф заболел' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await credit(anna)).toBe(2500);
    const told = (await outbox(anna.id)).find((n) => n.kind === 'schedule.cancelled')!;
    expect(JSON.parse(told.payload).money).toMatchObject({ to_credit: 2500 });
    // The books show the card payment and its return.
    const rows = await t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('record_id', '=', id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.amount, r.method])).toEqual([
      [2500, 'card'],
      [-2500, 'credit'],
    ]);
  });
});

describe('a session whose bookings were paid, at a studio that refunds', () => {
  it('cannot be deleted (the refunds are recorded on its bookings): staff cancel it instead, and the refund is owed on each', async () => {
    await settings({ refund_to: 'refund' });
    const { schedule } = await createSession(t.app, staff, { price: 1800 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'cash' });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/schedule/${schedule.id}`, headers: staff });
    expect(del.statusCode).toBe(409);
    expect(del.json().detail).toContain('Отмените мастер-класс');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: staff })).statusCode).toBe(200);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/v1/schedule/${schedule.id}/cancel`,
      headers: staff,
      payload: { reason: 'Шеф заболел' },
    });
    expect(cancelled.statusCode).toBe(200);
    const view = (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: staff })).json();
    expect(view.money).toMatchObject({ amount_paid: 1800, status: 'refund_owed' });
    await settings({ refund_to: 'credit' });
  });
});

describe('the seat hold', () => {
  it('an unpaid booking is cancelled at pay_by: the seats go to the queue, the customer and staff are told', async () => {
    await settings({ prepayment: 'full', payment_hold_minutes: 30 });
    const { schedule } = await createSession(t.app, staff, { price: 3000, capacity: 2 });
    const anna = telegramUser();
    const bob = telegramUser();
    const booked = (await book(t.app, anna, bookingPayload(schedule.id, { people_count: 2 }))).json();
    const payBy = new Date(booked.money.pay_by).getTime();
    expect(payBy - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(payBy - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(booked.money).toMatchObject({ required_now: 3000 * 2, status: 'unpaid' });
    const queued = (await book(t.app, bob, bookingPayload(schedule.id))).json();
    expect(queued.record.state).toBe('QUEUED');
    expect(queued.money.pay_by).toBeNull();

    expect((await t.scheduler.runOnce(new Date(payBy - 1000)))['payment-holds']).toBe(0);
    expect((await view(booked.record.id, anna)).record.state).toBe('ACTIVE');
    expect((await t.scheduler.runOnce(new Date(payBy + 1000)))['payment-holds']).toBe(1);
    const gone = await view(booked.record.id, anna);
    expect(gone.record).toMatchObject({ state: 'CANCELLED', cancel_reason: 'Не оплачено вовремя' });
    const promoted = await view(queued.record.id, bob);
    expect(promoted.record.state).toBe('ACTIVE');
    // Promoted: now it holds its seat until paid.
    expect(promoted.money.pay_by).not.toBeNull();
    const kinds = (await outbox(anna.id)).map((n) => n.kind);
    expect(kinds).toContain('record.cancelled');
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', booked.record.id)
      .where('action', '=', 'cancelled')
      .executeTakeFirstOrThrow();
    expect(audit.actor_kind).toBe('system');
  });

  it('a booking paid in time keeps its seats; a deposit is the percent of the price, rounded up', async () => {
    await settings({ prepayment: 'deposit', deposit_percent: 30, payment_hold_minutes: 30 });
    const { schedule } = await createSession(t.app, staff, { price: 3333 });
    const anna = telegramUser();
    const booked = (await book(t.app, anna, bookingPayload(schedule.id))).json();
    expect(booked.money.required_now).toBe(1000);
    const paid = await pay(booked.record.id, { amount: 1000, method: 'bank_transfer' });
    expect(paid.json().money).toMatchObject({ status: 'deposit_paid', pay_by: null });
    const later = new Date(Date.now() + 3 * 3600_000);
    await t.scheduler.runOnce(later);
    expect((await view(booked.record.id, anna)).record.state).toBe('ACTIVE');
  });

  it('a booking staff take for someone without Telegram is not held', async () => {
    await settings({ prepayment: 'full', payment_hold_minutes: 30 });
    const { schedule } = await createSession(t.app, staff, { price: 1000 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: staff,
      payload: bookingPayload(schedule.id),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().money).toMatchObject({ pay_by: null, status: 'unpaid', required_now: 1000 });
    expect((await t.scheduler.runOnce(new Date(Date.now() + 3600_000)))['payment-holds']).toBe(0);
  });

  it('the hold never runs past the start', async () => {
    await settings({ prepayment: 'full', payment_hold_minutes: 600 });
    const start = new Date(Date.now() + 60 * 60_000).toISOString();
    const { schedule } = await createSession(t.app, staff, { price: 1000, date: start });
    const booked = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json();
    expect(new Date(booked.money.pay_by).getTime()).toBe(new Date(start).getTime());
  });
});

describe('the cash desk', () => {
  it('its totals equal the ledger, per method, and the CSV has every row', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 1200 });
    const a = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id;
    const b = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id;
    await pay(a, { method: 'cash' });
    await pay(b, { amount: 200, method: 'card' });
    const desk = (await t.app.inject({ method: 'GET', url: '/api/v1/payments/', headers: staff })).json();
    const all = await t.database.db.selectFrom('payments').selectAll().execute();
    const byMethod: Record<string, number> = {};
    for (const p of all) byMethod[p.method] = (byMethod[p.method] ?? 0) + p.amount;
    expect(desk.totals).toEqual(byMethod);
    expect(desk.payments).toHaveLength(all.length);
    const credit = all
      .filter((p) => p.method === 'credit')
      .reduce((s, p) => s + (p.record_id === null ? p.amount : -p.amount), 0);
    expect(desk.credit_outstanding).toBe(credit);
    const cash = (await t.app.inject({ method: 'GET', url: '/api/v1/payments/?method=cash', headers: staff })).json();
    expect(cash.payments.every((p: { method: string }) => p.method === 'cash')).toBe(true);
    expect(cash.totals).toEqual({ cash: byMethod.cash });
    const csv = await t.app.inject({ method: 'GET', url: '/api/v1/payments/export.csv', headers: staff });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Когда;Запись;Клиент;Мастер-класс;Дата занятия;Операция;Способ;Сумма, дин.;Внёс;Платёж Telegram;Платёж провайдера;Комментарий;Чек;Вид чека;Состояние чека',
    );
    expect(lines).toHaveLength(all.length + 1);
    expect(
      lines.some((l) => l.includes(`;${b};Анна Петрова;Паста;`) && l.includes(';Оплата;Карта в студии;200;')),
    ).toBe(true);
  });

  it('refuses an unknown method with a clear 422', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/payments/?method=bitcoin', headers: staff });
    expect(res.statusCode).toBe(422);
  });
});

describe('credit adjusted by a superuser', () => {
  it('adds and takes with a reason, logged without the customer, never below zero; the next booking spends it', async () => {
    const anna = telegramUser();
    const adjust = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `/api/v1/customers/${anna.id}/credit`, headers: staff, payload });
    expect((await adjust({ amount: 1000, reason: ' ' })).statusCode).toBe(422);
    expect((await adjust({ amount: 1000, reason: 'Компенсация за перенос' })).json()).toEqual({ balance: 1000 });
    const tooMuch = await adjust({ amount: -1500, reason: 'Ошибка' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().detail).toBe('На балансе клиента в студии только 1\u00a0000\u00a0RSD');
    expect((await adjust({ amount: -200, reason: 'Ошибка' })).json()).toEqual({ balance: 800 });
    expect(await credit(anna)).toBe(800);
    const log = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'credit').execute();
    expect(log.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(log)).not.toContain(String(anna.id));
    const { schedule } = await createSession(t.app, staff, { price: 3000 });
    const booked = (await book(t.app, anna, bookingPayload(schedule.id))).json();
    expect(booked.money).toMatchObject({ amount_paid: 800, paid_by_credit: 800, balance: 2200 });
  });
});

describe('erasure', () => {
  it('keeps amounts, dates and methods in the ledger and its log, never whose they were', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 1800 });
    const zina = telegramUser();
    const id = (await book(t.app, zina, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'cash', note: 'Зина заплатила наличными' });
    await cancel(id, zina);
    expect(await credit(zina)).toBe(1800);
    const forget = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(zina) });
    expect(forget.statusCode).toBe(200);
    const rows = await t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('record_id', '=', id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.amount, r.method, r.telegram_id, r.note])).toEqual([
      [1800, 'cash', null, null],
      [-1800, 'credit', null, null],
    ]);
    expect(await credit(zina)).toBe(0);
    const log = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'record')
      .where('entity_id', '=', id)
      .where('action', 'in', ['payment', 'refund'])
      .execute();
    expect(log).toHaveLength(2);
    expect(JSON.stringify(log)).not.toContain(String(zina.id));
  });
});

describe('the dashboard', () => {
  it('shows revenue as money received minus refunds, beside what is still due', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 1000 });
    const a = (await book(t.app, telegramUser(), bookingPayload(schedule.id, { people_count: 3 }))).json().record.id;
    const range = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 30 * 86_400_000).toISOString()}`;
    const stats = () =>
      t.app.inject({ method: 'GET', url: `/api/v1/stats/?${range}`, headers: staff }).then((r) => r.json());
    const before = await stats();
    await pay(a, { amount: 2000, method: 'cash' });
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${a}/refunds`,
      headers: staff,
      // Nothing is owed back on a booking still short: a deliberate refund, with its reason.
      payload: { amount: 500, method: 'cash', over_owed: true, note: 'Перенос части оплаты' },
    });
    const after = await stats();
    expect(after.revenue - before.revenue).toBe(1500);
    expect(before.money_due - after.money_due).toBe(2000 - 500);
  });
});

describe('business settings of money', () => {
  it('checks the account number by mod 97 and stores it as 18 digits', async () => {
    const bad = await settings({ bank_account: '160-0000000000001-00' });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json().detail)).toMatch(/контрольные цифры/);
    const ok = await settings({ bank_account: '160-51-20', bank_recipient: 'Кулинарная студия, Београд' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().bank_account).toBe('160000000000005120');
  });
});
