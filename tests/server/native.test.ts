import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, inDays, telegramUser } from '../helpers/factories';
import {
  FAKE_BOT,
  postUpdate,
  preCheckoutUpdate,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { TEST_BOT_TOKEN, tma } from '../helpers/telegram';
import { botTestApp, deliver } from '../bot/setup';
import { issueCertificate } from '../../core/certificates/sale';
import { staffActor } from '../../core/kernel/actor';
import { chooseLanguage } from '../../core/language/customer-language';

/*
 * Sharing from the mini-app (a message the bot prepared, for Telegram's shareMessage) and the API's
 * refusals and invoices in the customer's language, against the fake Bot API.
 */

const PROVIDER_TOKEN = '284685063:TEST:native-tests';

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
beforeEach(() => fake.reset());

const customer = (language_code?: string) => ({ ...telegramUser(), ...(language_code && { language_code }) });

async function booked(language_code?: string, opts: { capacity?: number; date?: string } = {}) {
  const { schedule } = await createSession(t.app, staff, opts);
  const user = customer(language_code);
  const res = await book(t.app, user, bookingPayload(schedule.id));
  expect(res.statusCode, res.body).toBe(201);
  return { user, schedule, id: res.json().record.id as number };
}

type Article = {
  type: string;
  title: string;
  input_message_content: { message_text: string };
  reply_markup: { inline_keyboard: { text: string; url: string }[][] };
};

describe('sharing a seat with a prepared message', () => {
  it('prepares the gift for the giver alone, in their language, with a link button the friend can use', async () => {
    const { user, id } = await booked('en');
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/gift/share`, headers: tma(user) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ id: string; expiration_date: number; url: string }>();
    expect(body.url).toMatch(new RegExp(`^https://t\\.me/${FAKE_BOT.username}\\?start=gift_[\\w-]+$`));
    expect(body.expiration_date).toBeGreaterThan(Date.now() / 1000);

    const [call] = fake.ok('savePreparedInlineMessage');
    expect(call.params).toMatchObject({ user_id: user.id, allow_user_chats: true, allow_group_chats: true });
    const result = call.params.result as Article;
    expect(result.type).toBe('article');
    expect(result.title).toBe('A seat at the workshop “Паста”');
    expect(result.input_message_content.message_text).toContain('I’m giving you my seat');
    expect(result.reply_markup.inline_keyboard).toEqual([[{ text: 'Accept the seat', url: body.url }]]);
    // The id the mini-app passes to shareMessage is the one Telegram gave.
    expect(body.id).toMatch(/^prepared-\d+$/);

    // The link in the message is a live gift.
    const token = /gift_([\w-]+)$/.exec(body.url)![1];
    const view = await t.app.inject({ method: 'GET', url: `/api/v1/gifts/${token}`, headers: tma(customer()) });
    expect(view.statusCode).toBe(200);
  });

  it('refuses another customer’s booking and staff, and says so when Telegram refuses', async () => {
    const { user, id } = await booked('ru');
    const stranger = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${id}/gift/share`,
      headers: tma(customer('sr')),
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().detail).toBe('Prijava nije pronađena');
    const asStaff = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/gift/share`, headers: staff });
    expect(asStaff.statusCode).toBe(403);
    expect(asStaff.json().detail).toBe('Это действие доступно только из Telegram');

    fake.failNext('savePreparedInlineMessage', { error_code: 400, description: 'Bad Request: USER_ID_INVALID' });
    const down = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/gift/share`, headers: tma(user) });
    expect(down.statusCode).toBe(503);
    expect(down.json().detail).toBe('Telegram сейчас недоступен, попробуйте позже');
    expect(fake.ok('savePreparedInlineMessage')).toHaveLength(0);
  });

  it('prepares a paid certificate of the customer’s with its code and the bot’s link', async () => {
    const user = customer('sr');
    const owner = staffActor({ id: 1, is_superuser: true }, t.config.businessTimezone);
    const cert = await issueCertificate(t.database, owner, {
      amount: 5000,
      method: 'cash',
      buyer_telegram_id: user.id,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/me/certificates/${cert.id}/share`,
      headers: tma(user),
    });
    expect(res.statusCode, res.body).toBe(200);
    const code = cert.code.replaceAll('-', '');
    expect(res.json().url).toBe(`https://t.me/${FAKE_BOT.username}?start=cert_${code}`);
    const result = fake.ok('savePreparedInlineMessage')[0].params.result as Article;
    expect(result.title).toBe('Poklon-sertifikat na 5.000\u00a0din.');
    expect(result.input_message_content.message_text).toContain(`Kod: ${cert.code}`);
    expect(result.reply_markup.inline_keyboard[0][0]).toEqual({ text: 'Otvori sertifikat', url: res.json().url });

    // Someone else's certificate is not theirs to give.
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/v1/me/certificates/${cert.id}/share`,
      headers: tma(customer('en')),
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().detail).toBe('No certificate has this code');
  });

  it('a places certificate is shared as places on any workshop, never a sum', async () => {
    const user = customer('ru');
    const owner = staffActor({ id: 1, is_superuser: true }, t.config.businessTimezone);
    const cert = await issueCertificate(t.database, owner, {
      places: 3,
      price_paid: 9000,
      method: 'cash',
      buyer_telegram_id: user.id,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/me/certificates/${cert.id}/share`,
      headers: tma(user),
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = fake.ok('savePreparedInlineMessage').at(-1)!.params.result as Article;
    expect(result.title).toBe('Подарочный сертификат на 3 места на любой мастер-класс');
    expect(result.input_message_content.message_text).not.toContain('RSD');
  });
});

