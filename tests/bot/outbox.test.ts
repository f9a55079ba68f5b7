import { Api } from 'grammy';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { TestApp } from '../helpers/app';
import { freshDatabaseUrl, isPostgres } from '../helpers/db';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { startFakeTelegram, TOO_MANY, type FakeTelegram } from '../helpers/fake-telegram';
import { claimDueNotifications, listNotifications, outboxBacklog } from '../../db/repositories/notifications';
import { createOutboxFor } from '../../bot/runtime';
import { createOutbox, type OutboxOptions } from '../../bot/outbox';
import { renderContext } from '../../bot/context';
import { renderNotification } from '../../bot/messages';
import { virtualClock, type VirtualClock } from '../helpers/virtual-clock';
import { botTestApp, quietLog, SESSION_DATE } from './setup';

/** The virtual clock of the test that runs on one; the fake Bot API reads the time from it then. */
let clock: VirtualClock | null = null;
let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

beforeAll(async () => {
  fake = await startFakeTelegram({ clock: { now: () => clock?.now() ?? Date.now() } });
  t = await botTestApp(fake);
  staff = await t.auth();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(async () => {
  await t.telegram!.outbox.drain();
  fake.reset();
});

/**
 * The server's worker (bot/runtime's Bot API client and rendering) on a virtual clock.
 */
function virtualOutbox(clock: VirtualClock, options: Partial<OutboxOptions>) {
  const api = new Api(t.config.botToken!, { apiRoot: t.config.telegramApiRoot });
  const rc = renderContext(t.config);
  return createOutbox({
    database: t.database,
    api: api.raw,
    log: quietLog,
    options,
    render: (n) => renderNotification(n, rc),
    clock,
  });
}

/** Rows an earlier test left pending (for a later retry) are no part of the next one. */
const forgetPending = () =>
  t.database.db.updateTable('notifications').set({ status: 'failed' }).where('status', '=', 'pending').execute();

/** The server's worker (bot/runtime's createOutboxFor) on this test's database, with these options. */
const serverWorker = (options: Partial<OutboxOptions>) =>
  createOutboxFor({ config: t.config, database: t.database, log: quietLog, options });

const sendsTo = (chatId: number) =>
  fake.calls.filter((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === chatId);
const rowsOf = (chatId: number) => listNotifications(t.database.db, { chat_id: chatId });

/** A customer with one booking, so one 'record.booked' row waits in the outbox. */
async function customerWithRow(scheduleId: number) {
  const c = telegramUser();
  expect((await book(t.app, c, bookingPayload(scheduleId))).statusCode).toBe(201);
  return c;
}

describe('the outbox worker', () => {
  it('on 429 waits retry_after seconds (for every chat: the limit is the bot’s), then delivers once; a 429 is not a failed attempt', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const a = await customerWithRow(schedule.id);
    const b = await customerWithRow(schedule.id);
    fake.failNext('sendMessage', TOO_MANY(1), { chatId: a.id });
    // Nothing was sent to a lately, so the 429 is the bot's: every chat waits, in every instance (the rows' due time).
    clock = virtualClock();
    const worker = virtualOutbox(clock, { perSecond: 2 });
    worker.start();
    try {
      await fake.waitFor(() => fake.messages(a.id).length === 1 && fake.messages(b.id).length === 1, 8000);
    } finally {
      await worker.stop();
      clock = null;
    }
    const [limited, retried] = sendsTo(a.id);
    expect(limited.error?.error_code).toBe(429);
    expect(retried.ok).toBe(true);
    expect(retried.at - limited.at).toBeGreaterThanOrEqual(1000);
    expect(sendsTo(b.id)).toHaveLength(1);
    expect(sendsTo(b.id)[0].at - limited.at).toBeGreaterThanOrEqual(1000);
    expect(Date.parse((await rowsOf(b.id))[0].next_attempt_at)).toBeGreaterThanOrEqual(limited.at + 900);
    expect(sendsTo(a.id)).toHaveLength(2);
    expect((await rowsOf(a.id))[0]).toMatchObject({
      status: 'sent',
      attempts: 1,
      last_error: null,
      locked_until: null,
    });
  });

  it('tells an observer each send’s result and time; the backlog counts the rows not yet sent and the oldest one’s age', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const blocked = telegramUser();
    fake.block(blocked.id);
    await book(t.app, blocked, bookingPayload(schedule.id));
    const limited = await customerWithRow(schedule.id);
    const fine = await customerWithRow(schedule.id);
    fake.failNext('sendMessage', TOO_MANY(30), { chatId: limited.id });
    await new Promise((r) => setTimeout(r, 1100));
    const before = await outboxBacklog(t.database.db);
    expect(before.pending).toBe(3);
    expect(before.oldest_age_s).toBeGreaterThanOrEqual(1);
    const sends: [string, number][] = [];
    const worker = createOutboxFor({
      config: t.config,
      database: t.database,
      log: quietLog,
      options: { perSecond: 1000 },
      onSend: (result, ms) => sends.push([result, ms]),
    });
    await worker.drain();
    expect(sends.map(([r]) => r).sort()).toEqual(['429', 'failed', 'ok']);
    for (const [, ms] of sends) expect(ms).toBeGreaterThanOrEqual(0);
    expect(fake.messages(fine.id)).toHaveLength(1);
    // The 429'd row waits for its retry: still in the backlog; the sent and the failed ones are not.
    expect(await outboxBacklog(t.database.db)).toMatchObject({ pending: 1 });
    await forgetPending();
    expect(await outboxBacklog(t.database.db)).toEqual({ pending: 0, oldest_age_s: null });
  });

  it('on 403 (the user blocked the bot) marks the row failed for good and never retries it', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const blocked = telegramUser();
    fake.block(blocked.id);
    await book(t.app, blocked, bookingPayload(schedule.id));
    const other = await customerWithRow(schedule.id);
    const worker = serverWorker({ baseDelayMs: 10 });
    await worker.drain();
    await new Promise((r) => setTimeout(r, 100));
    await worker.drain();
    expect(sendsTo(blocked.id)).toHaveLength(1);
    expect(sendsTo(blocked.id)[0].error?.error_code).toBe(403);
    expect((await rowsOf(blocked.id))[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: '403: Forbidden: bot was blocked by the user',
    });
    expect(fake.messages(other.id)).toHaveLength(1);
  });

  it('retries server errors with exponential backoff, then delivers once', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const a = await customerWithRow(schedule.id);
    fake.failNext('sendMessage', { error_code: 502, description: 'Bad Gateway' }, { chatId: a.id, times: 2 });
    const worker = serverWorker({ pollIntervalMs: 20, baseDelayMs: 150 });
    worker.start();
    try {
      await fake.waitFor(() => fake.messages(a.id).length === 1, 8000);
    } finally {
      await worker.stop();
    }
    const calls = sendsTo(a.id);
    expect(calls.map((c) => c.ok)).toEqual([false, false, true]);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(150);
    expect(calls[2].at - calls[1].at).toBeGreaterThanOrEqual(300);
    expect((await rowsOf(a.id))[0]).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
  });

  it('gives up after the last attempt; a network failure is retried later', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const a = await customerWithRow(schedule.id);
    fake.failNext(
      'sendMessage',
      { error_code: 500, description: 'Internal Server Error' },
      { chatId: a.id, times: 100 },
    );
    const worker = serverWorker({ pollIntervalMs: 10, baseDelayMs: 10, maxAttempts: 3 });
    worker.start();
    try {
      await fake.waitFor(() => sendsTo(a.id).length === 3, 5000);
      await new Promise((r) => setTimeout(r, 150));
    } finally {
      await worker.stop();
    }
    expect(sendsTo(a.id)).toHaveLength(3);
    expect((await rowsOf(a.id))[0]).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: '500: Internal Server Error',
    });

    const b = await customerWithRow(schedule.id);
    const unreachable = createOutboxFor({
      config: { ...t.config, telegramApiRoot: 'http://127.0.0.1:9' },
      database: t.database,
      log: quietLog,
    });
    expect(await unreachable.runOnce()).toBe(1);
    const [row] = await rowsOf(b.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, locked_until: null });
    expect(row.last_error).toBeTruthy();
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(Date.now() + 3000);
    expect(await unreachable.runOnce()).toBe(0);
  });

  it('a notification whose rendering failed (its database unreachable for a moment) is delivered on a later try, not failed for good', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const a = await customerWithRow(schedule.id);
    const rc = renderContext(t.config);
    let outage = true;
    const worker = createOutbox({
      database: t.database,
      api: new Api(t.config.botToken!, { apiRoot: t.config.telegramApiRoot }).raw,
      log: quietLog,
      options: { baseDelayMs: 10 },
      render: async (n) => {
        if (outage) throw new Error('Connection terminated unexpectedly');
        return renderNotification(n, rc);
      },
    });
    await worker.runOnce();
    expect(fake.messages(a.id)).toHaveLength(0);
    const [waiting] = await rowsOf(a.id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, locked_until: null });
    expect(waiting.last_error).toContain('render: ');
    outage = false;
    await new Promise((r) => setTimeout(r, 50));
    await worker.drain();
    expect(fake.messages(a.id)).toHaveLength(1);
    expect((await rowsOf(a.id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('an idle worker sends a booking’s confirmation as soon as the booking is committed, not at its next poll', async () => {
    await forgetPending();
    // Without the nudge the booking would wait up to 10 s.
    const worker = serverWorker({ idlePollMs: 10_000 });
    worker.start();
    try {
      await new Promise((r) => setTimeout(r, 300));
      const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
      await new Promise((r) => setTimeout(r, 300));
      const bookedAt = Date.now();
      const a = await customerWithRow(schedule.id);
      await fake.waitFor(() => fake.messages(a.id).length === 1, 5000);
      expect(fake.messages(a.id)[0].at - bookedAt).toBeLessThan(1500);
    } finally {
      await worker.stop();
    }
  });

  it('two server instances (two processes) on one database never send a row twice', async () => {
    await forgetPending();
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 100 });
    const customers: { id: number }[] = [];
    for (let i = 0; i < 40; i++) customers.push(await customerWithRow(schedule.id));
    fake.latencyMs = 10;
    const env = {
      ...process.env,
      DATABASE_URL: t.config.databaseUrl,
      BOT_TOKEN: t.config.botToken,
      TELEGRAM_API_ROOT: t.config.telegramApiRoot,
      PUBLIC_URL: t.config.publicUrl,
      SECRET_KEY: t.config.secretKey,
      DATA_DIR: t.config.dataDir,
    };
    const instances = [startInstance(env), startInstance(env)];
    await Promise.all(instances.map((i) => i.ready));
    for (const i of instances) i.go();
    const sentBy = await Promise.all(instances.map((i) => i.done));
    for (const c of customers) expect(fake.messages(c.id), `chat ${c.id}`).toHaveLength(1);
    expect(fake.messages()).toHaveLength(40);
    expect(sentBy[0] + sentBy[1]).toBe(40);
    if (isPostgres()) {
      // PostgreSQL: one instance at a time sends for the bot; the other found it sending and sent nothing.
      expect([...sentBy].sort((x, y) => x - y)).toEqual([0, 40]);
    } else {
      // SQLite: both instances took part, so the claims really competed.
      expect(sentBy[0]).toBeGreaterThan(0);
      expect(sentBy[1]).toBeGreaterThan(0);
    }
    const rows = await listNotifications(t.database.db, { kind: 'record.booked' });
    expect(
      rows
        .filter((r) => customers.some((c) => c.id === r.chat_id))
        .every((r) => r.status === 'sent' && r.attempts === 1),
    ).toBe(true);
  });
});

