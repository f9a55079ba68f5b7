import { startOfStudioDay } from '../../contract/format';
import type { Database } from '../../db/database';
import { withScheduleLock } from '../../db/lock';
import { existingDedupeKeys } from '../../db/repositories/notifications';
import { listRecordsOfSchedules } from '../../db/repositories/records';
import { getRecordSchedule, listSchedulesBetween } from '../../db/repositories/schedules';
import { recordSnapshot, scheduleSnapshot } from '../notify/snapshots';
import type { MessageEvent } from '../notify/publish';
import { publish } from '../notify/publish';

/*
 * After the class: the next morning (THANKS_HOUR in the business's zone) every customer whose
 * booking was ACTIVE gets a thank-you with a 1–5 rating and "Записаться снова". Sent during that
 * day only (a server that was down longer skips it rather than thanking days late); once per
 * booking: the dedupe key thanks:<record>.
 */

export const THANKS_HOUR = 10;
/** Until this hour of the next day the thank-you may still go out. */
const THANKS_UNTIL_HOUR = 22;

export const thanksDedupeKey = (recordId: number) => `thanks:${recordId}`;

export async function enqueueAfterClassThanks(database: Database, timeZone: string, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - 2 * 86_400_000).toISOString();
  const schedules = await listSchedulesBetween(database.db, since, now.toISOString());
  let written = 0;
  for (const s of schedules) {
    const from = startOfStudioDay(s.date, timeZone, 1, THANKS_HOUR);
    const until = startOfStudioDay(s.date, timeZone, 1, THANKS_UNTIL_HOUR);
    const at = now.toISOString();
    if (at < from || at >= until) continue;
    const due = (await listRecordsOfSchedules(database.db, [s.id])).filter(
      (r) => r.state === 'ACTIVE' && r.telegram_id != null,
    );
    const done = await existingDedupeKeys(
      database.db,
      due.map((r) => thanksDedupeKey(r.id)),
    );
    const todo = due.filter((r) => !done.has(thanksDedupeKey(r.id)));
    if (todo.length === 0) continue;
    written += await withScheduleLock(database, s.id, async (trx) => {
      const schedule = await getRecordSchedule(trx, s.id);
      if (!schedule) return 0;
      // Read again under the lock: a booking cancelled, given away or erased since is thanked as it is now.
      const fresh = (await listRecordsOfSchedules(trx, [s.id])).filter(
        (r) => r.state === 'ACTIVE' && r.telegram_id != null,
      );
      const sent = await existingDedupeKeys(
        trx,
        fresh.map((r) => thanksDedupeKey(r.id)),
      );
      const told: MessageEvent[] = fresh
        .filter((r) => !sent.has(thanksDedupeKey(r.id)))
        .map((r) => ({
          type: 'message',
          chat_id: r.telegram_id!,
          notification: {
            kind: 'record.thanks',
            payload: {
              schedule: scheduleSnapshot(schedule),
              record: recordSnapshot(r, null),
              workshop_id: schedule.workshop.id,
            },
          },
          dedupe_key: thanksDedupeKey(r.id),
        }));
      await publish(trx, told);
      return told.length;
    });
  }
  return written;
}
