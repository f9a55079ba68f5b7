import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  callbackUpdate,
  keyboardOf,
  plain,
  postUpdate,
  startFakeTelegram,
  textUpdate,
  tgUser,
  FAKE_BOT,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { createLinkToken } from '../../core/staff/telegram-link';
import { botTestApp, deliver, PUBLIC_URL, SESSION_DATE } from './setup';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
let secret: string;

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake, { env: { BUSINESS_NAME: 'Кухня & Ко' } });
  staff = await t.auth();
  secret = t.config.webhookSecret;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const send = async (update: unknown) => {
  const res = await postUpdate(t.app, secret, update);
  expect(res.statusCode).toBe(200);
};
const lastReply = (chatId: number) => fake.messages(chatId).at(-1)!;

describe('the webhook', () => {
  it('rejects a request without the secret token, or with a wrong one, and handles nothing', async () => {
    const u = tgUser(801);
    expect((await postUpdate(t.app, null, textUpdate(u, '/start'))).statusCode).toBe(401);
    expect((await postUpdate(t.app, 'wrong-secret', textUpdate(u, '/start'))).statusCode).toBe(401);
    expect((await postUpdate(t.app, `${secret}x`, textUpdate(u, '/start'))).statusCode).toBe(401);
    expect(fake.calls.filter((c) => c.method !== 'getMe')).toHaveLength(0);
    expect((await postUpdate(t.app, secret, { not: 'an update' })).statusCode).toBe(422);
    await send(textUpdate(u, '/start'));
    expect(fake.messages(u.id)).toHaveLength(1);
  });

  it('at start sets the commands, the menu button to /apply, and registers the webhook with its secret', async () => {
    await t.telegram!.start();
    await t.telegram!.stop();
    expect((fake.ok('setMyCommands')[0].params.commands as { command: string }[]).map((c) => c.command)).toEqual([
      'start',
      'my',
      'cancel',
      'language',
      'help',
      'mydata',
      'forget',
    ]);
    expect(fake.ok('setChatMenuButton')[0].params.menu_button).toEqual({
      type: 'web_app',
      text: 'Записаться',
      web_app: { url: `${PUBLIC_URL}/apply` },
    });
    expect(fake.ok('setWebhook')[0].params).toMatchObject({
      url: `${PUBLIC_URL}/api/v1/telegram/webhook`,
      secret_token: secret,
      allowed_updates: ['message', 'callback_query', 'pre_checkout_query', 'business_connection', 'business_message'],
    });
    // The token goes in the fake's path, never in the webhook URL.
    expect(JSON.stringify(fake.ok('setWebhook')[0].params)).not.toContain(t.config.botToken);
  });
});

