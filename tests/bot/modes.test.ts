import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { freshDatabaseUrl } from '../helpers/db';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  callbackUpdate,
  plain,
  postUpdate,
  startFakeTelegram,
  textUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { readBotSession } from '../../db/repositories/botSessions';
import { listNotifications } from '../../db/repositories/notifications';
import { createTelegram } from '../../bot/runtime';
import { FAKE_BOT } from '../helpers/fake-telegram';

const WEBHOOK = '/api/v1/telegram/webhook';
import { botTestApp, deliver, quietLog, SESSION_DATE } from './setup';

let fake: FakeTelegram;
beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('a conversation survives a restart', () => {
  it('/cancel started before the restart is finished after it, without repeating what was already sent', async () => {
    const db = await freshDatabaseUrl();
    const first = await botTestApp(fake, { databaseUrl: db.url });
    let second: TestApp | null = null;
    try {
      const staff = await first.auth();
      const { schedule } = await createSession(first.app, staff, { date: SESSION_DATE });
      const customer = telegramUser();
      const u = tgUser(customer.id);
      const id = (await book(first.app, customer, bookingPayload(schedule.id))).json().record.id;
      const secret = first.config.webhookSecret;
      expect((await postUpdate(first.app, secret, textUpdate(u, '/cancel'))).statusCode).toBe(200);
      expect((await postUpdate(first.app, secret, callbackUpdate(u, `cancel:pick:${id}`, 7))).statusCode).toBe(200);
      expect(fake.ok('editMessageText', u.id).at(-1)!.params.text).toMatch(/Напишите, пожалуйста, причину отмены/);
      expect(await readBotSession(first.database.db, `conversation:${u.id}`)).toBeDefined();
      await first.close();

      second = await botTestApp(fake, { databaseUrl: db.url });
      const before = fake.calls.length;
      expect((await postUpdate(second.app, secret, textUpdate(u, 'Сломалась машина'))).statusCode).toBe(200);
      const afterRestart = fake.calls.slice(before).filter((c) => c.method !== 'getMe');
      expect(afterRestart.map((c) => c.method)).toEqual(['sendMessage']);
      expect(plain(afterRestart[0].params.text)).toBe(
        'Отменить запись на «Паста», 5 декабря 2030 12:00?\n\nПричина: Сломалась машина',
      );

      expect((await postUpdate(second.app, secret, callbackUpdate(u, 'cancel:yes', 8))).statusCode).toBe(200);
      const view = (
        await second.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: await second.auth() })
      ).json();
      expect(view.record).toMatchObject({ state: 'CANCELLED', cancel_reason: 'Сломалась машина' });
      // The conversation is over and its state is gone.
      expect(await readBotSession(second.database.db, `conversation:${u.id}`)).toBeUndefined();
    } finally {
      await second?.close();
      await db.drop();
    }
  });
});

describe('PUBLIC_URL over http (local development)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await botTestApp(fake, { env: { PUBLIC_URL: 'http://localhost:8000' } });
  });
  afterAll(() => t.close());

  it('leaves out web-app buttons, the menu button and the webhook, and still talks', async () => {
    await t.telegram!.start();
    await t.telegram!.stop();
    // The command list in Russian (the default) and for English and Serbian clients.
    expect(fake.ok('setMyCommands').map((c) => c.params.language_code ?? 'default')).toEqual(['default', 'en', 'sr']);
    expect(fake.ok('setChatMenuButton')).toHaveLength(0);
    expect(fake.ok('setWebhook')).toHaveLength(0);

    const u = tgUser(telegramUser().id);
    await postUpdate(t.app, t.config.webhookSecret, textUpdate(u, '/start'));
    const greeting = fake.messages(u.id)[0];
    expect(greeting.params.text).toMatch(/^Здравствуйте!/);
    expect(greeting.params.reply_markup).toBeUndefined();

    const staff = await t.auth();
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    await book(t.app, { id: u.id }, bookingPayload(schedule.id));
    await deliver(t);
    const booked = fake.messages(u.id)[1];
    expect(booked.params.text).toMatch(/^✅ Вы записаны/);
    expect(booked.params.reply_markup).toBeUndefined();
  });
});

describe('BOT_MODE=polling', () => {
  it('drops the webhook, long-polls the same bot, and stops', async () => {
    const t = await botTestApp(fake, { env: { BOT_MODE: 'polling' } });
    try {
      await t.telegram!.start();
      await fake.waitFor(() => fake.ok('getUpdates').length > 0);
      expect(fake.ok('deleteWebhook')).toHaveLength(1);
      expect(fake.ok('setWebhook')).toHaveLength(0);
      expect(fake.ok('getUpdates')[0].params.allowed_updates).toEqual([
        'message',
        'callback_query',
        'pre_checkout_query',
        'business_connection',
        'business_message',
      ]);
      const u = tgUser(telegramUser().id);
      fake.pushUpdate(textUpdate(u, '/help'));
      await fake.waitFor(() => fake.messages(u.id).length === 1);
      expect(plain(fake.messages(u.id)[0].params.text)).toMatch(/\/cancel — отменить запись/);
    } finally {
      await t.close();
    }
    expect(t.telegram!.bot.isRunning()).toBe(false);
  });
});

describe('without BOT_TOKEN', () => {
  it('runs without the bot: no webhook, linking answers 503, notifications wait in the outbox', async () => {
    const t = await buildTestApp({ env: { BOT_TOKEN: '', ...fake.env } });
    try {
      expect(t.telegram).toBeNull();
      const hook = await postUpdate(t.app, t.config.webhookSecret, textUpdate(tgUser(1), '/start'));
      expect(hook.statusCode).toBe(404);
      const staff = await t.auth();
      const link = await t.app.inject({ method: 'POST', url: '/api/v1/users/me/telegram-link', headers: staff });
      expect(link.statusCode).toBe(503);
      expect(link.json().detail).toBe('Telegram-бот не настроен на сервере');
      const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/records/',
        headers: staff,
        payload: bookingPayload(schedule.id, { telegram_id: 4242 }),
      });
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/v1/schedule/notify/${schedule.id}`, headers: staff }))
          .statusCode,
      ).toBe(200);
      const rows = await listNotifications(t.database.db, { chat_id: 4242 });
      expect(rows.map((r) => [r.kind, r.status])).toEqual([
        ['record.booked', 'pending'],
        ['schedule.reminder', 'pending'],
      ]);
      expect(fake.calls).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});

describe("the bot's identity", () => {
  it('comes from getMe once; an unreachable Telegram fails fast instead of hanging', async () => {
    const t = await botTestApp(fake);
    try {
      const telegram = createTelegram({ config: t.config, database: t.database, log: quietLog, webhookPath: WEBHOOK });
      expect(await telegram.username()).toBe(FAKE_BOT.username);
      expect(await telegram.username()).toBe(FAKE_BOT.username);
      expect(fake.ok('getMe')).toHaveLength(1);

      const offline = createTelegram({
        config: { ...t.config, telegramApiRoot: 'http://127.0.0.1:9' },
        database: t.database,
        log: quietLog,
        webhookPath: WEBHOOK,
      });
      const started = Date.now();
      await expect(offline.username()).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await t.close();
    }
  });
});
