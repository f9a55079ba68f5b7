import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import os from 'node:os';
import { telegramUser } from '../helpers/factories';
import { TOO_MANY } from '../helpers/fake-telegram';
import { listNotifications } from '../../db/repositories/notifications';
import type { OutboxOptions } from '../../bot/outbox';
import { virtualClock, type VirtualClock } from '../helpers/virtual-clock';
import { createSendGate } from '../../bot/delivery/send-gate';
import { chats, gaps, texts, useOutboxApp } from './outbox-setup';

/*
 * The outbox at Telegram's pace, against a fake Bot API that answers 429 as Telegram does when a
 * flood limit is exceeded (30 messages/s overall, 1/s per private chat, 20/min per group). The worker
 * and the fake run on one virtual clock: seconds of pace pass in milliseconds, with the real database
 * and real HTTP. (Workers in their own processes, in real time: outbox-claims.test.ts.)
 */

/** The virtual clock of the test under way (a new one for each worker); the fake Bot API reads the time from it. */
let clock: VirtualClock;
let virtualTime = false;
const o = useOutboxApp({ now: () => (virtualTime ? clock.now() : Date.now()) });
const { enqueue } = o;

let nextGroup = -1_001_000_000_000;

/**
 * On the virtual clock (which stands still while a send and its database write are under way). Each
 * poll for due rows is real database work, so the worker polls once a (virtual) second: the pace, not
 * the polls, is under test. `answered` is told of each answered send before the worker hears of it.
 */
function virtualWorker(options: Partial<OutboxOptions> = {}, answered?: (chatId: number) => void) {
  // A new clock at the real time: the rows written so far are due.
  clock = virtualClock();
  return o.worker({ pollIntervalMs: 1000, ...options }, { clock, answered });
}

/** Real milliseconds the pace tests took, all together. */
let paceMs = 0;

const sent = (chatId: number) => o.fake.messages(chatId);

