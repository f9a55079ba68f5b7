import type { Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { listDeciders } from '../../db/repositories/min-people';
import { existingDedupeKeys } from '../../db/repositories/notifications';
import { checkMoneyInvariants } from '../payments/invariants';
import { publish } from '../notify/publish';

/*
 * The nightly money check: at a quiet hour of the studio's day the invariants run over the whole
 * ledger, and each break is told to the owners and managers once (its dedupe key names the break and
 * the recipient), not again every night while it stays.
 */

/** The hour (in the studio's time zone) the check runs in. */
export const MONEY_CHECK_HOUR = 4;

export const moneyCheckKey = (breakKey: string, userId: number) => `money-check:${breakKey}:${userId}`;

/** The date and hour of `now` in `timezone`. */
function localHour(now: Date, timezone: string): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/** Runs the invariants once a night; alerts about breaks not told before. Returns how many alerts it wrote. */
export function moneyCheckJob(database: Database, timezone: string): (now: Date) => Promise<number> {
  let checkedDay: string | null = null;
  return async (now) => {
    const { day, hour } = localHour(now, timezone);
    if (hour !== MONEY_CHECK_HOUR || day === checkedDay) return 0;
    checkedDay = day;
    return alertMoneyBreaks(database, now);
  };
}

/** Checks the ledger now and tells staff of each break they were not told of yet. */
export async function alertMoneyBreaks(database: Database, now = new Date()): Promise<number> {
  // One snapshot of the ledger: payments arriving meanwhile must not look like a break.
  const read = database.db.transaction();
  const breaks = await (database.dialect === 'postgres' ? read.setIsolationLevel('repeatable read') : read).execute(
    (trx) => checkMoneyInvariants(trx, now),
  );
  if (breaks.length === 0) return 0;
  const staff = await listDeciders(database.db);
  const told = await existingDedupeKeys(
    database.db,
    breaks.flatMap((b) => staff.map((s) => moneyCheckKey(b.key, s.user_id))),
  );
  const todo = breaks.flatMap((b) =>
    staff.filter((s) => !told.has(moneyCheckKey(b.key, s.user_id))).map((s) => ({ b, s })),
  );
  if (todo.length === 0) return 0;
  await withWriteTransaction(database, (trx) =>
    publish(
      trx,
      todo.map(({ b, s }) => ({
        type: 'message' as const,
        chat_id: s.chat_id,
        notification: { kind: 'staff.money_check' as const, payload: { text: b.text } },
        dedupe_key: moneyCheckKey(b.key, s.user_id),
      })),
    ),
  );
  return todo.length;
}
