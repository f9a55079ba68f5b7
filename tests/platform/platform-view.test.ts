import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../db/database';
import { enqueueNotifications } from '../../db/repositories/notifications';
import { UNAVAILABLE, createStudioHost } from '../../platform/host';
import { PLATFORM_MSG } from '../../platform/routes';
import { openStudioDatabase } from '../../platform/studios';
import type { PlatformDeleted, PlatformStudio, PlatformStudioList } from '../../contract/platform';
import { startFakeTelegram, TOO_MANY, type FakeTelegram } from '../helpers/fake-telegram';
import { OWNER, startOwnerPlatform, type OwnerPlatform } from '../helpers/platform-owner';

/*
 * The platform owner's API through the real platform front (startTestPlatform listening on loopback):
 * the owner's account and login, the token that only the platform takes, the studios with their
 * outbox health, suspend / resume taking effect at once, the archive, and deleting a studio (its data,
 * its bot's webhook, its address).
 */

let fake: FakeTelegram;
let p: OwnerPlatform;
let owner: { authorization: string };
let alpha: Awaited<ReturnType<OwnerPlatform['addStudio']>>;
let beta: Awaited<ReturnType<OwnerPlatform['addStudio']>>;

async function call<T = unknown>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; form?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(`${p.url}${url}`, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
}

const studios = async () => (await call<PlatformStudioList>('/api/platform/studios', { headers: owner })).body;
const studioIn = (list: PlatformStudioList, slug: string) => list.studios.find((s) => s.slug === slug)!;

/** Where a studio's data lives: its SQLite file, or its PostgreSQL schema. */
async function dataExists(id: number): Promise<boolean> {
  if (p.servers.dialect === 'sqlite') return fs.existsSync(path.join(p.config.dataDir, 'studios', `${id}.db`));
  const { rows } = await sql<{
    n: string;
  }>`select count(*) as n from pg_namespace where nspname = ${`studio_${id}`}`.execute(p.servers.get('main').db);
  return Number(rows[0].n) > 0;
}

beforeAll(async () => {
  fake = await startFakeTelegram();
  p = await startOwnerPlatform({ env: fake.env });
  alpha = await p.addStudio('alpha', 1);
  beta = await p.addStudio('beta', 2);
  for (const s of [alpha, beta]) fake.addBot({ id: s.bot.id, username: s.bot.username }, s.bot.token);
  owner = await p.ownerAuth();
}, 60_000);
afterAll(async () => {
  await p?.close();
  await fake?.close();
});

