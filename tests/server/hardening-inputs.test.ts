import ICAL from 'ical.js';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { callbackUpdate, postUpdate, textUpdate, tgUser, type FakeTelegram } from '../helpers/fake-telegram';
import { getRecord } from '../../db/repositories/records';
import { tma } from '../helpers/telegram';
import { useBotApp } from '../bot/setup';

// Inputs from outside, as an attacker or an unusual client sends them: each is answered with a clear
// 4xx {"detail"} (or, for Telegram, 200) and changes nothing it should not.

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
useBotApp((parts) => ({ fake, t, staff } = parts));

const CONTROLS = ['\u007f', '\u0001', '\u001b', '\u000b', '\u0000'];
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

describe('ids that cannot exist', () => {
  // 32-bit id columns: PostgreSQL refuses 2147483648 and beyond in a query; such an id is answered like a missing one.
  const BAD_IDS = ['0', '-1', '2147483648', '9999999999', '99999999999999999999'];

  it('in a path: 404 on every route, never 422 or 500', async () => {
    const customer = telegramUser();
    const asCustomer = tma(customer);
    const routes: [string, string, object | undefined, Record<string, string>][] = [
      ['GET', '/users/{id}', undefined, staff],
      ['PATCH', '/users/{id}', { full_name: 'Ира' }, staff],
      ['DELETE', '/users/{id}', undefined, staff],
      ['GET', '/workshops/{id}', undefined, staff],
      ['PUT', '/workshops/{id}', { title: 'Суши' }, staff],
      ['DELETE', '/workshops/{id}', undefined, staff],
      ['GET', '/address/{id}', undefined, staff],
      ['PUT', '/address/{id}', { title: 'Кухня' }, staff],
      ['DELETE', '/address/{id}', undefined, staff],
      ['GET', '/schedule/{id}', undefined, staff],
      ['PUT', '/schedule/{id}', { capacity: 5 }, staff],
      ['DELETE', '/schedule/{id}', undefined, staff],
      ['POST', '/schedule/notify/{id}', undefined, staff],
      ['GET', '/schedule/{id}/participants.csv', undefined, staff],
      ['GET', '/records/{id}', undefined, asCustomer],
      ['GET', '/records/{id}', undefined, staff],
      ['PUT', '/records/{id}', { people_count: 2 }, asCustomer],
      ['PUT', '/records/cancel/{id}', { cancel_reason: 'Заболела' }, asCustomer],
      ['PUT', '/records/restore/{id}', undefined, asCustomer],
      ['PUT', '/records/{id}/attendance', { attendance: 'ATTENDED' }, staff],
      ['GET', '/records/{id}/history', undefined, staff],
      ['GET', '/records/{id}/calendar.ics?sig=abc', undefined, {}],
      ['POST', '/records/{id}/gift', undefined, asCustomer],
      ['PUT', '/date-subscriptions/{id}', undefined, asCustomer],
    ];
    const failures: string[] = [];
    const call = (method: string, path: string, id: string, payload?: object, headers?: Record<string, string>) =>
      t.app.inject({ method: method as 'GET', url: `/api/v1${path.replace('{id}', id)}`, headers, payload });
    for (const [method, path, payload, headers] of routes) {
      // What a missing id that could exist gets.
      const missing = await call(method, path, String(2_147_483_600), payload, headers);
      for (const id of BAD_IDS) {
        const res = await call(method, path, id, payload, headers);
        if (res.statusCode !== 404 || res.body !== missing.body)
          failures.push(`${method} ${path} ${id} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    // Unsubscribing from a workshop that does not exist is done already, as for any missing one.
    for (const id of BAD_IDS)
      expect((await call('DELETE', '/date-subscriptions/{id}', id, undefined, asCustomer)).json()).toEqual({
        subscribed: false,
      });
    // The detail is the one of a missing booking.
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/records/2147483648', headers: asCustomer });
    expect(res.json()).toEqual({ detail: 'Запись не найдена' });
    // Malformed ids stay a validation error.
    for (const id of ['abc', '1.5'])
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/workshops/${id}`, headers: staff })).statusCode).toBe(
        422,
      );
  });

  it('in a query: an empty list; in a body: the missing thing is named, 404', async () => {
    const { address } = await createSession(t.app, staff);
    for (const id of BAD_IDS) {
      for (const url of [`/api/v1/schedule/?workshop_id=${id}`, `/api/v1/schedule/past?workshop_id=${id}`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: staff });
        expect(res.statusCode, url).toBe(200);
        expect(res.json().data, url).toEqual([]);
      }
      const audit = await t.app.inject({ method: 'GET', url: `/api/v1/audit/?entity_id=${id}`, headers: staff });
      expect(audit.statusCode).toBe(200);
      expect(audit.json().data).toEqual([]);

      const booking = await t.app.inject({
        method: 'POST',
        url: '/api/v1/records/',
        headers: tma(telegramUser()),
        payload: { ...bookingPayload(1), schedule_id: Number(id) },
      });
      expect(booking.statusCode, id).toBe(404);
      expect(booking.json().detail).toBe('Мастер-класс не найден');
      const session = await t.app.inject({
        method: 'POST',
        url: '/api/v1/schedule/',
        headers: staff,
        payload: { date: '2031-01-01T10:00:00Z', capacity: 5, workshop_id: Number(id), address_id: address.id },
      });
      expect(session.statusCode, id).toBe(404);
      expect(session.json().detail).toBe('Мастер-класс с таким id не найден');
    }
  });
});

