import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server';
import { bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { listRecordsOfSchedules } from '../../db/repositories/records';

// Real concurrency: a listening server, hundreds of simultaneous HTTP requests, on the
// SQLite file and (TEST_DATABASE_URL) on PostgreSQL with a pool of connections.
let s: Awaited<ReturnType<typeof startTestServer>>;
let staff: { authorization: string };
beforeAll(async () => {
  s = await startTestServer();
  staff = await s.auth();
});
afterAll(() => s.close());

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${s.url}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const CAPACITY = 8;

async function snapshot(scheduleId: number) {
  const rows = await listRecordsOfSchedules(s.database.db, [scheduleId]);
  const taken = rows.filter((r) => r.state === 'ACTIVE').reduce((n, r) => n + r.people_count, 0);
  const queue = rows
    .filter((r) => r.state === 'QUEUED')
    .sort((a, b) => (a.queued_at! < b.queued_at! ? -1 : a.queued_at! > b.queued_at! ? 1 : a.id - b.id));
  return { rows, taken, queue, free: Math.max(0, CAPACITY - taken) };
}

describe('the booking engine under real concurrency', () => {
  it('never gives more seats than the capacity and promotes the queue in order', async () => {
    const { schedule } = await createSession(s.app, staff, { capacity: CAPACITY });
    const users = Array.from({ length: 220 }, () => telegramUser());

    // Phase 1: 220 simultaneous bookings of one person each.
    const responses = await Promise.all(
      users.map((u) => call('POST', '/api/v1/records/', tma(u), bookingPayload(schedule.id))),
    );
    expect(responses.map((r) => r.status).every((st) => st === 201)).toBe(true);
    const owner = new Map<number, (typeof users)[number]>();
    const views = await Promise.all(responses.map((r) => r.json()));
    views.forEach((v, i) => owner.set(v.record.id, users[i]));

    const afterBooking = await snapshot(schedule.id);
    expect(afterBooking.taken).toBe(CAPACITY);
    expect(afterBooking.queue).toHaveLength(220 - CAPACITY);
    // Queue positions reported to customers are 1..n without gaps or repeats.
    const positions = views
      .filter((v) => v.record.state === 'QUEUED')
      .map((v) => v.queue_position)
      .sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: 220 - CAPACITY }, (_, i) => i + 1));
    const originalQueue = afterBooking.queue.map((r) => r.id);

    // Phase 2, all at once: cancel 6 seated and 30 queued customers, and grow 4 seated parties to 3 people.
    const active = afterBooking.rows.filter((r) => r.state === 'ACTIVE').map((r) => r.id);
    const cancelActive = active.slice(0, 6);
    const grow = active.slice(6, 8);
    const cancelQueued = originalQueue.filter((_, i) => i % 5 === 2).slice(0, 30);
    const ops = [
      ...cancelActive.map((id) =>
        call('PUT', `/api/v1/records/cancel/${id}`, tma(owner.get(id)!), { cancel_reason: 'Не смогу прийти' }),
      ),
      ...cancelQueued.map((id) =>
        call('PUT', `/api/v1/records/cancel/${id}`, tma(owner.get(id)!), { cancel_reason: 'Передумала' }),
      ),
      ...grow.map((id) => call('PUT', `/api/v1/records/${id}`, tma(owner.get(id)!), { people_count: 3 })),
    ];
    const statuses = (await Promise.all(ops)).map((r) => r.status);
    expect(statuses.every((st) => st === 200)).toBe(true);

    const end = await snapshot(schedule.id);
    expect(end.taken).toBeLessThanOrEqual(CAPACITY);
    // Fill ran to completion: nobody waiting would fit in the seats left.
    expect(end.queue.every((q) => q.people_count > end.free)).toBe(true);
    // Promotions followed the queue: the promoted originals are exactly its first ones, cancelled ones skipped.
    const stillThere = originalQueue.filter((id) => !cancelQueued.includes(id));
    const promoted = new Set(
      end.rows.filter((r) => r.state === 'ACTIVE' && originalQueue.includes(r.id)).map((r) => r.id),
    );
    expect(promoted.size).toBeGreaterThan(0);
    expect(stillThere.slice(0, promoted.size).every((id) => promoted.has(id))).toBe(true);
    // Every promotion reached the outbox for its customer, once (some were promoted, then cancelled their seat).
    const promotedRows = await s.database.db
      .selectFrom('notifications')
      .select(['chat_id'])
      .where('kind', '=', 'record.promoted')
      .execute();
    const promotedChats = promotedRows.map((r) => r.chat_id);
    expect(new Set(promotedChats).size).toBe(promotedChats.length);
    for (const id of promoted) expect(promotedChats).toContain(owner.get(id)!.id);
  });

  it('keeps one open booking per Telegram user even when the same user double-submits', async () => {
    const { schedule } = await createSession(s.app, staff, { capacity: CAPACITY });
    const u = telegramUser();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/api/v1/records/', tma(u), bookingPayload(schedule.id))),
    );
    const codes = results.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect((await snapshot(schedule.id)).rows).toHaveLength(1);
  });

  it('serves the queue when staff raise the capacity, while customers keep booking', async () => {
    const { schedule } = await createSession(s.app, staff, { capacity: 2 });
    const users = Array.from({ length: 30 }, () => telegramUser());
    await Promise.all([
      ...users.map((u) => call('POST', '/api/v1/records/', tma(u), bookingPayload(schedule.id))),
      call('PUT', `/api/v1/schedule/${schedule.id}`, staff, { capacity: 12 }),
    ]);
    const end = await snapshot(schedule.id);
    expect(end.taken).toBe(12);
    expect(end.queue).toHaveLength(18);
  });
});

