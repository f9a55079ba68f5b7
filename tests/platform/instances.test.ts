import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { openPlatformStore, type PlatformStore } from '../../platform/store';
import { createServers, createStudio, openStudioDatabase, type Servers } from '../../platform/studios';
import { attachBot } from '../../platform/bots';
import { webhookSecretOf } from '../../platform/secrets';
import { signInitData } from '../../server/plugins/telegram-init-data';
import { ensureFirstSuperuser } from '../../core/staff/users';
import { freshDatabaseUrl, isPostgres } from '../helpers/db';
import { startFakeTelegram, textUpdate, tgUser, type FakeTelegram } from '../helpers/fake-telegram';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { bookingPayload } from '../helpers/factories';
import { SUPERUSER } from '../helpers/app';
import { studioBot } from '../helpers/platform';

/*
 * Two studios with the same ids (workshop 1, session 1, booking 1 in both) served by three real platform
 * processes on one PostgreSQL, driven at once through all three: no answer of one studio ever carries
 * the other's data, by staff API, mini-app, bot, export or erasure.
 */

const SECRET_KEY = 'platform-instances-secret-key-0123456789abcdef';

describe.runIf(isPostgres())('two studios through three platform instances', () => {
  let fake: FakeTelegram;
  let drop: () => Promise<void>;
  let store: PlatformStore;
  let servers: Servers;
  const instances: ServerProcess[] = [];
  const dirs: string[] = [];
  const studios = [
    { slug: 'alpha', n: 11, title: 'Сырники', name: 'Алла' },
    { slug: 'beta', n: 12, title: 'Пельмени', name: 'Борис' },
  ] as const;
  const staff: Record<string, string>[] = [];
  // The same Telegram customer in both studios.
  const customer = tgUser(5_551_000, 'maria');
  let turn = 0;
  const next = () => instances[turn++ % instances.length];

  const call = async (
    s: ServerProcess,
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  ) => {
    const res = await fetch(`${s.url}${url}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* CSV */
    }
    return { status: res.status, body: body as never };
  };
  const tmaFor = (i: number) => ({ authorization: `tma ${signInitData(customer, studioBot(studios[i].n).token)}` });

  beforeAll(async () => {
    fake = await startFakeTelegram();
    const fresh = await freshDatabaseUrl();
    drop = fresh.drop;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-platform-inst-'));
    dirs.push(dataDir);
    const config = loadConfig(
      { DATABASE_URL: fresh.url, SECRET_KEY, DATA_DIR: dataDir, PLATFORM: 'true' },
      { dotenv: false },
    );
    store = await openPlatformStore({ databaseUrl: fresh.url, dataDir });
    servers = createServers(config.platform.databases);
    for (const s of studios) {
      const studio = await createStudio(store, servers, dataDir, {
        name: s.title,
        slug: s.slug,
        timezone: 'Europe/Belgrade',
        ownerTelegramId: null,
      });
      const bot = studioBot(s.n);
      fake.addBot({ id: bot.id, username: bot.username }, bot.token);
      await attachBot(store, SECRET_KEY, studio.id, bot);
      const database = openStudioDatabase(studio, servers, dataDir);
      await ensureFirstSuperuser(database, SUPERUSER);
    }
    for (let i = 0; i < 3; i++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-platform-inst-'));
      dirs.push(dir);
      instances.push(
        await startServerProcess({
          NODE_ENV: 'production',
          PLATFORM: 'true',
          DATABASE_URL: fresh.url,
          DATA_DIR: dir,
          DIST_DIR: dir,
          SECRET_KEY,
          TELEGRAM_API_ROOT: fake.url,
          PUBLIC_URL: 'http://127.0.0.1',
          LOG_LEVEL: 'warn',
          SCHEDULER_TICK_S: '1',
        }),
      );
    }
    for (const s of studios) {
      const login = await fetch(`${next().url}/s/${s.slug}/api/v1/login/access-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: SUPERUSER.email, password: SUPERUSER.password }).toString(),
      });
      staff.push({ authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` });
    }
  }, 120_000);

  afterAll(async () => {
    for (const s of instances) s.kill();
    await Promise.all(instances.map((s) => s.exited));
    await servers?.close();
    await store?.close();
    await fake?.close();
    await drop?.();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('keep each studio to its own data while both are driven at once', async () => {
    // Each studio's session 1, made at once through different instances.
    await Promise.all(
      studios.map(async (s, i) => {
        const w = await call(next(), `/s/${s.slug}/api/v1/workshops/`, {
          method: 'POST',
          headers: staff[i],
          body: { title: s.title, price: 1000 },
        });
        const a = await call(next(), `/s/${s.slug}/api/v1/address/`, {
          method: 'POST',
          headers: staff[i],
          body: { title: `${s.title}: кухня`, map_link: 'https://m/1' },
        });
        const date = new Date(Date.now() + 4 * 86_400_000).toISOString();
        const session = await call(next(), `/s/${s.slug}/api/v1/schedule/`, {
          method: 'POST',
          headers: staff[i],
          body: {
            workshop_id: (w.body as { id: number }).id,
            address_id: (a.body as { id: number }).id,
            date,
            capacity: 8,
          },
        });
        expect(session.status).toBe(201);
      }),
    );
    // The same customer books session 1 in both studios, at once, through all three instances.
    const booked = await Promise.all(
      studios.map((s, i) =>
        call(next(), `/s/${s.slug}/api/v1/records/`, {
          method: 'POST',
          headers: tmaFor(i),
          body: bookingPayload(1, { name: s.name, people_count: i + 1 }),
        }),
      ),
    );
    expect(booked.map((b) => b.status)).toEqual([201, 201]);
    expect(booked.map((b) => (b.body as { record: { id: number } }).record.id)).toEqual([1, 1]);

    // Many reads at once, alternating studios and instances: each answer is its own studio's.
    const reads = await Promise.all(
      Array.from({ length: 60 }, async (_, k) => {
        const i = k % 2;
        const mine = await call(next(), `/s/${studios[i].slug}/api/v1/records/1`, { headers: tmaFor(i) });
        const listed = await call(next(), `/s/${studios[i].slug}/api/v1/schedule/1`, { headers: staff[i] });
        return { i, mine, listed };
      }),
    );
    for (const { i, mine, listed } of reads) {
      expect(mine.status).toBe(200);
      const record = (
        mine.body as { record: { name: string; people_count: number; schedule: { workshop: { title: string } } } }
      ).record;
      expect(record).toMatchObject({
        name: studios[i].name,
        people_count: i + 1,
        schedule: { workshop: { title: studios[i].title } },
      });
      expect(JSON.stringify(listed.body)).toContain(studios[i].title);
      expect(JSON.stringify(listed.body)).not.toContain(studios[1 - i].title);
    }
    // One studio's bot's init data and one studio's staff token open nothing in the other.
    expect((await call(next(), `/s/beta/api/v1/records/1`, { headers: tmaFor(0) })).status).toBe(401);
    expect((await call(next(), `/s/alpha/api/v1/schedule/1`, { headers: staff[1] })).status).toBe(401);

    // Exports carry their own studio's bookings only.
    for (const [i, s] of studios.entries()) {
      const csv = await call(next(), `/s/${s.slug}/api/v1/records/export.csv`, { headers: staff[i] });
      expect(csv.status).toBe(200);
      expect(String(csv.body)).toContain(s.name);
      expect(String(csv.body)).not.toContain(studios[1 - i].name);
    }
  });

  it("answers each studio's bot with that bot, whichever instance Telegram reaches", async () => {
    for (const [i, s] of studios.entries()) {
      const bot = studioBot(s.n);
      const res = await fetch(`${next().url}/api/v1/telegram/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-telegram-bot-api-secret-token': webhookSecretOf(SECRET_KEY, bot.token),
        },
        body: JSON.stringify(textUpdate(customer, '/mydata')),
      });
      expect(res.status, `${s.slug}`).toBe(200);
      const replies = fake.ok('sendMessage', customer.id, bot.token).map((c) => JSON.stringify(c.params));
      expect(replies.length).toBeGreaterThan(0);
      // /mydata tells the customer what this studio holds of them: its booking, not the other's.
      expect(replies.join()).toContain(s.title);
      expect(replies.join()).not.toContain(studios[1 - i].title);
    }
  });

  it("erases the customer in one studio and leaves the other studio's booking whole", async () => {
    const erased = await call(next(), '/s/alpha/api/v1/me/data', { method: 'DELETE', headers: tmaFor(0) });
    expect(erased.status).toBeLessThan(300);
    const gone = await call(next(), '/s/alpha/api/v1/records/1', { headers: staff[0] });
    expect(JSON.stringify(gone.body)).not.toContain(studios[0].name);
    const kept = await call(next(), '/s/beta/api/v1/records/1', { headers: tmaFor(1) });
    expect(kept.status).toBe(200);
    expect((kept.body as { record: { name: string } }).record.name).toBe(studios[1].name);
  });
});
