import type { Database } from '../../db/database';
import { listUndelivered } from '../../db/repositories/fiscal-advances';
import { onRecord } from '../booking/command';
import { fiscalizeDelivery } from '../fiscal/enqueue';
import { getFiscalSettings } from '../fiscal/settings';
import { SYSTEM } from '../kernel/actor';

/*
 * The service is delivered when its session starts: every ACTIVE booking not marked absent that
 * holds money gets its delivery receipts (the close of its advances and its sale) at the session's
 * start, unless check-in or money at the door delivered it already. Each booking under its own lock.
 */

/** How far back a session's start is still settled (after an outage of the server). */
export const DELIVERY_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;

export async function deliverStartedSessions(database: Database, now: Date): Promise<number> {
  if ((await getFiscalSettings(database.db)).fiscal_mode === 'off') return 0;
  const since = new Date(now.getTime() - DELIVERY_LOOKBACK_MS).toISOString();
  let written = 0;
  for (const due of await listUndelivered(database.db, since, now.toISOString()))
    written += await onRecord(database, SYSTEM, due.id, async ({ trx, record, schedule }) => ({
      // Read again under the lock: cancelled, marked absent or moved to a later date meanwhile, nothing.
      value: Date.parse(schedule.date) <= now.getTime() ? await fiscalizeDelivery(trx, record, schedule.date) : 0,
      events: [],
    }));
  return written;
}