describe('customer commands', () => {
  it('/start greets with the business name and a button that opens the mini-app', async () => {
    const u = tgUser(802);
    await send(textUpdate(u, '/start'));
    const msg = lastReply(u.id);
    expect(msg.params.parse_mode).toBe('HTML');
    expect(msg.params.text).toContain('Здравствуйте! Это бот «Кухня &amp; Ко»');
    expect(plain(msg.params.text)).toContain('/my — мои записи');
    expect(keyboardOf(msg)).toEqual([
      [{ text: 'Записаться на мастер-класс', web_app: { url: `${PUBLIC_URL}/apply` } }],
    ]);
  });

  it('/help lists the commands; anything else gets a hint', async () => {
    const u = tgUser(803);
    await send(textUpdate(u, '/help'));
    expect(plain(lastReply(u.id).params.text)).toMatch(/\/my — мои предстоящие записи[^]*\/cancel — отменить запись/);
    await send(textUpdate(u, 'привет'));
    expect(lastReply(u.id).params.text).toBe('Я понимаю команды /start, /my, /cancel и /help.');
  });

  it('/my lists upcoming bookings with state, date and people, a button per booking to /record/{id}', async () => {
    const customer = telegramUser('mira');
    const u = tgUser(customer.id, 'mira');
    await send(textUpdate(u, '/my'));
    expect(lastReply(u.id).params.text).toBe('У вас пока нет предстоящих записей.');
    expect(keyboardOf(lastReply(u.id))).toEqual([
      [{ text: 'Записаться на мастер-класс', web_app: { url: `${PUBLIC_URL}/apply` } }],
    ]);

    const first = (await createSession(t.app, staff, { date: SESSION_DATE, capacity: 2 })).schedule;
    const second = (await createSession(t.app, staff, { date: '2030-12-10T17:00:00.000Z', capacity: 1 })).schedule;
    const past = (await createSession(t.app, staff, { date: '2030-01-10T17:00:00.000Z' })).schedule;
    const r1 = (await book(t.app, customer, bookingPayload(first.id, { people_count: 2 }))).json().record.id;
    await book(t.app, telegramUser(), bookingPayload(second.id));
    const r2 = (await book(t.app, customer, bookingPayload(second.id, { people_count: 1 }))).json().record.id;
    const r3 = (await book(t.app, customer, bookingPayload(past.id))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${past.id}`,
      headers: staff,
      payload: { date: '2020-01-10T17:00:00.000Z' },
    });

    await send(textUpdate(u, '/my'));
    const msg = lastReply(u.id);
    expect(plain(msg.params.text)).toBe(
      [
        'Ваши предстоящие записи:',
        '',
        '1. «Паста», 5 декабря 2030 12:00',
        '    ✅ Активна · 2 чел.',
        // The price, what is paid and what is due (here: at the studio, nothing asked in advance).
        '    💰 Стоимость: 7\u00a0000\u00a0RSD',
        '    К оплате в студии: 7\u00a0000\u00a0RSD',
        '2. «Паста», 10 декабря 2030 18:00',
        '    ⏳ В очереди (место 1) · 1 чел.',
        '    💰 Стоимость: 3\u00a0500\u00a0RSD',
      ].join('\n'),
    );
    expect(keyboardOf(msg)).toEqual([
      [{ text: '1. Паста, 5 декабря 12:00', web_app: { url: `${PUBLIC_URL}/record/${r1}` } }],
      [{ text: '2. Паста, 10 декабря 18:00', web_app: { url: `${PUBLIC_URL}/record/${r2}` } }],
      // A queued booking can leave the queue from here.
      [{ text: 'Выйти из очереди: 2', callback_data: `queue:leave:${r2}` }],
    ]);
    expect(JSON.stringify(keyboardOf(msg))).not.toContain(`/record/${r3}`);
  });
});

describe('/cancel, a conversation', () => {
  it('picks a booking, asks the reason, confirms, and cancels it through the booking engine', async () => {
    const customer = telegramUser('olga');
    const u = tgUser(customer.id, 'olga');
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 1 });
    const id = (await book(t.app, customer, bookingPayload(schedule.id))).json().record.id;
    const waiting = telegramUser();
    await book(t.app, waiting, bookingPayload(schedule.id));
    await deliver(t);
    fake.reset();

    await send(textUpdate(u, '/cancel'));
    const pick = lastReply(u.id);
    expect(pick.params.text).toBe('Какую запись отменить?');
    expect(keyboardOf(pick)).toEqual([
      [{ text: 'Паста, 5 декабря 12:00', callback_data: `cancel:pick:${id}` }],
      [{ text: 'Не отменять', callback_data: 'cancel:abort' }],
    ]);

    await send(textUpdate(u, 'что-то не то'));
    expect(lastReply(u.id).params.text).toBe('Выберите запись кнопкой выше или нажмите «Не отменять».');

    await send(callbackUpdate(u, `cancel:pick:${id}`, 42));
    const ask = fake.ok('editMessageText', u.id).at(-1)!;
    expect(ask.params.message_id).toBe(42);
    expect(plain(ask.params.text)).toBe(
      'Отменяем запись на «Паста», 5 декабря 2030 12:00.\n\nНапишите, пожалуйста, причину отмены одним сообщением.',
    );
    expect(fake.ok('answerCallbackQuery')).toHaveLength(1);

    await send(textUpdate(u, '  Уезжаю <в командировку>  '));
    const confirm = lastReply(u.id);
    expect(plain(confirm.params.text)).toBe(
      'Отменить запись на «Паста», 5 декабря 2030 12:00?\n\nПричина: Уезжаю <в командировку>',
    );
    expect(keyboardOf(confirm)).toEqual([
      [
        { text: 'Да, отменить', callback_data: 'cancel:yes' },
        { text: 'Нет', callback_data: 'cancel:no' },
      ],
    ]);

    await send(callbackUpdate(u, 'cancel:yes', 43));
    expect(fake.ok('answerCallbackQuery').at(-1)!.params.text).toBe('Запись отменена');
    expect(fake.ok('editMessageText', u.id).at(-1)!.params.text).toMatch(/^❌ Запись отменена/);

    const view = (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: staff })).json();
    expect(view.record).toMatchObject({ state: 'CANCELLED', cancel_reason: 'Уезжаю <в командировку>' });
    // The engine's own notifications follow through the outbox: the customer's, and the promotion of the queue.
    await deliver(t);
    expect(plain(lastReply(u.id).params.text)).toContain(
      'Ваша запись на мастер-класс «Паста» отменена.\nПричина: Уезжаю <в командировку>',
    );
    expect(plain(lastReply(waiting.id).params.text)).toContain('Освободилось место!');

    // The conversation is over: its old buttons do nothing, and nothing is left to cancel.
    await send(callbackUpdate(u, 'cancel:yes', 43));
    expect(fake.ok('answerCallbackQuery').at(-1)!.params.text).toBe(
      'Эта кнопка больше не действует. Отправьте команду заново.',
    );
    await send(textUpdate(u, '/cancel'));
    expect(lastReply(u.id).params.text).toBe('У вас нет предстоящих записей, которые можно отменить.');
  });

  it('"Нет" keeps the booking; a command in the middle leaves the conversation and is answered', async () => {
    const customer = telegramUser();
    const u = tgUser(customer.id);
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const id = (await book(t.app, customer, bookingPayload(schedule.id))).json().record.id;

    await send(textUpdate(u, '/cancel'));
    await send(callbackUpdate(u, `cancel:pick:${id}`));
    await send(textUpdate(u, '/my'));
    expect(lastReply(u.id).params.text).toMatch(/^Ваши предстоящие записи:/);
    await send(textUpdate(u, 'просто текст'));
    expect(lastReply(u.id).params.text).toBe('Я понимаю команды /start, /my, /cancel и /help.');

    await send(textUpdate(u, '/cancel'));
    await send(callbackUpdate(u, `cancel:pick:${id}`));
    await send(textUpdate(u, 'Передумала'));
    await send(callbackUpdate(u, 'cancel:no'));
    expect(fake.ok('editMessageText', u.id).at(-1)!.params.text).toBe('Хорошо, запись остаётся в силе.');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: staff })).json().record.state,
    ).toBe('ACTIVE');
  });

  it("cannot cancel someone else's booking with forged button data", async () => {
    const owner = telegramUser();
    const mallory = tgUser(telegramUser().id);
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const theirs = (await book(t.app, owner, bookingPayload(schedule.id))).json().record.id;
    const mine = (await book(t.app, { id: mallory.id }, bookingPayload(schedule.id))).json().record.id;
    expect(mine).toBeGreaterThan(0);

    await send(textUpdate(mallory, '/cancel'));
    await send(callbackUpdate(mallory, `cancel:pick:${theirs}`));
    expect(fake.ok('answerCallbackQuery').at(-1)!.params.text).toBe(
      'Эта запись недоступна. Выберите запись кнопкой выше.',
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/records/${theirs}`, headers: staff })).json().record.state,
    ).toBe('ACTIVE');
  });
});

