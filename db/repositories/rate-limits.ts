import { sql } from 'kysely';
import type { Executor } from '../database';
import { prepared } from '../prepared';

/**
 * Counts one hit of `key` in its fixed window of `windowMs` and returns the count so far and when
 * the window started (epoch ms). One statement, atomic on both databases: every instance counting
 * the same key at once gets distinct counts. A window that has run out starts again at `now`.
 */
export async function hitRateLimit(
  db: Executor,
  key: string,
  windowMs: number,
  now: number,
): Promise<{ count: number; window_start: number }> {
  const [row] = await hit(db, key, windowMs, now);
  return { count: Number(row.count), window_start: Number(row.window_start) };
}

const hit = prepared((db: Executor, key: string, windowMs: number, now: number) => {
  const expired = sql<boolean>`rate_limits.window_start + rate_limits.window_ms <= ${now}`;
  return db
    .insertInto('rate_limits')
    .values({ key, window_start: now, window_ms: windowMs, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`case when ${expired} then 1 else rate_limits.count + 1 end`,
        window_start: sql`case when ${expired} then ${now} else rate_limits.window_start end`,
        window_ms: windowMs,
      }),
    )
    .returning(['count', 'window_start']);
});

/** Drops the windows that ran out before `now`. */
export const pruneRateLimits = (db: Executor, now: number) =>
  db
    .deleteFrom('rate_limits')
    .where(sql<boolean>`window_start + window_ms <= ${now}`)
    .execute();