/** Starts tests/bot/outbox-instance.ts in its own process; `done` resolves with how many messages it sent. */
function startInstance(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/bot/outbox-instance.ts')], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let onReady: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on('data', (c) => {
    out += c;
    if (out.startsWith('ready\n')) onReady();
  });
  child.stderr.on('data', (c) => (err += c));
  const done = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.split('\n')[1]).sent) : reject(new Error(`instance exited ${code}: ${err}`)),
    );
  });
  return { ready, done, go: () => child.stdin.write('go\n') };
}

describe('a restart', () => {
  it('delivers rows left pending, and a crashed worker’s claimed row once its lease has run out, exactly once', async () => {
    const db = await freshDatabaseUrl();
    const first = await botTestApp(fake, { databaseUrl: db.url });
    let second: TestApp | null = null;
    try {
      const staff1 = await first.auth();
      const { schedule } = await createSession(first.app, staff1, { date: SESSION_DATE });
      const a = telegramUser();
      const b = telegramUser();
      await book(first.app, a, bookingPayload(schedule.id));
      await book(first.app, b, bookingPayload(schedule.id));
      // A worker of the first instance claims a's row and dies before sending it.
      const now = Date.now();
      const leaseUntil = new Date(now + 1500).toISOString();
      const claimed = await claimDueNotifications(first.database.db, first.database.dialect, {
        now: new Date(now).toISOString(),
        leaseUntil,
        limit: 1,
      });
      expect(claimed.map((r) => r.chat_id)).toEqual([a.id]);
      await first.close();
      expect(fake.messages()).toHaveLength(0);

      second = await botTestApp(fake, { databaseUrl: db.url });
      await second.telegram!.start();
      await fake.waitFor(() => fake.messages(a.id).length === 1 && fake.messages(b.id).length === 1, 10_000);
      expect(fake.messages(a.id)[0].at).toBeGreaterThanOrEqual(Date.parse(leaseUntil));
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.messages(a.id)).toHaveLength(1);
      expect(fake.messages(b.id)).toHaveLength(1);
    } finally {
      await second?.close();
      await db.drop();
    }
  });
});

describe.skipIf(!isPostgres())('the sender on PostgreSQL', () => {
  /** Advisory locks held in this test's database (the sender's lock is one). */
  const advisoryLocks = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_locks
       where locktype = 'advisory' and granted
         and database = (select oid from pg_database where datname = current_database())`.execute(t.database.db);
    return rows[0].n;
  };

  it('takes the lock only when something is due, and lets it and its connection go once idle for senderLingerMs', async () => {
    await forgetPending();
    const worker = serverWorker({ pollIntervalMs: 20, senderLingerMs: 300 });
    worker.start();
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(await advisoryLocks()).toBe(0);
      const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
      const a = await customerWithRow(schedule.id);
      await fake.waitFor(() => fake.messages(a.id).length === 1, 5000);
      expect(await advisoryLocks()).toBe(1);
      await new Promise((r) => setTimeout(r, 900));
      expect(await advisoryLocks()).toBe(0);
      // Sending again when the next row comes.
      const b = await customerWithRow(schedule.id);
      await fake.waitFor(() => fake.messages(b.id).length === 1, 5000);
    } finally {
      await worker.stop();
    }
  });
});