describe('the queue, step by step', () => {
  it('lets a smaller party behind a large one take the seats that free up', async () => {
    const { schedule } = await createSession(s.app, staff, { capacity: 4 });
    const [a, big, small] = [telegramUser(), telegramUser(), telegramUser()];
    const ra = (
      await (await call('POST', '/api/v1/records/', tma(a), bookingPayload(schedule.id, { people_count: 4 }))).json()
    ).record.id;
    const rbig = (
      await (await call('POST', '/api/v1/records/', tma(big), bookingPayload(schedule.id, { people_count: 5 }))).json()
    ).record.id;
    const rsmall = (
      await (
        await call('POST', '/api/v1/records/', tma(small), bookingPayload(schedule.id, { people_count: 2 }))
      ).json()
    ).record.id;
    await call('PUT', `/api/v1/records/cancel/${ra}`, tma(a), { cancel_reason: 'Заболела' });
    const bigView = await (await call('GET', `/api/v1/records/${rbig}`, tma(big))).json();
    const smallView = await (await call('GET', `/api/v1/records/${rsmall}`, tma(small))).json();
    expect(bigView).toMatchObject({ record: { state: 'QUEUED' }, queue_position: 1 });
    expect(smallView.record.state).toBe('ACTIVE');
  });

  it('bumps nobody when staff lower the capacity below the seats taken', async () => {
    const { schedule } = await createSession(s.app, staff, { capacity: 4 });
    for (let i = 0; i < 4; i++)
      await call('POST', '/api/v1/records/', tma(telegramUser()), bookingPayload(schedule.id));
    const res = await (await call('PUT', `/api/v1/schedule/${schedule.id}`, staff, { capacity: 2 })).json();
    expect(res.records.filter((r: { state: string }) => r.state === 'ACTIVE')).toHaveLength(4);
    expect(res.places_available).toBe(0);
    const next = await (
      await call('POST', '/api/v1/records/', tma(telegramUser()), bookingPayload(schedule.id))
    ).json();
    expect(next.record.state).toBe('QUEUED');
  });
});