describe('linking a staff account to Telegram', () => {
  it('gives a one-time deep link valid 15 minutes; /start link_<token> sets telegram_id and telegram_login', async () => {
    const before = Date.now();
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/users/me/telegram-link', headers: staff });
    expect(res.statusCode).toBe(200);
    const { url, expires_at } = res.json();
    expect(url).toMatch(new RegExp(`^https://t\\.me/${FAKE_BOT.username}\\?start=link_[A-Za-z0-9_-]{20,58}$`));
    expect(Date.parse(expires_at) - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    expect(Date.parse(expires_at) - before).toBeLessThanOrEqual(15 * 60_000 + 5000);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/users/me/telegram-link' })).statusCode).toBe(401);

    const u = tgUser(900_001, 'chef_admin');
    const payload = new URL(url).searchParams.get('start')!;
    await send(textUpdate(u, `/start ${payload}`));
    expect(plain(lastReply(u.id).params.text)).toMatch(
      /^✅ Готово! Уведомления для admin@example\.com теперь будут приходить в этот чат\./,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json()).toMatchObject({
      telegram_id: 900_001,
      telegram_login: 'chef_admin',
    });

    // Once only.
    const other = tgUser(900_002, 'someone');
    await send(textUpdate(other, `/start ${payload}`));
    expect(lastReply(other.id).params.text).toBe(
      'Ссылка недействительна или устарела. Получите новую в профиле (Настройки → Профиль).',
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json().telegram_id).toBe(
      900_001,
    );

    // Unlinking: the profile toggle sends telegram_id null.
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: staff,
      payload: { telegram_id: null },
    });
    expect(off.json()).toMatchObject({ telegram_id: null, telegram_login: null });
  });

  it('refuses an expired link', async () => {
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json();
    const { token } = await createLinkToken(t.database, me.id, Date.now() - 16 * 60_000);
    const u = tgUser(900_003);
    await send(textUpdate(u, `/start link_${token}`));
    expect(lastReply(u.id).params.text).toMatch(/^Ссылка недействительна или устарела/);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json().telegram_id,
    ).toBeNull();
  });
});
