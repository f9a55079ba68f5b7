import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInitData } from '../../server/plugins/telegram-init-data';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';
import { bookingPayload } from '../helpers/factories';
import { REVALIDATE_MS, UNAVAILABLE } from '../../platform/host';

/*
 * Two studios on one platform, each with its own bot and the same ids inside (workshop 1, session 1,
 * booking 1 in both): nothing of one is reachable from the other, by staff, by customers or by bots.
 */

let p: TestPlatform;
let a: Awaited<ReturnType<TestPlatform['addStudio']>>;
let b: Awaited<ReturnType<TestPlatform['addStudio']>>;
const customer = { id: 5551, first_name: 'Мария', username: 'maria' };
const tmaOf = (token: string) => ({ authorization: `tma ${signInitData(customer, token)}` });

async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${p.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A workshop, an address and a session tomorrow in a studio, made by its superuser; and one booking by the customer. */
async function seed(slug: string, token: string, title: string) {
  const staff = await p.auth(slug);
  const w = await call(`/s/${slug}/api/v1/workshops/`, {
    method: 'POST',
    headers: staff,
    body: { title, price: 1000 },
  });
  const ad = await call(`/s/${slug}/api/v1/address/`, {
    method: 'POST',
    headers: staff,
    body: { title: `${title}: адрес`, map_link: 'https://m/1' },
  });
  const date = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const s = await call(`/s/${slug}/api/v1/schedule/`, {
    method: 'POST',
    headers: staff,
    body: { workshop_id: w.body.id, address_id: ad.body.id, date, capacity: 8 },
  });
  expect(s.status).toBe(201);
  const r = await call(`/s/${slug}/api/v1/records/`, {
    method: 'POST',
    headers: tmaOf(token),
    body: bookingPayload(s.body.id, { people_count: 2 }),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { staff, workshop: w.body.id as number, session: s.body.id as number, record: r.body.record.id as number };
}

beforeAll(async () => {
  p = await startTestPlatform();
  a = await p.addStudio('alpha', 1);
  b = await p.addStudio('beta', 2);
}, 60_000);
afterAll(async () => p?.close());

describe('two studios with the same ids', () => {
  let sa: Awaited<ReturnType<typeof seed>>;
  let sb: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    [sa, sb] = await Promise.all([seed(a.slug, a.bot.token, 'Сырники'), seed(b.slug, b.bot.token, 'Пельмени')]);
  });

  it('have record 1, session 1 and workshop 1 each, with their own contents', async () => {
    expect([sa.record, sb.record, sa.session, sb.session, sa.workshop, sb.workshop]).toEqual([1, 1, 1, 1, 1, 1]);
    const wa = await call(`/s/${a.slug}/api/v1/workshops/1`, { headers: sa.staff });
    const wb = await call(`/s/${b.slug}/api/v1/workshops/1`, { headers: sb.staff });
    expect([wa.body.title, wb.body.title]).toEqual(['Сырники', 'Пельмени']);
  });

  it("refuse one studio's staff token in the other", async () => {
    expect((await call(`/s/${b.slug}/api/v1/workshops/1`, { headers: sa.staff })).status).toBe(401);
    expect((await call(`/s/${a.slug}/api/v1/users/me`, { headers: sb.staff })).status).toBe(401);
  });

  it("refuse init data of studio A's bot in studio B, and show each customer their own booking", async () => {
    const own = await call(`/s/${a.slug}/api/v1/records/1`, { headers: tmaOf(a.bot.token) });
    expect(own.status).toBe(200);
    expect(own.body.record.schedule.workshop.title).toBe('Сырники');
    const cross = await call(`/s/${b.slug}/api/v1/records/1`, { headers: tmaOf(a.bot.token) });
    expect(cross.status).toBe(401);
    const booking = await call(`/s/${b.slug}/api/v1/records/`, {
      method: 'POST',
      headers: tmaOf(a.bot.token),
      body: bookingPayload(1),
    });
    expect(booking.status).toBe(401);
  });

  it('export only their own rows', async () => {
    for (const [slug, staff, own, other] of [
      [a.slug, sa.staff, 'Сырники', 'Пельмени'],
      [b.slug, sb.staff, 'Пельмени', 'Сырники'],
    ] as const) {
      const res = await fetch(`${p.url}/s/${slug}/api/v1/records/export.csv`, { headers: staff });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(own);
      expect(text).not.toContain(other);
    }
  });
});

describe('the platform front', () => {
  it('answers an unknown studio 404 and an unknown webhook secret 401, before the body', async () => {
    expect((await call('/s/nope/api/v1/workshops/')).status).toBe(404);
    const res = await fetch(`${p.url}/api/v1/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'not-a-secret' },
      body: JSON.stringify({ update_id: 1 }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'Неверный секрет вебхука' });
  });

  it('keeps a studio at an older version from being served until it is migrated', async () => {
    await p.store.db
      .updateTable('studios')
      .set({ version: '20261121_0001_initial' })
      .where('slug', '=', a.slug)
      .execute();
    await p.host.closeStudio(a.slug);
    const res = await call(`/s/${a.slug}/api/v1/workshops/`, { headers: await p.auth(a.slug) });
    expect(res.status).toBe(200);
    const row = await p.store.db
      .selectFrom('studios')
      .select('version')
      .where('slug', '=', a.slug)
      .executeTakeFirstOrThrow();
    expect(row.version).not.toBe('20261121_0001_initial');
  });
});

describe("the platform's login page", () => {
  it('asks which studio and sends staff to its own login, by address, slug or name', async () => {
    const form = await fetch(`${p.url}/login`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Адрес или название студии');
    for (const asked of [`${p.url}/s/alpha/schedule`, 'alpha', 'студия 1']) {
      const res = await fetch(`${p.url}/login?studio=${encodeURIComponent(asked)}`, { redirect: 'manual' });
      expect(res.status, asked).toBe(302);
      expect(res.headers.get('location')).toBe('/s/alpha/login');
    }
    const unknown = await fetch(`${p.url}/login?studio=nope`);
    expect(await unknown.text()).toContain('Такой студии нет');
  });
});

describe('a studio changed by another instance', () => {
  it('is served as the store says within two seconds: suspended, then active again', async () => {
    const c = await p.addStudio('gamma', 3);
    expect((await call(`/s/${c.slug}/api/v1/schedule/public`)).status).toBe(200);
    // Another instance (or the platform command) suspends it: only the store changes here.
    await p.store.db.updateTable('studios').set({ status: 'suspended' }).where('slug', '=', c.slug).execute();
    await new Promise((r) => setTimeout(r, REVALIDATE_MS + 100));
    const suspended = await call(`/s/${c.slug}/api/v1/schedule/public`);
    expect(suspended).toEqual({ status: 503, body: { detail: UNAVAILABLE.suspended } });
    await p.store.db.updateTable('studios').set({ status: 'active' }).where('slug', '=', c.slug).execute();
    expect((await call(`/s/${c.slug}/api/v1/schedule/public`)).status).toBe(200);
  });
});