describe('date filters', () => {
  const FILTERS = ['/schedule/', '/schedule/past', '/records/export.csv', '/stats/', '/audit/'];

  it('refuse years outside 1900–2999 with a Russian 422 on every list that takes dates', async () => {
    const failures: string[] = [];
    for (const path of FILTERS)
      for (const [param, value] of [
        ['from', '0001-01-01'],
        ['from', '0099-12-31'],
        ['to', '9999-12-31'],
        ['from', '1899-12-31'],
        ['to', '3000-01-01'],
        ['from', '0050-06-01T10:00:00Z'],
        ['to', '9999-12-31T23:59:59+01:00'],
      ]) {
        const url = `/api/v1${path}?${param}=${encodeURIComponent(value)}`;
        const res = await t.app.inject({ method: 'GET', url, headers: staff });
        const expected = `${param}: Укажите дату с 1900 по 2999 год`;
        if (res.statusCode !== 422 || res.json().detail !== expected)
          failures.push(`${url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    expect(failures).toEqual([]);
  });

  it('accept the first and the last day of that span', async () => {
    for (const path of FILTERS) {
      const url = `/api/v1${path}?from=1900-01-01&to=${path.includes('export') ? '1901-01-01' : '2999-12-31'}`;
      const res = await t.app.inject({ method: 'GET', url, headers: staff });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    }
  });
});

describe('subscriptions to new dates follow the offer', () => {
  const FREE_DATES = 'На этот мастер-класс есть свободные даты: запишитесь на одну из них в приложении';

  it('refuse a workshop with a free date (409) or never scheduled (404), by API and by a forged button; an offered one works', async () => {
    const customer = telegramUser();
    const headers = tma(customer);
    const { workshop: open } = await createSession(t.app, staff, { capacity: 8 });
    const { workshop: full } = await createSession(t.app, staff, { capacity: 0 });
    const never = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/workshops/',
        headers: staff,
        payload: { title: 'Никогда', description: 'Без дат', price: 100 },
      })
    ).json().id as number;
    const subscriptions = () =>
      t.database.db
        .selectFrom('date_subscriptions')
        .select('workshop_id')
        .where('telegram_id', '=', customer.id)
        .execute();

    const put = (id: number) => t.app.inject({ method: 'PUT', url: `/api/v1/date-subscriptions/${id}`, headers });
    expect((await put(open.id)).json()).toEqual({ detail: FREE_DATES });
    expect((await put(open.id)).statusCode).toBe(409);
    expect((await put(never)).statusCode).toBe(404);
    expect(await subscriptions()).toEqual([]);

    const press = async (workshopId: number) => {
      fake.reset();
      const res = await postUpdate(
        t.app,
        t.config.webhookSecret,
        callbackUpdate(tgUser(customer.id), `sub:${workshopId}`),
      );
      expect(res.statusCode).toBe(200);
      return { answer: fake.ok('answerCallbackQuery')[0].params, replies: fake.messages(customer.id) };
    };
    expect(await press(open.id)).toEqual({ answer: expect.objectContaining({ text: FREE_DATES }), replies: [] });
    expect((await press(never)).answer).toMatchObject({ text: 'Мастер-класс с таким id не найден', show_alert: true });
    expect(await subscriptions()).toEqual([]);

    // The offered one: subscribed, named in the reply, and listed so it can be removed.
    const ok = await press(full.id);
    expect(ok.answer.text).toBe('Готово! Напишу о новых датах');
    expect(ok.replies.map((m) => m.params.text).join()).toContain('Паста');
    expect(await subscriptions()).toEqual([{ workshop_id: full.id }]);
    const offers = (await t.app.inject({ method: 'GET', url: '/api/v1/date-subscriptions/', headers })).json().data;
    expect(offers).toContainEqual({ workshop_id: full.id, title: 'Паста', subscribed: true });
    expect((await put(full.id)).json()).toEqual({ subscribed: true });
  });
});

describe('the calendar file', () => {
  it('escapes a bare CR, LF and CRLF in staff texts and folds long lines: ical.js reads the same text and no extra property', async () => {
    const title = 'Паста\rDTSTART:20000101T000000Z\nATTENDEE:mailto:x@example.com\r\nЕщё; строка, с \\ знаками';
    const longPlace = `Кухня ${'очень длинное описание входа '.repeat(12)}`;
    const { schedule, workshop, address } = await createSession(t.app, staff, { date: '2030-12-05T11:00:00.000Z' });
    for (const [url, payload] of [
      [`/api/v1/workshops/${workshop.id}`, { title }],
      [`/api/v1/address/${address.id}`, { description: `${longPlace}\rTRIGGER:PT0S` }],
    ] as const)
      expect((await t.app.inject({ method: 'PUT', url, headers: staff, payload })).statusCode).toBe(200);
    const created = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json();

    const res = await t.app.inject({ method: 'GET', url: created.calendar_url });
    expect(res.statusCode).toBe(200);
    // Lines end with CRLF only, at most 75 octets each; no CR or LF stands alone.
    expect(res.body.endsWith('\r\n')).toBe(true);
    const lines = res.body.slice(0, -2).split('\r\n');
    expect(lines.every((line) => Buffer.byteLength(line) <= 75 && !/[\r\n]/.test(line))).toBe(true);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);

    const cal = new ICAL.Component(ICAL.parse(res.body));
    const vevent = cal.getFirstSubcomponent('vevent')!;
    expect(vevent.getAllProperties().map((p) => p.name)).toEqual([
      'uid',
      'dtstamp',
      'dtstart',
      'dtend',
      'summary',
      'location',
      'description',
      'url',
    ]);
    expect(vevent.getAllSubcomponents().map((c) => c.name)).toEqual(['valarm']);
    const lineBreaks = (s: string) => s.replace(/\r\n|\r/g, '\n');
    const event = new ICAL.Event(vevent);
    expect(event.summary).toBe(`${lineBreaks(title)} — Кулинарная студия`);
    expect(event.startDate.toJSDate().toISOString()).toBe('2030-12-05T11:00:00.000Z');
    expect(event.location).toBe(`Улица Кнеза Милоша 1, ${longPlace}\nTRIGGER:PT0S`);
    expect(vevent.getFirstSubcomponent('valarm')!.getFirstPropertyValue('trigger')!.toString()).toBe('-PT2H');
  });
});

describe('the bookings export', () => {
  const exportCsv = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/records/export.csv${query}`, headers: staff });
  const parseCsv = (body: string): string[][] => parse(body, { delimiter: ';', bom: true, relax_column_count: false });

  it('covers at most 400 days: longer is refused with a Russian 422; a missing bound is 400 days from the other', async () => {
    const tooLong = 'Выгрузка — не больше 400 дней: выберите период короче';
    for (const query of [
      '?from=2026-01-01&to=2027-02-05',
      '?from=2000-01-01&to=2999-12-31',
      '?from=2026-01-01T00:00:00Z&to=2027-02-06T00:00:00Z',
    ]) {
      const res = await exportCsv(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json(), query).toEqual({ detail: tooLong });
    }
    for (const query of ['?from=2026-01-01&to=2027-02-04', '?from=2000-01-01', '?to=2999-12-31', ''])
      expect((await exportCsv(query)).statusCode, query).toBe(200);
  });

  it('streams a large export page by page, complete and in order (sessions sharing a date too)', async () => {
    const { workshop, address } = await createSession(t.app, staff);
    const db = t.database.db;
    // 150 sessions from 2031-01-10, two of every three at the same instant; 2,400 bookings between them.
    const sessions = await db
      .insertInto('schedules')
      .values(
        Array.from({ length: 150 }, (_, i) => ({
          date: new Date(Date.UTC(2031, 0, 10 + Math.floor(i / 3) * 2, 9 + (i % 3 === 2 ? 3 : 0))).toISOString(),
          capacity: 20,
          workshop_id: workshop.id,
          address_id: address.id,
          is_notified: 0,
          created_at: new Date().toISOString(),
        })),
      )
      .returning(['id', 'date'])
      .execute();
    const names: string[] = [];
    for (let batch = 0; batch < 6; batch++)
      await db
        .insertInto('records')
        .values(
          Array.from({ length: 400 }, (_, k) => {
            const n = batch * 400 + k;
            const name = n % 97 === 0 ? `Гость "${n}"; с переносом\r\nстроки` : `Гость ${n}`;
            names.push(name);
            return {
              schedule_id: sessions[n % sessions.length].id,
              state: 'ACTIVE' as const,
              name,
              last_name: null,
              people_count: 1,
              telegram_login: null,
              telegram_id: null,
              comment: null,
              has_allergy: 0,
              allergy_type: null,
              source: null,
              is_first_time: 1,
              cancel_reason: null,
              queued_at: null,
              created_at: new Date().toISOString(),
              updated_at: new Date().toISOString(),
            };
          }),
        )
        .execute();

    const res = await exportCsv('?from=2031-01-01&to=2031-12-31');
    expect(res.statusCode).toBe(200);
    // Streamed: no length known in advance.
    expect(res.headers['content-length']).toBeUndefined();
    const rows = parseCsv(res.body);
    expect(rows[0].slice(0, 3)).toEqual(['Дата', 'Мастер-класс', 'Имя']);
    const body = rows.slice(1);
    expect(body).toHaveLength(2400);
    expect(body.map((r) => r[2]).sort()).toEqual([...names].sort());
    // In the order of the sessions' dates, then sessions, then bookings: each session's rows together.
    const order = [...sessions].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id).map((s) => s.id);
    const sessionOfName = new Map(names.map((name, n) => [name, sessions[n % sessions.length].id]));
    const seen = body.map((r) => sessionOfName.get(r[2])!);
    expect(seen.filter((id, i) => id !== seen[i - 1])).toEqual(order);
  });
});
