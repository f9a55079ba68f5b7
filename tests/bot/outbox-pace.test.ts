import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Api } from 'grammy';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  startFakeTelegram,
  TELEGRAM_LIMITS,
  TOO_MANY,
  type FakeCall,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { enqueueNotifications, listNotifications } from '../../db/repositories/notifications';
import { createOutbox, type Outbox, type OutboxOptions } from '../../bot/outbox';
import { botTestApp, quietLog, SESSION_DATE } from './setup';
import { virtualClock, type VirtualClock } from '../helpers/virtual-clock';

/*
 * The outbox at Telegram's pace, against a fake Bot API that answers 429 as Telegram does when a
 * flood limit is exceeded (30 messages/s overall, 1/s per private chat, 20/min per group). The pace
 * tests run the worker and the fake on one virtual clock: seconds of pace pass in milliseconds, with
 * the real database and real HTTP. The claims tests run real processes in real time.
 */

/** The pace tests' virtual clock (a new one for each worker); the fake Bot API reads the time from it in the pace tests. */
let clock: VirtualClock;
let virtualTime = false;
const fakeTime = { now: () => (virtualTime ? clock.now() : Date.now()) };
let fake: FakeTelegram;
let t: TestApp;
/** A real notification payload (from a booking), copied into the rows the tests write. */
let template: { record: { people_count: number } };

