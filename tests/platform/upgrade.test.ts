import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, SUPERUSER } from '../helpers/app';
import { bookingPayload, book, createSession, telegramUser } from '../helpers/factories';
import { freshDatabaseUrl } from '../helpers/db';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';
import { TEST_BOT_TOKEN, tma } from '../helpers/telegram';

/*
 * A single-studio deployment becomes a platform: its database is the first studio as it is (the same
 * SQLite file, or PostgreSQL's public schema), with its staff, bookings and bot; its old addresses
 * still lead there; and a second studio beside it sees none of it.
 */

let fake: FakeTelegram | undefined;
let p: TestPlatform | undefined;
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await p?.close();
  await fake?.close();
  await drop?.();
});

describe('a single-studio database adopted as the first studio', () => {
  it('keeps every booking, account and the bot, under /s/studio and at its old addresses', async () => {
    fake = await startFakeTelegram();
    const fresh = await freshDatabaseUrl();
    drop = fresh.drop;
    // The studio as it ran before: a session, two bookings, its staff.
    const before = await buildTestApp({ databaseUrl: fresh.url, env: { ...fake.env } });
    const staff = await before.auth();
    const { schedule } = await createSession(before.app, staff);
    const anna = telegramUser();
    const first = (await book(before.app, anna, bookingPayload(schedule.id, { people_count: 2 }))).json().record;
    await book(before.app, telegramUser(), bookingPayload(schedule.id));
    const dataDir = before.config.dataDir;
    await before.app.close();

    p = await startTestPlatform({
      databaseUrl: fresh.url,
      dataDir,
      env: { BOT_TOKEN: TEST_BOT_TOKEN, PUBLIC_URL: 'https://booking.example.com', ...fake.env },
    });
    const studio = await p.store.db.selectFrom('studios').selectAll().executeTakeFirstOrThrow();
    expect(studio.slug).toBe('studio');
    // Its staff log in as before (a new token: each studio signs its own), and find the bookings.
    const token = await p.auth('studio');
    const list = await fetch(`${p.url}/s/studio/api/v1/schedule/${schedule.id}`, { headers: token });
    expect(list.status).toBe(200);
    // The customer opens their booking with init data of the same bot, under the new address and the old one.
    for (const path of [`/s/studio/api/v1/records/${first.id}`, `/api/v1/records/${first.id}`]) {
      const res = await fetch(`${p.url}${path}`, { headers: tma(anna) });
      expect(res.status, path).toBe(200);
      expect(((await res.json()) as { record: { people_count: number } }).record.people_count).toBe(2);
    }
    // An old link to a page leads to the same page under the studio's address.
    const page = await fetch(`${p.url}/record/${first.id}?x=1`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`/s/studio/record/${first.id}?x=1`);
    // Its bot is its own still, set up again with the platform's webhook and its own secret.
    const bot = await p.store.db.selectFrom('bots').selectAll().executeTakeFirstOrThrow();
    expect(bot.bot_id).toBe(Number(TEST_BOT_TOKEN.split(':')[0]));
    const { setUpPendingBots } = await import('../../platform/bots');
    await setUpPendingBots(p.store, p.config);
    const hook = fake.ok('setWebhook', undefined, TEST_BOT_TOKEN).at(-1);
    expect(hook?.params).toMatchObject({ url: `${p.config.publicUrl}/api/v1/telegram/webhook` });
    expect((await p.store.db.selectFrom('bots').select('problem').executeTakeFirstOrThrow()).problem).toBeNull();
    // A second studio beside it: its record 1 is not the first studio's.
    const other = await p.addStudio('second', 9);
    const cross = await fetch(`${p.url}/s/${other.slug}/api/v1/records/${first.id}`, { headers: tma(anna) });
    expect(cross.status).toBe(401);
    // And the users are the same accounts.
    const me = await fetch(`${p.url}/s/studio/api/v1/users/me`, { headers: token });
    expect(((await me.json()) as { email: string }).email).toBe(SUPERUSER.email);
  });
});
