import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

// A NUL byte made PostgreSQL answer 500 in most text fields (SQLite stored it). Control characters
// are refused in every text field with the same Russian 422 on both databases, and nothing changes.

let t: TestApp;
let staff: { authorization: string };
let ids: { workshop: number; address: number; schedule: number; record: number };
const customer = telegramUser();

beforeAll(async () => {
  t = await buildTestApp();
  staff = await t.auth();
  const { workshop, address, schedule } = await createSession(t.app, staff);
  const record = (await book(t.app, customer, bookingPayload(schedule.id))).json().record.id as number;
  ids = { workshop: workshop.id, address: address.id, schedule: schedule.id, record };
});
afterAll(() => t.close());

interface Case {
  method: 'POST' | 'PUT' | 'PATCH';
  url: () => string;
  body: () => Record<string, unknown>;
  headers?: () => Record<string, string>;
  form?: boolean;
}

/** Valid requests; each of their string fields is spoiled in turn. */
const CASES: Case[] = [
  {
    method: 'POST',
    url: () => '/login/access-token',
    body: () => ({ username: 'a@example.com', password: 'x' }),
    form: true,
  },
  { method: 'POST', url: () => '/workshops/', body: () => ({ title: 'Суши', description: 'Роллы', price: 100 }) },
  { method: 'PUT', url: () => `/workshops/${ids.workshop}`, body: () => ({ title: 'Паста', description: 'Ещё' }) },
  {
    method: 'POST',
    url: () => '/address/',
    body: () => ({ title: 'Кухня', map_link: 'https://maps.example/2', description: 'Вход со двора' }),
  },
  { method: 'PUT', url: () => `/address/${ids.address}`, body: () => ({ title: 'Кухня 2', description: 'Этаж 3' }) },
  {
    method: 'POST',
    url: () => '/records/',
    headers: () => tma(telegramUser()),
    body: () =>
      bookingPayload(ids.schedule, { comment: 'Без лука', has_allergy: true, allergy_type: 'орехи' }) as Record<
        string,
        unknown
      >,
  },
  {
    method: 'PUT',
    url: () => `/records/cancel/${ids.record}`,
    headers: () => tma(customer),
    body: () => ({ cancel_reason: 'Заболела' }),
  },
  {
    method: 'POST',
    url: () => '/users/',
    body: () => ({ email: 'new@example.com', password: 'password-123', full_name: 'Ира', is_active: true }),
  },
  { method: 'PATCH', url: () => '/users/me', body: () => ({ full_name: 'Админ', email: 'admin@example.com' }) },
  {
    method: 'PATCH',
    url: () => '/users/me/password',
    body: () => ({ current_password: 'superuser-password-1', new_password: 'another-password-1' }),
  },
  { method: 'POST', url: () => '/reset-password/', body: () => ({ token: 'abc', new_password: 'password-123' }) },
];

const spoil = (s: string, ch: string) => `${s.slice(0, 1)}${ch}${s.slice(1)}`;

describe('control characters in text', () => {
  it('are refused in every text field with a Russian 422, and nothing is written', async () => {
    const before = await t.database.db.selectFrom('records').selectAll().orderBy('id').execute();
    let tried = 0;
    for (const c of CASES) {
      for (const [field, value] of Object.entries(c.body())) {
        if (typeof value !== 'string') continue;
        for (const ch of ['\u0000', '\u0007', '\u001b', '\u007f']) {
          const body = { ...c.body(), [field]: spoil(value, ch) };
          const res = await t.app.inject({
            method: c.method,
            url: `/api/v1${c.url()}`,
            headers: {
              ...(c.headers?.() ?? staff),
              ...(c.form && { 'content-type': 'application/x-www-form-urlencoded' }),
            },
            payload: c.form ? new URLSearchParams(body as Record<string, string>).toString() : body,
          });
          const what = `${c.method} ${c.url()} ${field} ${JSON.stringify(ch)}`;
          expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
          expect(res.json().detail, what).toBe(`${field}: Недопустимые управляющие символы в тексте`);
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
    expect(await t.database.db.selectFrom('records').selectAll().orderBy('id').execute()).toEqual(before);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/login/test-token', headers: staff })).statusCode).toBe(
      200,
    );
  });

  it('in a path parameter or a query too', async () => {
    const recovery = await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/a%00b@example.com' });
    expect(recovery.statusCode).toBe(422);
    expect(recovery.json().detail).toBe('email: Недопустимые управляющие символы в тексте');
  });

  it('line breaks and tabs stay allowed in multi-line text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workshops/',
      headers: staff,
      payload: { title: 'Хлеб', description: 'Шаг 1:\tзамес\r\nШаг 2: выпечка', price: 100 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().description).toBe('Шаг 1:\tзамес\r\nШаг 2: выпечка');
  });
});
