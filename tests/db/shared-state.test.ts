import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { hitRateLimit } from '../../db/repositories/rate-limits';
import { markUpdateHandled, takeUpdate } from '../../db/repositories/telegram-updates';
import { pruneSharedState } from '../../core/jobs/shared-state';
import { freshDatabaseUrl } from '../helpers/db';

// What several instances share through the database, counted with real concurrency: on PostgreSQL
// through a pool of connections, on SQLite through separate connections to one file.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `n` connections ("instances") to one fresh, migrated database. */
async function instances(n: number): Promise<Database[]> {
  const f = await freshDatabaseUrl();
  const all = Array.from({ length: n }, () => createDb(f.url));
  cleanups.push(async () => {
    for (const d of all) await d.close();
    await f.drop();
  });
  await migrateToLatest(all[0].db);
  return all;
}

describe('rate-limit windows', () => {
  it('hits of one key from several instances at once get distinct counts 1..n; other keys count apart', async () => {
    const dbs = await instances(3);
    const now = Date.now();
    const hits = await Promise.all(
      Array.from({ length: 45 }, (_, i) => hitRateLimit(dbs[i % 3].db, 'POST /login|127.0.0.1', 60_000, now + i)),
    );
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(new Set(hits.map((h) => h.window_start))).toEqual(new Set([hits.find((h) => h.count === 1)!.window_start]));
    expect((await hitRateLimit(dbs[0].db, 'POST /login|127.0.0.2', 60_000, now)).count).toBe(1);
  });

  it('a window that has run out starts again at the next hit', async () => {
    const [d] = await instances(1);
    const t0 = 1_800_000_000_000;
    expect(await hitRateLimit(d.db, 'k', 60_000, t0)).toEqual({ count: 1, window_start: t0 });
    expect(await hitRateLimit(d.db, 'k', 60_000, t0 + 59_999)).toEqual({ count: 2, window_start: t0 });
    expect(await hitRateLimit(d.db, 'k', 60_000, t0 + 60_000)).toEqual({ count: 1, window_start: t0 + 60_000 });
  });
});

describe('webhook update ids', () => {
  it('the same update id taken by several instances at once: exactly one gets it', async () => {
    const dbs = await instances(3);
    const at = new Date();
    const take = (d: (typeof dbs)[number], id: number, now = at) => takeUpdate(d.db, id, now, 60_000, 5);
    const taken = await Promise.all(Array.from({ length: 12 }, (_, i) => take(dbs[i % 3], 700_001)));
    expect(taken.filter((x) => x.status === 'take')).toHaveLength(1);
    expect(taken.filter((x) => x.status === 'busy')).toHaveLength(11);
    expect(await take(dbs[0], 700_002)).toEqual({ status: 'take', attempt: 1 });
  });

  it('an update whose taker died is taken again by exactly one instance once its lease ran out, then never again', async () => {
    const dbs = await instances(3);
    const t0 = new Date('2030-01-10T12:00:00Z');
    expect(await takeUpdate(dbs[0].db, 700_003, t0, 60_000, 5)).toEqual({ status: 'take', attempt: 1 });
    const later = new Date(t0.getTime() + 60_000);
    const again = await Promise.all(
      Array.from({ length: 12 }, (_, i) => takeUpdate(dbs[i % 3].db, 700_003, later, 60_000, 5)),
    );
    expect(again.filter((x) => x.status === 'take')).toEqual([{ status: 'take', attempt: 2 }]);
    await markUpdateHandled(dbs[1].db, 700_003, later.toISOString());
    const muchLater = new Date(t0.getTime() + 3600_000);
    expect(await takeUpdate(dbs[2].db, 700_003, muchLater, 60_000, 5)).toEqual({ status: 'done' });
  });
});

describe('the shared-state job', () => {
  it('drops windows that have run out and update ids older than a day, keeps the rest', async () => {
    const [d] = await instances(1);
    const now = new Date('2030-01-10T12:00:00Z');
    await hitRateLimit(d.db, 'old', 60_000, now.getTime() - 60_000);
    await hitRateLimit(d.db, 'live', 900_000, now.getTime() - 60_000);
    await takeUpdate(d.db, 1, new Date(now.getTime() - 25 * 3600_000), 60_000, 5);
    await takeUpdate(d.db, 2, new Date(now.getTime() - 23 * 3600_000), 60_000, 5);
    await markUpdateHandled(d.db, 2, new Date(now.getTime() - 23 * 3600_000).toISOString());
    expect(await pruneSharedState(d, now)).toBe(2);
    expect((await d.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key)).toEqual(['live']);
    expect((await d.db.selectFrom('telegram_updates').select('update_id').execute()).map((r) => r.update_id)).toEqual([
      2,
    ]);
    // An update id forgotten after a day could be taken again, but Telegram no longer sends it by then.
    expect(await takeUpdate(d.db, 2, now, 60_000, 5)).toEqual({ status: 'done' });
  });
});