describe('the fake Bot API checks savePreparedInlineMessage as Telegram does', () => {
  const save = (params: Record<string, unknown>) =>
    fetch(`${fake.url}/bot${TEST_BOT_TOKEN}/savePreparedInlineMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const result = {
    type: 'article',
    id: 'gift-1',
    title: 'A seat',
    input_message_content: { message_text: 'Hello' },
    reply_markup: { inline_keyboard: [[{ text: 'Accept', url: 'https://t.me/bot?start=gift_x' }]] },
  };

  it('answers a PreparedInlineMessage for valid parameters and refuses what Telegram refuses', async () => {
    const good = await save({ user_id: 42, result, allow_user_chats: true });
    expect(good.status).toBe(200);
    expect(good.body.result).toEqual({ id: expect.any(String), expiration_date: expect.any(Number) });
    expect((await save({ result, allow_user_chats: true })).status).toBe(400);
    expect((await save({ user_id: 42, result })).body.description).toBe('Bad Request: PEER_TYPES_INVALID');
    const webApp = {
      ...result,
      reply_markup: { inline_keyboard: [[{ text: 'Open', web_app: { url: 'https://x' } }]] },
    };
    expect((await save({ user_id: 42, result: webApp, allow_user_chats: true })).status).toBe(400);
    const empty = { ...result, input_message_content: { message_text: '' } };
    expect((await save({ user_id: 42, result: empty, allow_user_chats: true })).status).toBe(400);
  });
});

describe('refusals in the customer’s language', () => {
  it('English, Serbian, an unknown language → Russian, and staff read Russian', async () => {
    const { schedule } = await createSession(t.app, staff);
    const said = async (headers: Record<string, string>, user: { id: number }) => {
      await book(t.app, user, bookingPayload(schedule.id));
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/v1/records/',
        headers,
        payload: bookingPayload(schedule.id),
      });
      expect(again.statusCode).toBe(409);
      return again.json().detail;
    };
    const en = customer('en-GB');
    expect(await said(tma(en), en)).toBe('You are already booked for this workshop');
    const sr = customer('sr');
    expect(await said(tma(sr), sr)).toBe('Već ste prijavljeni na ovu radionicu');
    const de = customer('de');
    expect(await said(tma(de), de)).toBe('Вы уже записаны на этот мастер-класс');
    // A language chosen with /language wins over the Telegram app's.
    const chose = customer('en');
    await chooseLanguage(t.database.db, chose.id, 'sr');
    expect(await said(tma(chose), chose)).toBe('Već ste prijavljeni na ovu radionicu');
    // Staff calling the same endpoint read Russian.
    const asStaff = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: staff,
      payload: { ...bookingPayload(schedule.id), telegram_id: en.id },
    });
    expect(asStaff.statusCode).toBe(409);
    expect(asStaff.json().detail).toBe('Вы уже записаны на этот мастер-класс');
  });

  it('a refusal that shows values (the change deadline) is said with them', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { change_deadline_hours: 48, contact: '@studio' },
    });
    expect(put.statusCode, put.body).toBe(200);
    try {
      const { user, id, schedule } = await booked('en', { date: inDays(1) });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/records/cancel/${id}`,
        headers: tma(user),
        payload: { cancel_reason: 'Plans changed' },
      });
      expect(res.statusCode).toBe(409);
      const english =
        'A booking can be changed or cancelled up to 48 hours before the workshop starts. Contact the studio: @studio';
      expect(res.json().detail).toBe(english);
      // The booking page says why the buttons are gone in the same words; a Russian customer reads Russian.
      const view = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(user) });
      expect(view.json().allowed.cancel).toEqual({ ok: false, reason: 'deadline', detail: english });
      const russian = customer();
      const ruId = (await book(t.app, russian, bookingPayload(schedule.id))).json().record.id;
      const ruView = await t.app.inject({ method: 'GET', url: `/api/v1/records/${ruId}`, headers: tma(russian) });
      expect(ruView.json().allowed.cancel.detail).toMatch(/^Изменить или отменить запись можно не позднее чем за 48/);
    } finally {
      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/business-settings/',
        headers: staff,
        payload: { change_deadline_hours: 0, contact: '' },
      });
    }
  });
});

