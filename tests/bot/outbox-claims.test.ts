import { describe, expect, it } from 'vitest';
import { listNotifications } from '../../db/repositories/notifications';
import { chats, startInstance, useOutboxApp } from './outbox-setup';

/*
 * Claims on the outbox's rows when a worker stops or dies: workers in their own processes, in real
 * time (so this file runs in the slow project; the pace itself: outbox-pace.test.ts).
 */

const o = useOutboxApp();
const { enqueue } = o;
const sent = (chatId: number) => o.fake.messages(chatId);

describe('claims', () => {
  const LEASE = { leaseMs: 2000, heartbeatMs: 300, sendTimeoutMs: 1000 };

  it('a worker stopped by SIGTERM finishes its sends and gives its other claimed rows back at once; the next worker sends each exactly once', async () => {
    const customers = chats(20);
    for (const c of customers) await enqueue(c, 1);
    const instance = startInstance(o.t, { perSecond: 4 });
    await instance.ready;
    instance.go();
    await o.fake.waitFor(() => o.fake.messages().length >= 3, 10_000);
    await instance.stop();
    const left = (await listNotifications(o.t.database.db)).filter((r) => r.status === 'pending');
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((r) => r.claimed_by === null && r.locked_until === null)).toBe(true);
    const stoppedAt = Date.now();
    await o.worker().drain();
    for (const c of customers) expect(sent(c), `chat ${c}`).toHaveLength(1);
    // Taken over at once, not after the lease (30 s by default).
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
  });

  it('kill -9 mid-delivery: another worker takes over within the short lease, with at most one duplicate', async () => {
    const customers = chats(30);
    for (const c of customers) await enqueue(c, 1);
    o.fake.latencyMs = 20;
    const instance = startInstance(o.t, { ...LEASE, perSecond: 10 });
    await instance.ready;
    instance.go();
    await o.fake.waitFor(() => o.fake.messages().length >= 8, 10_000);
    instance.kill();
    const killedAt = Date.now();
    const next = o.worker(LEASE);
    next.start();
    // Every row recorded as sent: a row the dead worker sent but did not record is sent again after its lease.
    const allSent = async () =>
      (await listNotifications(o.t.database.db))
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
