import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  postUpdate,
  preCheckoutUpdate,
  startFakeTelegram,
  tgUser,
  TOO_MANY,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { formatMoney } from '../../contract/format';
import { botTestApp, deliver } from './setup';
import { cancelExpiredHolds } from '../../core/payments/hold';
import { plain } from '../helpers/fake-telegram';

// Telegram's refusal of an invoice is an answer (409 / 503 in the customer's language, nothing left
// behind), an amount outside Telegram's limits never reaches it, and the certificate invoice, its
// pre-checkout refusals and a refused field read in the customer's language.
const PROVIDER_TOKEN = '284685063:TEST:telegram-refusals';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake, { env: { PAYMENT_PROVIDER_TOKEN: PROVIDER_TOKEN } });
  staff = await t.auth();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(async () => {
  await settings({ prepayment: 'full', payment_hold_minutes: 30 });
  await deliver(t);
  fake.reset();
});

async function settings(payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });
  expect(res.statusCode, res.body).toBe(200);
}
const customer = (language_code: string) => ({ ...telegramUser(), language_code });
const purchase = (user: { id: number }, payload: Record<string, unknown> = { amount: 3500 }) =>
  t.app.inject({ method: 'POST', url: '/api/v1/certificates/purchase', headers: tma(user), payload });
const certificatesOf = (user: { id: number }) =>
  t.database.db.selectFrom('certificates').selectAll().where('buyer_telegram_id', '=', user.id).execute();
