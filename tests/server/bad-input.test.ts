import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

// Property-style: many generated bad bodies, queries and path parameters against every route.
// A user may send anything; the server must answer 4xx with a {"detail"} and change nothing.

let t: TestApp;
let staff: { authorization: string };
let customer: ReturnType<typeof telegramUser>;
let routes: Array<{ method: string; path: string }>;

// A small deterministic PRNG so a failure can be replayed.
let seed = 20261121;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];

const weirdStrings = [
  '',
  ' ',
  '\u0000',
  'null',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  "' or 1=1 --",
  '<script>',
  '../../etc/passwd',
  '%00',
  'ы'.repeat(3000),
  '{}',
  '[]',
  'true',
];
const weirdValues = (): unknown[] => [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53 + 1,
  -(2 ** 31),
  Number.MAX_SAFE_INTEGER,
  '',
  'x'.repeat(10_000),
  [],
  {},
  [1, 2],
  { $gt: '' },
  pick(weirdStrings),
];
const FIELDS = [
  'title',
  'price',
  'description',
  'map_link',
  'date',
  'capacity',
  'workshop_id',
  'address_id',
  'schedule_id',
  'name',
  'people_count',
  'is_first_time',
  'has_allergy',
  'source',
  'telegram_id',
  'cancel_reason',
  'email',
  'password',
  'full_name',
  'is_superuser',
  'is_active',
  'notifications',
  'token',
  'new_password',
  'current_password',
];

function randomBody(): unknown {
  const kind = rand();
  if (kind < 0.2) return pick(weirdValues());
  const body: Record<string, unknown> = {};
  const n = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < n; i++) body[pick(FIELDS)] = pick(weirdValues());
  return body;
}

const fillPath = (path: string) =>
  path.replace(/\{[^}]+\}/g, () => encodeURIComponent(pick([...weirdStrings, '1', '2147483648', '-5', '1.5', 'abc'])));

beforeAll(async () => {
  t = await buildTestApp();
  staff = await t.auth();
  const { schedule } = await createSession(t.app, staff);
  customer = telegramUser();
  await book(t.app, customer, bookingPayload(schedule.id));
  const spec = (await t.app.inject('/api/v1/openapi.json')).json<{ paths: Record<string, Record<string, unknown>> }>();
  routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((m) => ({ method: m.toUpperCase(), path })),
  );
});
afterAll(() => t.close());

const counts = async () => {
  const db = t.database.db;
  const n = async (table: 'users' | 'workshops' | 'addresses' | 'schedules' | 'records') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await n('users'),
    workshops: await n('workshops'),
    addresses: await n('addresses'),
    schedules: await n('schedules'),
    records: await n('records'),
  };
};

describe('bad input never causes a 5xx', () => {
  it('answers generated bad bodies, paths and queries on every route with a 4xx and a detail', async () => {
    const before = await counts();
    const failures: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const route = pick(routes);
      if (route.path.includes('password-recovery/') || route.path.includes('/login/access-token')) continue; // rate-limited mail paths are covered below
      const body = randomBody();
      const asText = rand() < 0.1;
      const url = `${fillPath(route.path)}${rand() < 0.3 ? `?skip=${encodeURIComponent(pick(weirdStrings))}&limit=${encodeURIComponent(pick(weirdStrings))}` : ''}`;
      const headers = rand() < 0.5 ? staff : tma(customer);
      const res = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url,
        headers: { ...headers, 'content-type': asText ? 'text/plain' : 'application/json' },
        payload:
          route.method === 'GET' || route.method === 'DELETE'
            ? undefined
            : asText
              ? String(body)
              : JSON.stringify(body),
      });
      // An outside service this test runs without (Telegram, the PFR) is a 503 that says so, not a failure.
      const outsideDown = res.statusCode === 503 && 'detail' in res.json();
      if (res.statusCode >= 500 && !outsideDown)
        failures.push(
          `${route.method} ${url.slice(0, 120)} ${JSON.stringify(body)?.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
      else if (res.statusCode >= 400 && !('detail' in res.json()))
        failures.push(`${route.method} ${url.slice(0, 120)} → ${res.statusCode} without detail`);
    }
    expect(failures).toEqual([]);
    // Generated bodies are never valid creations, so nothing was added.
    const after = await counts();
    expect(after.users).toBe(before.users);
    expect(after.records).toBe(before.records);
  });

  it('answers malformed JSON, wrong content types and oversized bodies with a 4xx', async () => {
    const cases = [
      { payload: '{"title": ', type: 'application/json', status: 400 },
      { payload: 'price=abc', type: 'application/x-www-form-urlencoded', status: 422 },
      { payload: '<xml/>', type: 'application/xml', status: 415 },
      { payload: JSON.stringify({ title: 'x'.repeat(300_000) }), type: 'application/json', status: 413 },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/workshops/',
        headers: { ...staff, 'content-type': c.type },
        payload: c.payload,
      });
      expect(res.statusCode, c.type).toBe(c.status);
      expect(typeof res.json().detail).toBe('string');
    }
  });

  it('explains validation failures in a readable sentence', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: tma(customer),
      payload: { schedule_id: 1, name: '', people_count: 9 },
    });
    expect(res.statusCode).toBe(422);
    const detail: string = res.json().detail;
    expect(detail).toContain('name: Укажите имя');
    expect(detail).toContain('people_count: Количество человек: от 1 до 8');
    expect(detail).toContain('is_first_time');
  });

  it('rejects malformed path ids and emails with 422; an id that cannot exist is not found', async () => {
    for (const url of ['/api/v1/workshops/abc', '/api/v1/records/1.5']) {
      const res = await t.app.inject({ method: 'GET', url, headers: staff });
      expect(res.statusCode, url).toBe(422);
    }
    for (const url of ['/api/v1/workshops/0', '/api/v1/workshops/99999999999']) {
      const res = await t.app.inject({ method: 'GET', url, headers: staff });
      expect(res.statusCode, url).toBe(404);
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/not-an-email' });
    expect(res.statusCode).toBe(422);
  });
});
