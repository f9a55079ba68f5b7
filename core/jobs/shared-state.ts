import type { Database } from '../../db/database';
import { pruneRateLimits } from '../../db/repositories/rate-limits';
import { pruneUpdates } from '../../db/repositories/telegram-updates';

/** Telegram keeps sending an unconfirmed webhook update for at most a day. */
const UPDATE_RETRIES_MS = 24 * 3600_000;

/**
 * Forgets what the instances share only for a while: rate-limit windows that have run out and
 * webhook update ids Telegram can no longer send again. Returns how many rows it dropped.
 */
export async function pruneSharedState(database: Database, now: Date): Promise<number> {
  const windows = await pruneRateLimits(database.db, now.getTime());
  const updates = await pruneUpdates(database.db, new Date(now.getTime() - UPDATE_RETRIES_MS).toISOString());
  return Number(windows[0]?.numDeletedRows ?? 0) + Number(updates[0]?.numDeletedRows ?? 0);
}