const invoice = (user: { id: number }, id: number) =>
  t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/invoice`, headers: tma(user) });

async function booked(language_code: string, price = 3500) {
  const { schedule } = await createSession(t.app, staff, { price });
  const user = customer(language_code);
  const res = await book(t.app, user, bookingPayload(schedule.id));
  expect(res.statusCode, res.body).toBe(201);
  return { user, id: res.json().record.id as number };
}

describe('Telegram refusing an invoice link', () => {
  it('a 400 is a 409 in the buyer’s language, and no certificate is left waiting', async () => {
    const user = customer('sr');
    fake.failNext('createInvoiceLink', { error_code: 400, description: 'Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID' });
    const res = await purchase(user);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().detail).toBe('Telegram nije prihvatio račun za plaćanje. Platite u studiju ili nam pišite');
    expect(await certificatesOf(user)).toEqual([]);
    // Asked again once Telegram takes it: one certificate, with its link.
    const again = await purchase(user);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().invoice_url).toMatch(/^https:\/\/t\.me\//);
    expect(await certificatesOf(user)).toHaveLength(1);
  });

  it('Telegram unreachable, its 5xx or a long rate limit is a 503 saying to try again, and nothing is left', async () => {
    const user = customer('en');
    for (const failure of ['unreachable', { error_code: 502, description: 'Bad Gateway' }, TOO_MANY(60)] as const) {
      // Auto-retry waits out a short rate limit or a passing 5xx: these last.
      fake.failNext('createInvoiceLink', failure, { times: 5 });
      const res = await purchase(user);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().detail).toBe('Telegram is not answering right now. Please try to pay again in a minute');
    }
    expect(await certificatesOf(user)).toEqual([]);
  });

  it('concurrent purchases while Telegram is unreachable all answer 503 and leave nothing; then each gets its own link', async () => {
    const user = customer('ru');
    fake.failNext('createInvoiceLink', 'unreachable', { times: 4 });
    const failed = await Promise.all([1, 2, 3, 4].map(() => purchase(user)));
    expect(failed.map((r) => r.statusCode)).toEqual([503, 503, 503, 503]);
    expect(await certificatesOf(user)).toEqual([]);
    const bought = await Promise.all([1, 2, 3, 4].map(() => purchase(user)));
    expect(bought.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(bought.map((r) => r.json().invoice_url)).size).toBe(4);
    expect(await certificatesOf(user)).toHaveLength(4);
  });

  it('a booking’s invoice link refused or unreachable is a 409 / 503 in Russian for a Russian customer', async () => {
    const { user, id } = await booked('ru');
    fake.failNext('createInvoiceLink', { error_code: 400, description: 'Bad Request: PAYMENT_PROVIDER_INVALID' });
    const refused = await invoice(user, id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().detail).toBe('Telegram не принял счёт на оплату. Оплатите в студии или напишите нам');
    fake.failNext('createInvoiceLink', 'unreachable');
    const unreachable = await invoice(user, id);
    expect(unreachable.statusCode, unreachable.body).toBe(503);
    expect(unreachable.json().detail).toBe('Telegram сейчас не отвечает. Попробуйте оплатить через минуту');
    expect((await invoice(user, id)).statusCode).toBe(200);
  });
});

describe('Telegram’s limits for one payment in RSD', () => {
  it('a deposit below Telegram’s minimum is asked as the minimum, by the link, the bot’s invoice and pre-checkout', async () => {
    await settings({ prepayment: 'deposit', deposit_percent: 10 });
    const { user, id } = await booked('en', 500);
    const res = await invoice(user, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().amount).toBe(104);
    expect(JSON.parse(JSON.stringify(fake.ok('createInvoiceLink')[0].params.prices))).toEqual([
      { label: `Booking No. ${id}`, amount: 10_400 },
    ]);
    await deliver(t);
    expect(fake.ok('sendInvoice', user.id).map((c) => JSON.parse(JSON.stringify(c.params.prices))[0].amount)).toEqual([
      10_400,
    ]);
    const from = { ...tgUser(user.id), language_code: 'en' };
    expect(
      (await postUpdate(t.app, t.config.webhookSecret, preCheckoutUpdate(from, `record:${id}`, 10_400))).statusCode,
    ).toBe(200);
    await fake.waitFor(() => fake.ok('answerPreCheckoutQuery').length > 0);
    expect(fake.ok('answerPreCheckoutQuery')[0].params).toMatchObject({ ok: true });
  });

  it('a balance below Telegram’s minimum is not invoiced: a 409 in the customer’s language', async () => {
    const { user, id } = await booked('sr', 80);
    const res = await invoice(user, id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().detail).toBe(`Telegram prima uplate od ${formatMoney(104, 'sr')}, pa ostatak platite u studiju`);
    expect(fake.ok('createInvoiceLink')).toEqual([]);
    await deliver(t);
    expect(fake.ok('sendInvoice', user.id)).toEqual([]);
    // The booking page offers no Telegram button for it; a booking Telegram can take keeps it.
    const page = (u: { id: number }, i: number) =>
      t.app.inject({ method: 'GET', url: `/api/v1/records/${i}`, headers: tma(u) });
    expect((await page(user, id)).json().pay.telegram).toBe(false);
    const payable = await booked('sr', 3500);
    expect((await page(payable.user, payable.id)).json().pay.telegram).toBe(true);
  });

  it('a certificate amount Telegram would refuse cannot be set', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { certificate_amounts: [100, 3500] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain('Telegram');
  });
});

describe('a certificate bought in the customer’s language', () => {
  it('the invoice’s title, description and label are English or Serbian as the buyer reads', async () => {
    for (const [language, title, description, label] of [
      ['en', 'Gift certificate', `A gift certificate for a workshop: ${formatMoney(3500, 'en')}.`, 'Certificate'],
      ['sr', 'Poklon sertifikat', `Poklon sertifikat za radionicu: ${formatMoney(3500, 'sr')}.`, 'Sertifikat'],
    ] as const) {
      fake.reset();
      const res = await purchase(customer(language));
      expect(res.statusCode, res.body).toBe(201);
      const call = fake.ok('createInvoiceLink')[0].params;
      expect(call.title).toBe(title);
      expect(String(call.description).startsWith(description)).toBe(true);
      expect(JSON.parse(JSON.stringify(call.prices))[0].label).toBe(label);
    }
  });

  it('pre-checkout refuses a changed amount in the buyer’s language', async () => {
    const user = customer('en');
    const res = await purchase(user);
    const from = { ...tgUser(user.id), language_code: 'en' };
    const update = preCheckoutUpdate(from, `cert:${res.json().id}`, 100);
    expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
    await fake.waitFor(() => fake.ok('answerPreCheckoutQuery').length > 0);
    expect(fake.ok('answerPreCheckoutQuery')[0].params).toMatchObject({
      ok: false,
      error_message: 'The certificate’s amount has changed. Please start the purchase again',
    });
  });

  it('a refused field and an amount not offered are said in the buyer’s language', async () => {
    const en = await purchase(customer('en'), { amount: 'many' });
    expect(en.statusCode).toBe(422);
    expect(en.json().detail).toBe('amount: Enter a number');
    const sr = await purchase(customer('sr'), { amount: 3500, greeting: 'x'.repeat(1000) });
    expect(sr.statusCode).toBe(422);
    expect(sr.json().detail).not.toMatch(/[а-яё]/i);
    const notOffered = await purchase(customer('sr'), { amount: 1234 });
    expect(notOffered.json().detail).toBe('Izaberite iznos sa liste');
  });
});

describe('the system’s cancel reason in the customer’s language', () => {
  it('a hold run out unpaid reads «Not paid in time» / «Nije plaćeno na vreme» in the message and on the booking page', async () => {
    for (const [language, reason] of [
      ['en', 'Not paid in time'],
      ['sr', 'Nije plaćeno na vreme'],
      ['ru', 'Не оплачено вовремя'],
    ] as const) {
      const { user, id } = await booked(language);
      await deliver(t);
      fake.reset();
      expect(await cancelExpiredHolds(t.database, new Date(Date.now() + 31 * 60_000))).toBeGreaterThan(0);
      await deliver(t);
      const text = plain(fake.messages(user.id)[0].params.text);
      expect(text).toContain(reason);
      const page = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(user) });
      expect(page.json().record.cancel_reason).toBe(reason);
    }
    // Staff read the reason as stored.
    const { id } = await booked('en');
    await cancelExpiredHolds(t.database, new Date(Date.now() + 31 * 60_000));
    const staffView = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: staff });
    expect(staffView.json().record.cancel_reason).toBe('Не оплачено вовремя');
  });
});