describe('the outbox at Telegram’s pace (virtual clock)', () => {
  let started = 0;
  beforeEach(() => {
    virtualTime = true;
    started = performance.now();
  });
  afterEach(async () => {
    paceMs += performance.now() - started;
    // A failed test leaves no worker running into the next one.
    await Promise.all(o.workers.map((w) => w.stop()));
    virtualTime = false;
  });

  it('a chat with a backlog never delays other chats’ first messages; each chat’s messages keep their order; no 429', async () => {
    const flooded = telegramUser().id;
    await enqueue(flooded, 6);
    const others = chats(25);
    for (const c of others) await enqueue(c, 1);
    const w = virtualWorker();
    w.start();
    await o.fake.waitFor(() => sent(flooded).length === 6 && others.every((c) => sent(c).length === 1), 15_000);
    await w.stop();
    // The 25 other chats were all served before the flooded chat's third message (it may send once a second).
    expect(Math.max(...others.map((c) => sent(c)[0].at))).toBeLessThan(sent(flooded)[2].at);
    expect(texts(sent(flooded))).toEqual(['1', '2', '3', '4', '5', '6']);
    // One a second.
    expect(sent(flooded)[5].at - sent(flooded)[0].at).toBeGreaterThanOrEqual(4900);
    for (const gap of gaps(sent(flooded))) expect(gap).toBeGreaterThan(800);
    // 31 messages at 28/s: about a second for the 25 first messages, not more.
    expect(Math.max(...others.map((c) => sent(c)[0].at)) - sent(flooded)[0].at).toBeLessThan(1500);
    expect(o.fake.floodErrors).toBe(0);
    expect(o.fake.calls.filter((c) => !c.ok)).toHaveLength(0);
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
    // The fake logs the message before its answer reaches the worker: wait for the clock to be frozen too.
    await o.fake.waitFor(() => sent(a).length === 1 && thaw !== null, 5000);
    o.fake.failNext('sendMessage', TOO_MANY(3), { chatId: a });
    await enqueue(a, 2, { first: 2 });
    const others = chats(5);
    for (const c of others) await enqueue(c, 1);
    thaw!();
    await o.fake.waitFor(() => sent(a).length === 3 && others.every((c) => sent(c).length === 1), 15_000);
    await w.stop();
    const limited = o.fake.calls.find((c) => c.error?.error_code === 429)!;
    expect(Number(limited.params.chat_id)).toBe(a);
    for (const c of others) expect(sent(c)[0].at - limited.at).toBeLessThan(1500);
    const [, second, third] = sent(a);
    expect(second.at - limited.at).toBeGreaterThanOrEqual(3000);
    expect(texts(sent(a))).toEqual(['1', '2', '3']);
    expect(third.at - second.at).toBeGreaterThan(900);
    const rows = await listNotifications(o.t.database.db, { chat_id: a });
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
    await o.fake.waitFor(() => sent(group).length === 3, 10_000);
    await w.stop();
    expect(sent(group)[2].at - sent(group)[0].at).toBeGreaterThanOrEqual(5900);
    for (const gap of gaps(sent(group))) expect(gap).toBeGreaterThan(2800);
    expect(o.fake.floodErrors).toBe(0);
  });

  it('a confirmation goes before a broadcast of reminders written earlier', async () => {
    const reminded = chats(30);
    for (const c of reminded) await enqueue(c, 1, { kind: 'schedule.reminder' });
    const booked = telegramUser().id;
    await enqueue(booked, 1);
    // A claim smaller than the broadcast: the confirmation must be claimed first, not only sent first.
    const w = virtualWorker({ batchSize: 20 });
    w.start();
    await o.fake.waitFor(() => reminded.every((c) => sent(c).length === 1) && sent(booked).length === 1, 15_000);
    await w.stop();
    const order = o.fake.messages().map((c) => Number(c.params.chat_id));
    expect(order.indexOf(booked)).toBe(0);
    // 31 messages at 28/s: a little over a second, never faster than Telegram allows.
    const at = o.fake.messages().map((c) => c.at);
    expect(at[at.length - 1] - at[0]).toBeGreaterThanOrEqual(1000);
    expect(at[at.length - 1] - at[0]).toBeLessThan(2000);
    expect(o.fake.floodErrors).toBe(0);
  });

  it('a confirmation written a second into a broadcast goes out at the next poll, not after the reminders already claimed', async () => {
    const reminded = chats(200);
    for (const c of reminded) await enqueue(c, 1, { kind: 'schedule.reminder' });
    // A second after the first reminder, the clock stops while the booking's row is written.
    let later: Promise<() => void> | undefined;
    // 120 claimed at first: 90 still held a second in, more than half a batch.
    const w = virtualWorker({ batchSize: 120, pollIntervalMs: 250 }, () => {
      later ??= clock.wait(1000).then(() => clock.freeze());
    });
    w.start();
    await o.fake.waitFor(() => later !== undefined, 5000);
    const thaw = await later!;
    const booked = telegramUser().id;
    await enqueue(booked, 1);
    const bookedAt = clock.now();
    thaw();
    await o.fake.waitFor(() => reminded.every((c) => sent(c).length === 1) && sent(booked).length === 1, 20_000);
    await w.stop();
    // Claimed at the next poll and sent in the next slot (non-bulk first), not once the 90 were down to 60.
    expect(sent(booked)[0].at - bookedAt).toBeLessThan(600);
    const last = Math.max(...reminded.map((c) => sent(c)[0].at));
    expect(last - sent(booked)[0].at).toBeGreaterThan(2000);
    expect(o.fake.floodErrors).toBe(0);
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
    await o.fake.waitFor(() => later !== undefined, 5000);
    const thaw = await later!;
    expect(sent(group)).toHaveLength(1);
    const [, waiting] = await listNotifications(o.t.database.db, { chat_id: group });
    expect(waiting.status).toBe('pending');
    expect(waiting.claimed_by).not.toBeNull();
    expect(Date.parse(String(waiting.locked_until))).toBeGreaterThan(clock.now());
    thaw();
    await o.fake.waitFor(() => sent(group).length === 2, 5000);
    await w.stop();
    expect(sent(group)[1].at - sent(group)[0].at).toBeGreaterThan(2900);
  });

  it('together they take under 2 s of real time (on an idle machine: the budget grows with the load of a shared one)', () => {
    const load = Math.max(1, os.loadavg()[0] / os.cpus().length);
    expect(paceMs).toBeLessThan(2000 * load);
  });
});

describe('the outbox under a platform’s send cap (real time)', () => {
  it('paces from when the cap lets a send start: a chat’s messages stay a second apart, however the cap holds them; no 429', async () => {
    // The cap is shared with another bot that takes its slots in bursts, so this bot's slots come unevenly.
    const gate = createSendGate(12);
    let competing = true;
    const other = (async () => {
      while (competing) {
        await Promise.all(Array.from({ length: 5 }, () => gate.permit('other')));
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const many = chats(12);
    for (const c of many) await enqueue(c, 1);
    const busy = telegramUser().id;
    await enqueue(busy, 3);
    const w = o.worker({ pollIntervalMs: 50 }, { permit: () => gate.permit('this') });
    w.start();
    try {
      await o.fake.waitFor(() => many.every((c) => sent(c).length === 1) && sent(busy).length === 3, 20_000);
    } finally {
      await w.stop();
      competing = false;
      await other;
    }
    expect(o.fake.floodErrors).toBe(0);
    const gapsMs = gaps(sent(busy));
    for (const g of gapsMs) expect(g).toBeGreaterThanOrEqual(1000);
  }, 30_000);
});