describe('Telegram invoices in the customer’s language', () => {
  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { prepayment: 'full', payment_hold_minutes: 30 },
    });
    expect(res.statusCode).toBe(200);
  });

  it('the invoice link of an English customer has English title, description and price label', async () => {
    const { user, id } = await booked('en');
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/invoice`, headers: tma(user) });
    expect(res.statusCode, res.body).toBe(200);
    const call = fake.ok('createInvoiceLink')[0].params;
    expect(call.title).toBe('Workshop Паста');
    expect(call.description).toMatch(/^“Паста”, \d{1,2} \w+ \d{4} at \d\d:\d\d, people: 1\. Booking No\. \d+\.$/);
    expect(JSON.parse(JSON.stringify(call.prices))).toEqual([{ label: `Booking No. ${id}`, amount: 350_000 }]);
  });

  it('a workshop with an English title is named by it in the invoice and the shared gift', async () => {
    const { schedule, workshop } = await createSession(t.app, staff);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workshops/${workshop.id}`,
      headers: staff,
      payload: { title_en: 'Fresh pasta' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const user = customer('en');
    const id = (await book(t.app, user, bookingPayload(schedule.id))).json().record.id;
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/invoice`, headers: tma(user) })).statusCode,
    ).toBe(200);
    expect(fake.ok('createInvoiceLink')[0].params.title).toBe('Workshop Fresh pasta');
    const share = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/gift/share`, headers: tma(user) });
    expect(share.statusCode, share.body).toBe(200);
    expect((fake.ok('savePreparedInlineMessage')[0].params.result as Article).title).toBe(
      'A seat at the workshop “Fresh pasta”',
    );
  });

  it('the confirmation’s invoice and the pre-checkout refusal follow the customer’s language', async () => {
    const { user, id } = await booked('sr');
    await deliver(t);
    const invoice = fake.ok('sendInvoice', user.id)[0]?.params;
    expect(invoice?.title).toBe('Radionica Паста');
    const from = { ...tgUser(user.id), language_code: 'sr' };
    const res = await postUpdate(t.app, t.config.webhookSecret, preCheckoutUpdate(from, `record:${id}`, 1));
    expect(res.statusCode).toBe(200);
    await fake.waitFor(() => fake.ok('answerPreCheckoutQuery').length > 0);
    expect(fake.ok('answerPreCheckoutQuery')[0].params).toMatchObject({
      ok: false,
      error_message: 'Iznos za plaćanje se promenio. Otvorite prijavu i platite ponovo',
    });
  });
});

describe('a refused field (422)', () => {
  it('is said in the customer’s language; a Russian customer reads the schema’s own Russian message', async () => {
    const { schedule } = await createSession(t.app, staff);
    const payload = { ...bookingPayload(schedule.id), people_count: 0 };
    const say = async (language_code: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/records/',
        headers: tma(customer(language_code)),
        payload: { ...payload, name: undefined },
      });
      expect(res.statusCode).toBe(422);
      return res.json() as { detail: string; errors: { loc: string[]; msg: string }[] };
    };
    const en = await say('en');
    expect(en.errors.map((e) => [e.loc.join('.'), e.msg])).toEqual([
      ['body.name', 'Required'],
      ['body.people_count', 'At least 1'],
    ]);
    expect(en.detail).toBe('name: Required; people_count: At least 1');
    expect((await say('sr')).detail).toBe('name: Obavezno polje; people_count: Najmanje 1');
    expect((await say('ru')).detail).toMatch(/^name: .*[а-я].*; people_count: Количество человек: от 1 до \d+$/);
  });
});