describe('the platform owner', () => {
  it('is created on the first start from FIRST_SUPERUSER, with an argon2id hash', async () => {
    const rows = await p.store.db.selectFrom('owners').selectAll().execute();
    expect(rows.map((r) => r.email)).toEqual([OWNER.email]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(p.announced.join('')).toContain(OWNER.email);
    expect(p.announced.join('')).not.toContain(OWNER.password);
  });

  it('logs in with JSON or a form, and is refused with a wrong password', async () => {
    const form = await call<{ access_token: string }>('/api/platform/login', {
      method: 'POST',
      form: { username: OWNER.email, password: OWNER.password },
    });
    expect(form.status).toBe(200);
    expect(form.body.access_token.split('.')).toHaveLength(3);
    const wrong = await call('/api/platform/login', { method: 'POST', body: { email: OWNER.email, password: 'nope' } });
    expect(wrong).toMatchObject({ status: 401, body: { detail: PLATFORM_MSG.badCredentials } });
    const missing = await call('/api/platform/login', { method: 'POST', body: { email: OWNER.email } });
    expect(missing).toMatchObject({ status: 422, body: { detail: PLATFORM_MSG.credentialsMissing } });
    const me = await call('/api/platform/me', { headers: { authorization: `Bearer ${form.body.access_token}` } });
    expect(me.body).toMatchObject({ email: OWNER.email });
  });

  it('is refused (429) after 10 failed logins of one email within 15 minutes, even with the right password', async () => {
    for (let i = 0; i < 10; i++)
      expect(
        (await call('/api/platform/login', { method: 'POST', body: { email: 'guess@x.test', password: `p${i}` } }))
          .status,
      ).toBe(401);
    const blocked = await call('/api/platform/login', {
      method: 'POST',
      body: { email: 'guess@x.test', password: 'p' },
    });
    expect(blocked).toMatchObject({ status: 429, body: { detail: PLATFORM_MSG.tooManyFailures } });
    // Another email is not affected.
    expect((await call('/api/platform/login', { method: 'POST', body: OWNER })).status).toBe(200);
  });
});

describe('the platform API', () => {
  it('answers 401 with {detail} without a token, with a broken one, and with a studio staff token', async () => {
    const none = await call('/api/platform/studios');
    expect(none).toMatchObject({ status: 401, body: { detail: PLATFORM_MSG.notAuthenticated } });
    const broken = await call('/api/platform/studios', { headers: { authorization: 'Bearer x.y.z' } });
    expect(broken).toMatchObject({ status: 401, body: { detail: PLATFORM_MSG.badToken } });
    const staff = await p.auth(alpha.slug);
    const studioToken = await call('/api/platform/studios', { headers: staff });
    expect(studioToken).toMatchObject({ status: 401, body: { detail: PLATFORM_MSG.badToken } });
    // Every route, writes included, before the body is looked at.
    const del = await call(`/api/platform/studios/${alpha.id}`, {
      method: 'DELETE',
      headers: staff,
      body: { confirm: alpha.slug },
    });
    expect(del.status).toBe(401);
    const suspend = await call(`/api/platform/studios/${alpha.id}/suspend`, { method: 'POST', body: 'not json' });
    expect(suspend.status).toBe(401);
  });

  it("is the platform's only: a studio refuses the owner's token", async () => {
    const res = await call(`/s/${alpha.slug}/api/v1/users/me`, { headers: owner });
    expect(res.status).toBe(401);
    expect((await call(`/s/${alpha.slug}/api/v1/users/me`, { headers: await p.auth(alpha.slug) })).status).toBe(200);
  });

  it('answers 404 for a studio that does not exist', async () => {
    for (const id of ['999', 'abc', '0', '99999999999'])
      expect(await call(`/api/platform/studios/${id}/suspend`, { method: 'POST', headers: owner })).toMatchObject({
        status: 404,
        body: { detail: PLATFORM_MSG.noStudio },
      });
  });
});

describe('the studio list', () => {
  it('lists every studio with its bot, version and an empty outbox', async () => {
    const list = await studios();
    expect(list.studios.map((s) => s.slug)).toEqual(['alpha', 'beta']);
    const a = studioIn(list, 'alpha');
    expect(a).toMatchObject({
      id: alpha.id,
      name: 'Студия 1',
      status: 'active',
      problem: null,
      server: 'main',
      version: list.latest_version,
      owner_telegram_id: null,
      bot: { username: 'studio1_bot', state: 'ok' },
      health: { pending: 0, oldest_pending_s: null, retrying: 0, failed_24h: 0, rate_limited_24h: 0, last_error: null },
      health_problem: null,
      // getWebhookInfo of the fake Bot API (no webhook set there).
      webhook: { url: '', pending_update_count: 0, last_error: null },
    });
    expect(fake.ok('getWebhookInfo', undefined, alpha.bot.token).length).toBeGreaterThan(0);
  });

  it("shows a studio's pending, retrying and failed notifications and its 429s, and only its own", async () => {
    const database = openStudioDatabase(
      await p.store.db.selectFrom('studios').selectAll().where('id', '=', alpha.id).executeTakeFirstOrThrow(),
      p.servers,
      p.config.dataDir,
    );
    try {
      await enqueueNotifications(database.db, [
        { chat_id: 1, kind: 'test', payload: {} },
        { chat_id: 2, kind: 'test', payload: {} },
        { chat_id: 3, kind: 'test', payload: {} },
        { chat_id: 4, kind: 'test', payload: {} },
      ]);
      const ids = (await database.db.selectFrom('notifications').select('id').orderBy('id').execute()).map((r) => r.id);
      await database.db
        .updateTable('notifications')
        .set({ attempts: 2, last_error: 'Network request failed' })
        .where('id', '=', ids[0])
        .execute();
      await database.db
        .updateTable('notifications')
        .set({ status: 'failed', attempts: 1, last_error: '403: Forbidden: bot was blocked by the user' })
        .where('id', '=', ids[3])
        .execute();
      // An old failure (written two days ago) is outside the last 24 h.
      await database.db
        .insertInto('notifications')
        .values({
          chat_id: 9,
          kind: 'test',
          payload: '{}',
          status: 'failed',
          attempts: 10,
          next_attempt_at: nowIso(),
          locked_until: null,
          last_error: 'old',
          dedupe_key: null,
          created_at: new Date(Date.now() - 2 * 86_400_000).toISOString(),
          sent_at: null,
        })
        .execute();
    } finally {
      await database.close();
    }
    p.sendStats.record(alpha.id, '429');
    p.sendStats.record(alpha.id, '429', Date.now() - 25 * 3600_000);
    p.sendStats.record(alpha.id, 'ok');

    const list = await studios();
    expect(studioIn(list, 'alpha').health).toMatchObject({
      pending: 3,
      retrying: 1,
      failed_24h: 1,
      rate_limited_24h: 1,
      last_error: '403: Forbidden: bot was blocked by the user',
    });
    expect(studioIn(list, 'alpha').health!.oldest_pending_s).toBeGreaterThanOrEqual(0);
    expect(studioIn(list, 'beta').health).toMatchObject({
      pending: 0,
      retrying: 0,
      failed_24h: 0,
      rate_limited_24h: 0,
    });
  });
});

describe("a studio bot's 429s", () => {
  it('are counted from its outbox as it sends, and shown in the platform view', async () => {
    // An instance whose studios' bots run: its outbox sends through the fake Bot API.
    const sending = createStudioHost({
      config: p.config,
      store: p.store,
      servers: p.servers,
      log: p.app.log,
      sendStats: p.sendStats,
      telegramOptions: { outbox: { pollIntervalMs: 20 } },
    });
    try {
      const listed = await studios();
      const before = studioIn(listed, 'beta').health!.rate_limited_24h!;
      const alphaBefore = studioIn(listed, 'alpha').health!.rate_limited_24h;
      const ctx = await sending.open(beta.slug);
      if (!ctx || !('app' in ctx)) throw new Error('beta did not open');
      const chat = 4_242_001;
      fake.failNext('sendMessage', TOO_MANY(1), { chatId: chat });
      await enqueueNotifications(ctx.database.db, [
        { chat_id: chat, kind: 'staff.money_check', payload: { text: 'x' } },
      ]);
      await fake.waitFor(() => fake.messages(chat).length === 1, 10_000);
      const after = await studios();
      expect(studioIn(after, 'beta').health!.rate_limited_24h).toBe(before + 1);
      // Another studio's bot was not limited: its count stays.
      expect(studioIn(after, 'alpha').health!.rate_limited_24h).toBe(alphaBefore);
    } finally {
      await sending.close();
    }
  });
});

describe('suspend and resume', () => {
  it('suspends a studio at once (its pages and API answer 503), then resumes it (200)', async () => {
    const staff = await p.auth(alpha.slug);
    // Open (live) before: the suspension has to close it.
    expect((await call(`/s/${alpha.slug}/api/v1/users/me`, { headers: staff })).status).toBe(200);
    expect(p.host.live().some((c) => c.studio.slug === alpha.slug)).toBe(true);

    const s = await call<PlatformStudio>(`/api/platform/studios/${alpha.id}/suspend`, {
      method: 'POST',
      headers: owner,
    });
    expect(s.status).toBe(200);
    expect(s.body.status).toBe('suspended');
    expect(s.body.problem).toContain(OWNER.email);
    expect(p.host.live().some((c) => c.studio.slug === alpha.slug)).toBe(false);
    for (const url of [`/s/${alpha.slug}/api/v1/users/me`, `/s/${alpha.slug}/`, `/s/${alpha.slug}/apply`]) {
      const r = await call(url, { headers: staff });
      expect(r, url).toMatchObject({ status: 503, body: { detail: UNAVAILABLE.suspended } });
    }
    // The other studio is served as before.
    expect((await call(`/s/${beta.slug}/api/v1/users/me`, { headers: await p.auth(beta.slug) })).status).toBe(200);
    // Twice is fine; the list says it.
    expect((await call(`/api/platform/studios/${alpha.id}/suspend`, { method: 'POST', headers: owner })).status).toBe(
      200,
    );
    expect(studioIn(await studios(), 'alpha').status).toBe('suspended');

    const r = await call<PlatformStudio>(`/api/platform/studios/${alpha.id}/resume`, {
      method: 'POST',
      headers: owner,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'active', problem: null });
    expect((await call(`/s/${alpha.slug}/api/v1/users/me`, { headers: staff })).status).toBe(200);
    const again = await call(`/api/platform/studios/${alpha.id}/resume`, { method: 'POST', headers: owner });
    expect(again).toMatchObject({ status: 409, body: { detail: PLATFORM_MSG.notSuspended } });
  });
});

describe('export', () => {
  it("downloads the studio's archive: gzip'ed NDJSON, header first, its rows, an end line", async () => {
    const res = await fetch(`${p.url}/api/platform/studios/${alpha.id}/export`, { headers: owner });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="alpha-${new Date().toISOString().slice(0, 10)}.ndjson.gz"`,
    );
    const lines = gunzipSync(Buffer.from(await res.arrayBuffer()))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ format: 'studio-archive', version: (await studios()).latest_version });
    expect(lines.at(-1)).toMatchObject({ end: true });
    const notifications = lines.filter((l) => l.t === 'notifications');
    expect(notifications).toHaveLength(5);
    const users = lines.filter((l) => l.t === 'users');
    expect(users).toHaveLength(1);
  });

  it('refuses without the token', async () => {
    expect((await fetch(`${p.url}/api/platform/studios/${alpha.id}/export`)).status).toBe(401);
  });
});

describe('delete', () => {
  it('with a wrong confirmation answers 422 in Russian and changes nothing', async () => {
    for (const body of [{ confirm: 'beta' }, { confirm: 'ALPHA' }, {}, { confirm: 1 }]) {
      const res = await call(`/api/platform/studios/${alpha.id}`, { method: 'DELETE', headers: owner, body });
      expect(res).toMatchObject({ status: 422, body: { detail: PLATFORM_MSG.confirm('alpha') } });
    }
    const noBody = await call(`/api/platform/studios/${alpha.id}`, { method: 'DELETE', headers: owner });
    expect(noBody.status).toBe(422);
    expect(await dataExists(alpha.id)).toBe(true);
    expect(studioIn(await studios(), 'alpha')).toMatchObject({ status: 'active', problem: null });
    expect((await call(`/s/${alpha.slug}/api/v1/users/me`, { headers: await p.auth(alpha.slug) })).status).toBe(200);
    expect(fake.ok('deleteWebhook')).toHaveLength(0);
  });

  it("with its slug: its data, row and bot gone, its bot's webhook removed, its address 404", async () => {
    const staff = await p.auth(alpha.slug);
    const res = await call<PlatformDeleted>(`/api/platform/studios/${alpha.id}`, {
      method: 'DELETE',
      headers: owner,
      body: { confirm: 'alpha' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ slug: 'alpha', webhook_removed: true, webhook_problem: null });
    expect(fake.ok('deleteWebhook', undefined, alpha.bot.token)).toHaveLength(1);
    expect(fake.ok('deleteWebhook', undefined, beta.bot.token)).toHaveLength(0);
    expect(await dataExists(alpha.id)).toBe(false);
    expect(await p.store.db.selectFrom('bots').select('bot_id').where('studio_id', '=', alpha.id).execute()).toEqual(
      [],
    );
    expect(
      await p.store.db.selectFrom('wakes').select('studio_id').where('studio_id', '=', alpha.id).execute(),
    ).toEqual([]);
    for (const url of [`/s/${alpha.slug}/api/v1/users/me`, `/s/${alpha.slug}/`]) {
      const r = await call(url, { headers: staff });
      expect(r.status, url).toBe(404);
    }
    expect((await studios()).studios.map((s) => s.slug)).toEqual(['beta']);
    expect((await call(`/api/platform/studios/${alpha.id}/export`, { headers: owner })).status).toBe(404);
    // The other studio is untouched.
    expect(await dataExists(beta.id)).toBe(true);
    expect((await call(`/s/${beta.slug}/api/v1/users/me`, { headers: await p.auth(beta.slug) })).status).toBe(200);
  });

  it('still deletes when Telegram cannot be reached, and says the webhook was not removed', async () => {
    fake.failNext('deleteWebhook', 'unreachable');
    const res = await call<PlatformDeleted>(`/api/platform/studios/${beta.id}`, {
      method: 'DELETE',
      headers: owner,
      body: { confirm: 'beta' },
    });
    expect(res.status).toBe(200);
    expect(res.body.webhook_removed).toBe(false);
    expect(res.body.webhook_problem).toContain('@studio2_bot');
    expect(await dataExists(beta.id)).toBe(false);
    expect((await call(`/s/${beta.slug}/api/v1/users/me`)).status).toBe(404);
    expect((await studios()).studios).toEqual([]);
  });
});

describe('the platform’s own answers', () => {
  it('carry the security headers (never framed, no sniffing)', async () => {
    for (const url of ['/login', '/api/platform/studios', `/api/v1/utils/ready`]) {
      const res = await fetch(`${p.url}${url}`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    }
  });

  it('behind a proxy (TRUST_PROXY=1) count login attempts per client address, not the proxy’s', async () => {
    const proxied = await startOwnerPlatform({ env: { TRUST_PROXY: '1' } });
    try {
      const login = (client: string, n: number) =>
        fetch(`${proxied.url}/api/platform/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          body: JSON.stringify({ email: `nobody${n}@example.com`, password: 'wrong-password' }),
        }).then((r) => r.status);
      // 31 clients once each: none is limited.
      const many = await Promise.all(Array.from({ length: 31 }, (_, i) => login(`203.0.113.${i + 1}`, i)));
      expect(many.every((s) => s === 401)).toBe(true);
      // One client 31 times: its 31st is refused.
      const one: number[] = [];
      for (let i = 0; i < 31; i++) one.push(await login('198.51.100.7', 100 + i));
      expect(one.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(one[30]).toBe(429);
    } finally {
      await proxied.close();
    }
  }, 60_000);
});
