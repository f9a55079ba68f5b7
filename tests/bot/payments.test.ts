import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  plain,
  deliverUpdate,
  postUpdate,
  preCheckoutUpdate,
  startFakeTelegram,
  successfulPaymentUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { botTestApp, createStaff, deliver, linkStaff } from './setup';

const PROVIDER_TOKEN = '284685063:TEST:money-tests';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
const staffChat = 9_300_001;

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake, { env: { PAYMENT_PROVIDER_TOKEN: PROVIDER_TOKEN } });
  staff = await t.auth();
  const cashier = await createStaff(t, 'cashier@example.com');
  await linkStaff(t, cashier, staffChat, { userApply: true, userCancel: true, scheduled1d: false });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(async () => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/business-settings/',
    headers: staff,
    payload: { prepayment: 'full', payment_hold_minutes: 30, refund_to: 'credit' },
  });
  expect(res.statusCode).toBe(200);
  await deliver(t);
  fake.reset();
});

const send = async (update: unknown) =>
  expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
/** Delivers an update as Telegram does: again while the answer is 503 (another copy of it is being handled). */
const deliverUntilDone = async (update: unknown) =>
  expect(await deliverUpdate(t.app, t.config.webhookSecret, update)).toBe(200);
const ledger = (id: number) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: staff }).then((r) => r.json());
const answers = () => fake.ok('answerPreCheckoutQuery').map((c) => c.params);

async function booked(price = 3500, people = 1) {
  const { schedule } = await createSession(t.app, staff, { price });
  const user = telegramUser();
  const res = await book(t.app, user, bookingPayload(schedule.id, { people_count: people }));
  expect(res.statusCode).toBe(201);
  return { user, tg: tgUser(user.id), id: res.json().record.id as number };
}

describe('Telegram invoices', () => {
  it('the mini-app gets an invoice link for the amount still required, in RSD minor units', async () => {
    const { user, id } = await booked(3500, 2);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/invoice`, headers: tma(user) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount: 7000, url: expect.stringMatching(/^https:\/\/t\.me\/\$/) });
    const call = fake.ok('createInvoiceLink')[0].params;
    expect(call).toMatchObject({ currency: 'RSD', payload: `record:${id}`, provider_token: PROVIDER_TOKEN });
    expect([...String(call.title)].length).toBeLessThanOrEqual(32);
    expect([...String(call.description)].length).toBeLessThanOrEqual(255);
    expect(JSON.parse(JSON.stringify(call.prices))).toEqual([{ label: `Запись №${id}`, amount: 700_000 }]);
    // Someone else's booking is not theirs to pay; staff have no Telegram wallet here.
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${id}/invoice`,
      headers: tma(telegramUser()),
    });
    expect(other.statusCode).toBe(404);
    const asStaff = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/invoice`, headers: staff });
    expect(asStaff.statusCode).toBe(403);
  });

  it('the confirmation in the chat is followed by an invoice with the pay button', async () => {
    const { user, id } = await booked(2000);
    await deliver(t);
    const text = plain(fake.messages(user.id)[0].params.text);
    expect(text).toContain('Стоимость: 2\u00a0000\u00a0RSD');
    expect(text).toMatch(/оплатите 2\u00a0000\u00a0RSD до .+, иначе запись отменится/);
    const invoice = fake.ok('sendInvoice', user.id);
    expect(invoice).toHaveLength(1);
    expect(invoice[0].params).toMatchObject({
      currency: 'RSD',
      payload: `record:${id}`,
      provider_token: PROVIDER_TOKEN,
    });
  });
});

describe('pre_checkout_query', () => {
  it('is answered ok at once, in the update handler, while the booking waits for exactly this amount', async () => {
    const { tg, id } = await booked(3000);
    await deliver(t);
    const outbox = () => t.database.db.selectFrom('notifications').select('id').execute();
    const before = (await outbox()).length;
    const started = Date.now();
    await send(preCheckoutUpdate(tg, `record:${id}`, 300_000));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(answers()).toEqual([{ pre_checkout_query_id: expect.any(String), ok: true }]);
    // Answered by the handler itself: nothing went through the outbox.
    expect((await outbox()).length).toBe(before);
  });

  it('refuses a wrong amount, a cancelled booking and an expired hold, with a Russian reason', async () => {
    const wrong = await booked(3000);
    await send(preCheckoutUpdate(wrong.tg, `record:${wrong.id}`, 100_000));
    const cancelled = await booked(3000);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${cancelled.id}`,
      headers: tma(cancelled.user),
      payload: { cancel_reason: 'Передумал' },
    });
    await send(preCheckoutUpdate(cancelled.tg, `record:${cancelled.id}`, 300_000));
    const expired = await booked(3000);
    await t.database.db
      .updateTable('records')
      .set({ pay_by: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    await send(preCheckoutUpdate(expired.tg, `record:${expired.id}`, 300_000));
    await send(preCheckoutUpdate(wrong.tg, 'record:999999', 300_000));
    expect(answers().map((a) => [a.ok, a.error_message])).toEqual([
      [false, 'Сумма к оплате изменилась. Откройте запись и оплатите заново'],
      [false, 'Запись отменена: оплата не нужна'],
      [false, 'Время на оплату истекло, запись отменена. Запишитесь снова'],
      [false, 'Запись не найдена'],
    ]);
  });
});

