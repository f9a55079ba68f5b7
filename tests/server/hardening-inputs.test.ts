import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { callbackUpdate, postUpdate, textUpdate, tgUser, type FakeTelegram } from '../helpers/fake-telegram';
import { getRecord } from '../../db/repositories/records';
import { useBotApp } from '../bot/setup';

// Inputs from outside, as an attacker or an unusual client sends them: each is answered with a clear
// 4xx {"detail"} (or, for Telegram, 200) and changes nothing it should not.

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
useBotApp((parts) => ({ fake, t, staff } = parts));

const CONTROLS = ['\u007f', '\u0001', '\u001b', '\u000b'];
const show = (ch: string) => `U+${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

describe('the webhook and control characters', () => {
  it('answers 200 to every genuine update whose text or names hold control characters, and the bot replies', async () => {
    for (const ch of CONTROLS) {
      const user = { ...tgUser(telegramUser().id, 'ctl'), first_name: `Ан${ch}на` };
      fake.reset();
      const res = await postUpdate(t.app, t.config.webhookSecret, textUpdate(user, `Привет${ch}!`));
      expect(res.statusCode, show(ch)).toBe(200);
      expect(
        fake.messages(user.id).map((m) => m.params.text),
        show(ch),
      ).toEqual(['Я понимаю команды /start, /my, /cancel и /help.']);
      const press = await postUpdate(t.app, t.config.webhookSecret, callbackUpdate(user, `rem:yes:1${ch}`));
      expect(press.statusCode, show(ch)).toBe(200);
    }
  });

  it('refuses control characters where the bot stores them: the /cancel reason', async () => {
    const customer = telegramUser();
    const u = tgUser(customer.id);
    const { schedule } = await createSession(t.app, staff);
    const id: number = (await book(t.app, customer, bookingPayload(schedule.id))).json().record.id;
    const send = async (update: object) =>
      expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);

    await send(textUpdate(u, '/cancel'));
    await send(callbackUpdate(u, `cancel:pick:${id}`));
    for (const ch of CONTROLS) {
      fake.reset();
      await send(textUpdate(u, `Забо${ch}лела`));
      expect(fake.messages(u.id).map((m) => m.params.text)).toEqual([
        'Недопустимые управляющие символы в тексте. Напишите причину отмены текстом (до 1000 символов).',
      ]);
    }
    await send(textUpdate(u, 'Заболела'));
    await send(callbackUpdate(u, 'cancel:yes'));
    expect(await getRecord(t.database.db, id)).toMatchObject({ state: 'CANCELLED', cancel_reason: 'Заболела' });
  });
});

describe('deeply nested JSON', () => {
  const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);
  /** 20 KB nested 10,000 levels, inside an update. */
  const deepUpdate = `{"update_id": 1, "message": ${nested(10_000)}}`;

  it('is refused without credentials before the body is read: 401 at the webhook, 401 on a staff route', async () => {
    expect(deepUpdate.length).toBeGreaterThan(20_000);
    for (const [url, headers] of [
      ['/api/v1/telegram/webhook', { 'x-telegram-bot-api-secret-token': 'wrong' }],
      ['/api/v1/telegram/webhook', {}],
      ['/api/v1/workshops/', {}],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: deepUpdate,
      });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().detail, url).toBeTypeOf('string');
    }
  });

  it('is answered 400 with a clear detail, never 500, with the right credentials', async () => {
    const cases = [
      { url: '/api/v1/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': t.config.webhookSecret } },
      { url: '/api/v1/workshops/', headers: staff },
      { url: '/api/v1/records/', headers: staff },
    ];
    for (const { url, headers } of cases)
      for (const payload of [
        deepUpdate,
        `{"title": ${nested(65, '"x"')}}`,
        `{"a": "${'['.repeat(100)}", "b": ${nested(65)}}`,
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().detail).toBe('Слишком глубокая вложенность JSON: не больше 64 уровней');
      }
    // 64 levels, and brackets inside strings, are read as usual (here: a validation error of the field).
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workshops/',
      headers: { ...staff, 'content-type': 'application/json' },
      payload: `{"title": "${'['.repeat(200)}\\"[", "description": ${nested(63)}, "price": 1}`,
    });
    expect(ok.statusCode).toBe(422);
    expect(ok.json().detail).toMatch(/^description: /);
  });
});
