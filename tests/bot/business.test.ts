import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { createSession, book, bookingPayload, telegramUser } from '../helpers/factories';
import {
  businessConnectionUpdate,
  businessMessageUpdate,
  keyboardOf,
  plain,
  postUpdate,
  tgUser,
  FAKE_BOT,
  type FakeTelegram,
  type TgUser,
} from '../helpers/fake-telegram';
import { linkStaff, SESSION_DATE, useBotApp } from './setup';

/* Telegram Business: the bot answers customers in the studio's own account while staff are quiet there. */

const STAFF_CHAT = 700_401;
// The studio's Telegram account is the one its owner linked to the bot.
const OWNER = tgUser(STAFF_CHAT, 'studio_owner');
const APP_LINK = `https://t.me/${FAKE_BOT.username}?startapp`;

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp(async (parts) => {
  ({ fake, t, staff } = parts);
  await linkStaff(t, staff, STAFF_CHAT);
});

let nextConnection = 1;
const send = async (update: unknown) => {
  expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
};
const connect = async (opts = { canReply: true, enabled: true }) => {
  const id = `bc-${nextConnection++}`;
  await send(businessConnectionUpdate(id, OWNER, opts));
  return id;
};
const customer = (id: number, language_code?: string): TgUser => ({
  ...tgUser(id),
  ...(language_code && { language_code }),
});
const answersTo = (chatId: number) =>
  fake.messages(chatId).filter((m) => m.params.business_connection_id !== undefined);
const settings = (payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });

const status = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/business-settings/telegram-business', headers: staff });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('Telegram Business', () => {
  it('the settings show whether the studio account has the bot connected and may reply', async () => {
    expect(await status()).toEqual({ connected: false, can_reply: false, changed_at: null, account: null });
    const id = await connect({ canReply: false, enabled: true });
    expect(await status()).toMatchObject({ connected: true, can_reply: false, account: 'admin@example.com' });
    await send(businessConnectionUpdate(id, OWNER, { canReply: true, enabled: true }));
    expect(await status()).toMatchObject({ connected: true, can_reply: true });
    await send(businessConnectionUpdate(id, OWNER, { canReply: true, enabled: false }));
    expect(await status()).toMatchObject({ connected: false, can_reply: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/business-settings/telegram-business' })).statusCode).toBe(
      401,
    );
  });

  it('answers a customer once, in their language, with the next sessions that have seats and a link into the mini-app; staff are not alerted', async () => {
    const { schedule: open } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 5 });
    const { schedule: full } = await createSession(t.app, staff, {
      date: '2030-12-06T11:00:00.000Z',
      capacity: 1,
    });
    expect((await book(t.app, telegramUser(), bookingPayload(full.id))).statusCode).toBe(201);
    expect((await book(t.app, telegramUser(), bookingPayload(open.id, { people_count: 2 }))).statusCode).toBe(201);
    fake.reset();
    const id = await connect();
    const anna = customer(41_001, 'en');

    await send(businessMessageUpdate(id, anna, anna, 'Hi! Any seats on Saturday?'));
    const [answer] = answersTo(anna.id);
    expect(answer.params.business_connection_id).toBe(id);
    expect(plain(answer.params.text)).toBe(
      [
        'Hello! This is the studio’s automatic answer: a person will reply as soon as they are free.',
        '',
        'The next workshops with free seats:',
        '• “Паста”, 5 December 2030 at 12:00: 3 seats',
        '',
        'You can book in the app with the button below.',
      ].join('\n'),
    );
    expect(keyboardOf(answer)).toEqual([[{ text: 'Book a workshop', url: APP_LINK }]]);

    // Once per window: the next messages in that chat are left to people.
    await send(businessMessageUpdate(id, anna, anna, 'Hello?'));
    expect(answersTo(anna.id)).toHaveLength(1);
    expect(fake.messages(STAFF_CHAT)).toHaveLength(0);
  });

  it('Serbian for a Serbian customer, Russian for others', async () => {
    const id = await connect();
    const milan = customer(41_002, 'sr');
    const olga = customer(41_003, 'ru');
    await send(businessMessageUpdate(id, milan, milan, 'Zdravo'));
    await send(businessMessageUpdate(id, olga, olga, 'Здравствуйте'));
    expect(plain(answersTo(milan.id)[0].params.text)).toContain('Zdravo! Ovo je automatski odgovor studija');
    expect(keyboardOf(answersTo(milan.id)[0])).toEqual([[{ text: 'Prijava na radionicu', url: APP_LINK }]]);
    expect(plain(answersTo(olga.id)[0].params.text)).toContain('Здравствуйте! Это автоответ студии');
  });

  it('quiet while staff wrote in that chat within BUSINESS_QUIET_MINUTES; answers again after it and after the window', async () => {
    const id = await connect();
    const boris = customer(41_004);
    await send(businessMessageUpdate(id, boris, OWNER, 'Добрый день! Чем помочь?'));
    await send(businessMessageUpdate(id, boris, boris, 'Есть места на субботу?'));
    expect(answersTo(boris.id)).toHaveLength(0);

    // 31 minutes later staff have been quiet long enough.
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    await t.database.db
      .updateTable('business_chats')
      .set({ staff_wrote_at: ago(31) })
      .where('chat_id', '=', boris.id)
      .execute();
    await send(businessMessageUpdate(id, boris, boris, 'Есть места?'));
    expect(answersTo(boris.id)).toHaveLength(1);

    // The window is the studio's setting (default 12 hours): 11 hours later still quiet, 13 hours later answered.
    await t.database.db
      .updateTable('business_chats')
      .set({ answered_at: ago(11 * 60) })
      .where('chat_id', '=', boris.id)
      .execute();
    await send(businessMessageUpdate(id, boris, boris, 'Ау?'));
    expect(answersTo(boris.id)).toHaveLength(1);
    await t.database.db
      .updateTable('business_chats')
      .set({ answered_at: ago(13 * 60) })
      .where('chat_id', '=', boris.id)
      .execute();
    await send(businessMessageUpdate(id, boris, boris, 'Ау?'));
    expect(answersTo(boris.id)).toHaveLength(2);
  });

  it('two messages at once in a new chat get one answer', async () => {
    const id = await connect();
    const vera = customer(41_005);
    await Promise.all(
      ['Привет', 'Есть места?', 'На субботу'].map((text) =>
        postUpdate(t.app, t.config.webhookSecret, businessMessageUpdate(id, vera, vera, text)),
      ),
    );
    expect(answersTo(vera.id)).toHaveLength(1);
  });

  it('nothing without the right to reply, after disconnection, or with the auto-answer off', async () => {
    const noReply = await connect({ canReply: false, enabled: true });
    const gleb = customer(41_006);
    await send(businessMessageUpdate(noReply, gleb, gleb, 'Привет'));
    expect(fake.messages(gleb.id)).toHaveLength(0);

    // The right given later: answered.
    await send(businessConnectionUpdate(noReply, OWNER, { canReply: true, enabled: true }));
    await send(businessMessageUpdate(noReply, gleb, gleb, 'Привет'));
    expect(answersTo(gleb.id)).toHaveLength(1);

    // Disconnected (is_enabled: false): nothing.
    await send(businessConnectionUpdate(noReply, OWNER, { canReply: true, enabled: false }));
    const dina = customer(41_007);
    await send(businessMessageUpdate(noReply, dina, dina, 'Привет'));
    expect(fake.messages(dina.id)).toHaveLength(0);

    // The studio switched the auto-answer off: nothing; on again: answered.
    const id = await connect();
    expect((await settings({ business_auto_reply: false })).statusCode).toBe(200);
    const egor = customer(41_008);
    await send(businessMessageUpdate(id, egor, egor, 'Привет'));
    expect(fake.messages(egor.id)).toHaveLength(0);
    expect((await settings({ business_auto_reply: true })).statusCode).toBe(200);
    await send(businessMessageUpdate(id, egor, egor, 'Привет'));
    expect(answersTo(egor.id)).toHaveLength(1);
  });

  it("a stranger connecting the bot to their own Business account is ignored: the settings don't show it, their customers get nothing", async () => {
    const stranger = tgUser(41_100, 'someone_else');
    const id = `bc-stranger-${nextConnection++}`;
    const before = await status();
    await send(businessConnectionUpdate(id, stranger, { canReply: true, enabled: true }));
    expect(await status()).toEqual(before);
    const theirs = customer(41_101);
    await send(businessMessageUpdate(id, theirs, theirs, 'Здравствуйте, когда вы открыты?'));
    expect(fake.messages(theirs.id)).toHaveLength(0);
  });

  it('an account unlinked from the staff stops answering', async () => {
    const id = await connect();
    const zoya = customer(41_102);
    await send(businessMessageUpdate(id, zoya, zoya, 'Привет'));
    expect(answersTo(zoya.id)).toHaveLength(1);
    await linkStaff(t, staff, null);
    try {
      const yana = customer(41_103);
      await send(businessMessageUpdate(id, yana, yana, 'Привет'));
      expect(fake.messages(yana.id)).toHaveLength(0);
    } finally {
      await linkStaff(t, staff, STAFF_CHAT);
    }
  });
});