beforeAll(async () => {
  fake = await startFakeTelegram({ limits: TELEGRAM_LIMITS, clock: fakeTime });
  t = await botTestApp(fake);
  const staff = await t.auth();
  const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
  const c = telegramUser();
  await book(t.app, c, bookingPayload(schedule.id));
  const [row] = await listNotifications(t.database.db, { chat_id: c.id });
  template = JSON.parse(row.payload) as typeof template;
  await t.telegram!.outbox.drain();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

let nextGroup = -1_001_000_000_000;

/** `count` rows to one chat; each message's text is its number (from `first`), so the order shows. */
async function enqueue(chatId: number, count: number, opts: { first?: number; kind?: string } = {}) {
  await enqueueNotifications(
    t.database.db,
    Array.from({ length: count }, (_, i) => ({
      chat_id: chatId,
      kind: opts.kind ?? 'record.booked',
      payload: { ...template, record: { ...template.record, people_count: (opts.first ?? 1) + i } },
    })),
  );
}

const workers: Outbox[] = [];
/** A worker in this process; `virtual`: on the file's virtual clock (its sends hold the clock until the fake answers). */
/**
 * A worker in this process. `virtual`: on the pace tests' virtual clock (which stands still while a
 * send and its database write are under way); `answered` is told of each answered send before the worker hears of it.
 */
function worker(
  options: Partial<OutboxOptions> = {},
  opts: { virtual?: boolean; answered?: (chatId: number) => void } = {},
): Outbox {
  const api = new Api(t.config.botToken!, { apiRoot: fake.url });
  const sendMessage: typeof api.raw.sendMessage = (args, signal) =>
    api.raw.sendMessage(args, signal).finally(() => opts.answered?.(Number(args.chat_id)));
  const w = createOutbox({
    database: t.database,
    api: opts.virtual ? { ...api.raw, sendMessage } : api.raw,
    log: quietLog,
    options: { pollIntervalMs: 50, ...options },
    render: (n) => ({ text: 'record' in n.payload ? String(n.payload.record.people_count) : '' }),
    clock: opts.virtual ? clock : undefined,
  });
  workers.push(w);
  return w;
}
/**
 * On the virtual clock. Each poll for due rows is real database work, so the worker polls once a
 * (virtual) second: the pace, not the polls, is under test.
 */
function virtualWorker(options: Partial<OutboxOptions> = {}, answered?: (chatId: number) => void) {
  // A new clock at the real time: the rows written so far are due.
  clock = virtualClock();
  return worker({ pollIntervalMs: 1000, ...options }, { virtual: true, answered });
}

/** Real milliseconds the pace tests took, all together. */
let paceMs = 0;
afterAll(() => Promise.all(workers.map((w) => w.stop())));

const sent = (chatId: number) => fake.messages(chatId);
const texts = (calls: FakeCall[]) => calls.map((c) => c.params.text);
const gaps = (calls: FakeCall[]) => calls.slice(1).map((c, i) => c.at - calls[i].at);
const chats = (n: number) => Array.from({ length: n }, () => telegramUser().id);

describe('the outbox at Telegram’s pace (virtual clock)', () => {
  let started = 0;
  beforeEach(() => {
    virtualTime = true;
    started = performance.now();
  });
  afterEach(async () => {
    paceMs += performance.now() - started;
    // A failed test leaves no worker running into the next one.
    await Promise.all(workers.map((w) => w.stop()));
    virtualTime = false;
  });

  it('a chat with a backlog never delays other chats’ first messages; each chat’s messages keep their order; no 429', async () => {
    const flooded = telegramUser().id;
    await enqueue(flooded, 6);
    const others = chats(25);
    for (const c of others) await enqueue(c, 1);
    const w = virtualWorker();
    w.start();
    await fake.waitFor(() => sent(flooded).length === 6 && others.every((c) => sent(c).length === 1), 15_000);
    await w.stop();
    // The 25 other chats were all served before the flooded chat's third message (it may send once a second).
    expect(Math.max(...others.map((c) => sent(c)[0].at))).toBeLessThan(sent(flooded)[2].at);
    expect(texts(sent(flooded))).toEqual(['1', '2', '3', '4', '5', '6']);
    // One a second.
    expect(sent(flooded)[5].at - sent(flooded)[0].at).toBeGreaterThanOrEqual(4900);
    for (const gap of gaps(sent(flooded))) expect(gap).toBeGreaterThan(800);
    // 31 messages at 28/s: about a second for the 25 first messages, not more.
    expect(Math.max(...others.map((c) => sent(c)[0].at)) - sent(flooded)[0].at).toBeLessThan(1500);
    expect(fake.floodErrors).toBe(0);
    expect(fake.calls.filter((c) => !c.ok)).toHaveLength(0);
  });

  it('a 429 in one chat delays that chat only, by retry_after, and keeps its order; the 429 is not a failed attempt', async () => {
    const a = telegramUser().id;
    // The clock stands still from a's first message until the next rows are written: a was just written to,
    // so Telegram's 429 for it is a's own limit.
    let thaw: (() => void) | null = null;
    const w = virtualWorker({}, (chatId) => {
      if (chatId === a) thaw ??= clock.freeze();
    });
    w.start();
    await enqueue(a, 1);
    await fake.waitFor(() => sent(a).length === 1, 5000);
    fake.failNext('sendMessage', TOO_MANY(3), { chatId: a });
    await enqueue(a, 2, { first: 2 });
    const others = chats(5);
    for (const c of others) await enqueue(c, 1);
    thaw!();
    await fake.waitFor(() => sent(a).length === 3 && others.every((c) => sent(c).length === 1), 15_000);
    await w.stop();
    const limited = fake.calls.find((c) => c.error?.error_code === 429)!;
    expect(Number(limited.params.chat_id)).toBe(a);
    for (const c of others) expect(sent(c)[0].at - limited.at).toBeLessThan(1500);
    const [, second, third] = sent(a);
    expect(second.at - limited.at).toBeGreaterThanOrEqual(3000);
    expect(texts(sent(a))).toEqual(['1', '2', '3']);
    expect(third.at - second.at).toBeGreaterThan(900);
    const rows = await listNotifications(t.database.db, { chat_id: a });
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('a group gets at most one message every 3 seconds (20 a minute)', async () => {
    const group = nextGroup--;
    await enqueue(group, 3);
    const w = virtualWorker();
    w.start();
    await fake.waitFor(() => sent(group).length === 3, 10_000);
    await w.stop();
    expect(sent(group)[2].at - sent(group)[0].at).toBeGreaterThanOrEqual(5900);
    for (const gap of gaps(sent(group))) expect(gap).toBeGreaterThan(2800);
    expect(fake.floodErrors).toBe(0);
  });

  it('a confirmation goes before a broadcast of reminders written earlier', async () => {
    const reminded = chats(30);
    for (const c of reminded) await enqueue(c, 1, { kind: 'schedule.reminder' });
    const booked = telegramUser().id;
    await enqueue(booked, 1);
    // A claim smaller than the broadcast: the confirmation must be claimed first, not only sent first.
    const w = virtualWorker({ batchSize: 20 });
    w.start();
    await fake.waitFor(() => reminded.every((c) => sent(c).length === 1) && sent(booked).length === 1, 15_000);
    await w.stop();
    const order = fake.messages().map((c) => Number(c.params.chat_id));
    expect(order.indexOf(booked)).toBe(0);
    // 31 messages at 28/s: a little over a second, never faster than Telegram allows.
    const at = fake.messages().map((c) => c.at);
    expect(at[at.length - 1] - at[0]).toBeGreaterThanOrEqual(1000);
    expect(at[at.length - 1] - at[0]).toBeLessThan(2000);
    expect(fake.floodErrors).toBe(0);
  });

  it('a heartbeat keeps a claim alive while its rows wait for their turn', async () => {
    const group = nextGroup--;
    await enqueue(group, 2);
    // The second row waits 3 s (the group's pace), longer than the 2 s lease: the heartbeat extends it.
    // The test looks 2.3 s after the first message (the clock stands still while the fake answers it).
    // The clock stops right there (the wait's continuation runs before the clock can move on).
    let later: Promise<() => void> | undefined;
    const w = virtualWorker({ leaseMs: 2000, heartbeatMs: 300, sendTimeoutMs: 1000, perChatClaim: 2 }, () => {
      later ??= clock.wait(2300).then(() => clock.freeze());
    });
    w.start();
    await fake.waitFor(() => later !== undefined, 5000);
    const thaw = await later!;
    expect(sent(group)).toHaveLength(1);
    const [, waiting] = await listNotifications(t.database.db, { chat_id: group });
    expect(waiting.status).toBe('pending');
    expect(waiting.claimed_by).not.toBeNull();
    expect(Date.parse(String(waiting.locked_until))).toBeGreaterThan(clock.now());
    thaw();
    await fake.waitFor(() => sent(group).length === 2, 5000);
    await w.stop();
    expect(sent(group)[1].at - sent(group)[0].at).toBeGreaterThan(2900);
  });

  it('together they take under 2 s of real time (on an idle machine: the budget grows with the load of a shared one)', () => {
    const load = Math.max(1, os.loadavg()[0] / os.cpus().length);
    expect(paceMs).toBeLessThan(2000 * load);
  });
});

describe('claims', () => {
  const LEASE = { leaseMs: 2000, heartbeatMs: 300, sendTimeoutMs: 1000 };

  it('a worker stopped by SIGTERM finishes its sends and gives its other claimed rows back at once; the next worker sends each exactly once', async () => {
    const customers = chats(20);
    for (const c of customers) await enqueue(c, 1);
    const instance = startInstance({ perSecond: 4 });
    await instance.ready;
    instance.go();
    await fake.waitFor(() => fake.messages().length >= 3, 10_000);
    await instance.stop();
    const left = (await listNotifications(t.database.db)).filter((r) => r.status === 'pending');
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((r) => r.claimed_by === null && r.locked_until === null)).toBe(true);
    const stoppedAt = Date.now();
    await worker().drain();
    for (const c of customers) expect(sent(c), `chat ${c}`).toHaveLength(1);
    // Taken over at once, not after the lease (30 s by default).
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
  });

  it('kill -9 mid-delivery: another worker takes over within the short lease, with at most one duplicate', async () => {
    const customers = chats(30);
    for (const c of customers) await enqueue(c, 1);
    fake.latencyMs = 20;
    const instance = startInstance({ ...LEASE, perSecond: 10 });
    await instance.ready;
    instance.go();
    await fake.waitFor(() => fake.messages().length >= 8, 10_000);
    instance.kill();
    const killedAt = Date.now();
    const next = worker(LEASE);
    next.start();
    // Every row recorded as sent: a row the dead worker sent but did not record is sent again after its lease.
    const allSent = async () =>
      (await listNotifications(t.database.db))
        .filter((r) => customers.includes(Number(r.chat_id)))
        .every((r) => r.status === 'sent');
    while (!(await allSent()) && Date.now() - killedAt < 15_000) await new Promise((r) => setTimeout(r, 50));
    const doneAt = Date.now();
    await next.stop();
    expect(await allSent()).toBe(true);
    for (const c of customers) expect(sent(c).length, `chat ${c}`).toBeGreaterThanOrEqual(1);
    const duplicates = customers.reduce((n, c) => n + sent(c).length - 1, 0);
    expect(duplicates).toBeLessThanOrEqual(1);
    // The dead worker's claims ran out after at most the lease (2 s); the rest took ~2 s at 28/s and 1/s per chat.
    expect(doneAt - killedAt).toBeLessThan(LEASE.leaseMs + 3000);
  });
});

/** tests/bot/outbox-instance.ts as a running server's worker, in its own process (to be killed). */
function startInstance(options: Partial<OutboxOptions>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/bot/outbox-instance.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: t.config.databaseUrl,
      BOT_TOKEN: t.config.botToken,
      TELEGRAM_API_ROOT: t.config.telegramApiRoot,
      PUBLIC_URL: t.config.publicUrl,
      SECRET_KEY: t.config.secretKey,
      DATA_DIR: t.config.dataDir,
      OUTBOX_SERVE: '1',
      OUTBOX_OPTIONS: JSON.stringify(options),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`instance exited ${code}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    ready,
    go: () => child.stdin.write('go\n'),
    kill: () => child.kill('SIGKILL'),
    /** SIGTERM, as a server is stopped; resolves when the process has exited. */
    stop: async () => {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
  };
}
