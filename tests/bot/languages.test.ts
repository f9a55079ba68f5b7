import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  callbackUpdate,
  keyboardOf,
  plain,
  postUpdate,
  textUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { deliver, linkStaff, PUBLIC_URL, SESSION_DATE, SESSION_DATE_TEXT, useBotApp } from './setup';

/* Customers are written to in their language (Telegram's language_code, or their /language choice); staff in Russian. */

const STAFF_CHAT = 700_301;

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp(async (parts) => {
  ({ fake, t, staff } = parts);
  await linkStaff(t, staff, STAFF_CHAT);
});

const send = async (update: unknown) => {
  expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
};
const speaker = (id: number, language_code?: string) => ({ ...tgUser(id), ...(language_code && { language_code }) });
/** A mini-app user whose signed init data carries the app's language. */
const appUser = (language_code?: string) => ({ ...telegramUser(), ...(language_code && { language_code }) });
const lastText = (chatId: number) => plain(fake.messages(chatId).at(-1)!.params.text);

describe('replies in the customer’s language', () => {
  it('English and Serbian from language_code; an unknown language and none get Russian', async () => {
    await send(textUpdate(speaker(31_001, 'en'), '/start'));
    expect(lastText(31_001)).toContain('Hello! This is the bot of');
    expect(keyboardOf(fake.messages(31_001).at(-1)!)).toEqual([
      [{ text: 'Book a workshop', web_app: { url: `${PUBLIC_URL}/apply` } }],
    ]);
    await send(textUpdate(speaker(31_002, 'sr'), '/my'));
    expect(lastText(31_002)).toBe('Još nemate predstojećih prijava.');
    await send(textUpdate(speaker(31_003, 'sr-Latn'), '/help'));
    expect(lastText(31_003)).toContain('/cancel — otkaži prijavu');
    await send(textUpdate(speaker(31_004, 'de'), '/my'));
    expect(lastText(31_004)).toBe('У вас пока нет предстоящих записей.');
    await send(textUpdate(speaker(31_005), 'hello?'));
    expect(lastText(31_005)).toBe('Я понимаю команды /start, /my, /cancel и /help.');
  });

  it('/language offers the three languages; the choice overrides Telegram’s and stays', async () => {
    const u = speaker(31_010, 'en');
    await send(textUpdate(u, '/language'));
    const ask = fake.messages(u.id).at(-1)!;
    expect(ask.params.text).toBe('Choose the language of the bot:');
    expect(keyboardOf(ask)).toEqual([
      [
        { text: 'Русский', callback_data: 'lang:ru' },
        { text: 'English', callback_data: 'lang:en' },
        { text: 'Srpski', callback_data: 'lang:sr' },
      ],
    ]);
    await send(callbackUpdate(u, 'lang:sr'));
    expect(fake.ok('answerCallbackQuery').at(-1)!.params.text).toBe('Srpski');
    expect(fake.ok('editMessageText').at(-1)!.params.text).toBe('Gotovo: pisaću vam na srpskom.');
    // Telegram still says English: the choice wins.
    await send(textUpdate(u, '/my'));
    expect(lastText(u.id)).toBe('Još nemate predstojećih prijava.');
    await send(callbackUpdate(u, 'lang:ru'));
    await send(textUpdate(u, '/my'));
    expect(lastText(u.id)).toBe('У вас пока нет предстоящих записей.');
    // A forged language is not ours: the press is answered as a finished button.
    await send(callbackUpdate(u, 'lang:de'));
    expect(fake.ok('answerCallbackQuery').at(-1)!.params.text).toBe(
      'Эта кнопка больше не действует. Отправьте команду заново.',
    );
  });
});

describe('erasure', () => {
  it('/forget erases the language choice with the rest of the person’s data', async () => {
    const u = speaker(31_020);
    await send(callbackUpdate(u, 'lang:en'));
    await send(textUpdate(u, '/my'));
    expect(lastText(u.id)).toBe('You have no upcoming bookings yet.');
    await send(callbackUpdate(u, 'forget:yes'));
    expect(fake.ok('editMessageText').at(-1)!.params.text).toContain('Done: your personal data is deleted.');
    await send(textUpdate(u, '/my'));
    expect(lastText(u.id)).toBe('У вас пока нет предстоящих записей.');
  });
});