describe('successful_payment', () => {
  it('is recorded once when delivered twice and concurrently; the customer and staff are told, the hold ends', async () => {
    const { tg, id } = await booked(4000);
    const same = successfulPaymentUpdate(tg, `record:${id}`, 400_000, 'charge-1');
    const again = { ...successfulPaymentUpdate(tg, `record:${id}`, 400_000, 'charge-1') };
    await Promise.all([
      deliverUntilDone(same),
      deliverUntilDone(same),
      deliverUntilDone(again),
      deliverUntilDone({ ...again, update_id: again.update_id + 1000 }),
    ]);
    const l = await ledger(id);
    expect(l.payments).toMatchObject([
      {
        amount: 4000,
        method: 'telegram',
        telegram_payment_charge_id: 'charge-1',
        provider_payment_charge_id: 'prov-charge-1',
      },
    ]);
    expect(l.money).toMatchObject({ status: 'paid', balance: 0, pay_by: null });
    await deliver(t);
    expect(
      fake
        .messages(tg.id)
        .map((m) => plain(m.params.text))
        .some((x) => x.includes('Оплата 4\u00a0000\u00a0RSD')),
    ).toBe(true);
    expect(
      fake.messages(staffChat).some((m) => plain(m.params.text).startsWith('💳 Оплата 4\u00a0000\u00a0RSD (Telegram)')),
    ).toBe(true);
  });

  it('money for a booking already paid at the studio goes to the customer’s credit', async () => {
    const { user, tg, id } = await booked(1800);
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${id}/payments`,
      headers: staff,
      payload: { method: 'cash' },
    });
    await send(successfulPaymentUpdate(tg, `record:${id}`, 180_000, 'charge-twice'));
    const l = await ledger(id);
    expect(l.money).toMatchObject({ amount_paid: 1800, balance: 0, status: 'paid' });
    expect(l.payments.map((p: { amount: number; method: string }) => [p.amount, p.method])).toEqual([
      [1800, 'cash'],
      [1800, 'telegram'],
      [-1800, 'credit'],
    ]);
    const credit = await t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) });
    expect(credit.json()).toEqual({ balance: 1800 });
  });

  it('money for a booking cancelled meanwhile goes to the customer’s credit and staff are alerted', async () => {
    const { user, tg, id } = await booked(2500);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${id}`,
      headers: tma(user),
      payload: { cancel_reason: 'Передумал' },
    });
    await send(successfulPaymentUpdate(tg, `record:${id}`, 250_000, 'charge-late'));
    const l = await ledger(id);
    expect(l.payments.map((p: { amount: number; method: string }) => [p.amount, p.method])).toEqual([
      [2500, 'telegram'],
      [-2500, 'credit'],
    ]);
    expect(l.money.status).toBe('credited');
    const credit = await t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) });
    expect(credit.json()).toEqual({ balance: 2500 });
    await deliver(t);
    expect(
      fake.messages(staffChat).some((m) => plain(m.params.text).includes('зачислена на баланс клиента в студии')),
    ).toBe(true);
    expect(fake.messages(tg.id).some((m) => plain(m.params.text).includes('зачислены на ваш баланс в студии'))).toBe(
      true,
    );
  });
});