describe('notifications in the recipient’s language', () => {
  it('a booking confirmed in English and in Serbian (dates in their format), in Russian otherwise; staff read Russian', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const en = appUser('en');
    const sr = appUser('sr');
    const de = appUser('de');
    const ids = [];
    for (const u of [en, sr, de]) {
      const res = await book(t.app, u, bookingPayload(schedule.id));
      expect(res.statusCode).toBe(201);
      ids.push(res.json().record.id);
    }
    await deliver(t);

    const enMsg = fake.messages(en.id)[0];
    expect(plain(enMsg.params.text)).toBe(
      [
        '✅ You are booked for the workshop “Паста”!',
        '',
        '📅 5 December 2030 at 12:00',
        '📍 Улица Кнеза Милоша 1, Второй этаж',
        '🗺 Open the map',
        '👥 People: 1',
        '',
        '💰 Price: 3,500\u00a0RSD',
        '',
        'See you there!',
      ].join('\n'),
    );
    expect(keyboardOf(enMsg).map((row) => row[0].text)).toEqual(['My booking', '📅 Add to calendar']);
    const srMsg = fake.messages(sr.id)[0];
    expect(plain(srMsg.params.text)).toContain('✅ Prijavljeni ste na radionicu „Паста“!');
    expect(plain(srMsg.params.text)).toContain('📅 5. decembar 2030. 12:00');
    expect(keyboardOf(srMsg).map((row) => row[0].text)).toEqual(['Moja prijava', '📅 Dodaj u kalendar']);
    expect(plain(fake.messages(de.id)[0].params.text)).toContain('✅ Вы записаны на мастер-класс «Паста»!');
    const alerts = fake.messages(STAFF_CHAT).map((m) => plain(m.params.text));
    expect(alerts).toHaveLength(3);
    for (const a of alerts) expect(a).toContain(`🆕 Новая запись на «Паста», ${SESSION_DATE_TEXT}`);
  });

  it('rendered at delivery: a choice made after the change and before the send is the one used', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const u = appUser('en');
    const res = await book(t.app, u, bookingPayload(schedule.id));
    expect(res.statusCode).toBe(201);
    // The notification row is written; before the worker sends it the customer picks Serbian in the bot.
    await send(callbackUpdate({ ...tgUser(u.id), language_code: 'en' } as ReturnType<typeof tgUser>, 'lang:sr'));
    await deliver(t);
    const sent = fake.messages(u.id).map((m) => plain(m.params.text));
    expect(sent.at(-1)).toContain('✅ Prijavljeni ste na radionicu „Паста“!');
  });
});

describe('the command list', () => {
  it('is set in Russian for everyone and in English and Serbian for those languages, each with /language', async () => {
    await t.telegram!.start();
    await t.telegram!.stop();
    const calls = fake.ok('setMyCommands');
    const byLanguage = Object.fromEntries(calls.map((c) => [String(c.params.language_code ?? ''), c.params.commands]));
    expect(Object.keys(byLanguage).sort()).toEqual(['', 'en', 'sr']);
    for (const commands of Object.values(byLanguage) as { command: string; description: string }[][]) {
      expect(commands.map((c) => c.command)).toEqual(['start', 'my', 'cancel', 'language', 'help', 'mydata', 'forget']);
      // The Bot API's rules: 1-32 characters of a-z, 0-9 and _; descriptions of 1-256 characters.
      for (const c of commands) {
        expect(c.command).toMatch(/^[a-z0-9_]{1,32}$/);
        expect(c.description.length).toBeGreaterThanOrEqual(1);
        expect(c.description.length).toBeLessThanOrEqual(256);
      }
    }
    expect((byLanguage.en as { description: string }[])[3].description).toBe('Language');
    expect((byLanguage.sr as { description: string }[])[3].description).toBe('Jezik');
  });
});
