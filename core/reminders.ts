import type { Database } from '../db/database';
import { nowIso } from '../db/database';
import { withScheduleLock } from '../db/lock';
import { listRecordsOfSchedules } from '../db/repositories/records';
import { getRecordSchedule, setScheduleNotified } from '../db/repositories/schedules';
import { MSG } from './booking';
import { Conflict, NotFound } from './errors';
import { notifyCustomer, recordSnapshot, sessionSnapshot } from './notifications';

export const REMINDER_MSG = {
  sent: 'Нотификации отправлены',
  past: 'Мастер-класс уже прошёл: уведомления не отправляются',
} as const;

/**
 * `POST /schedule/notify/{id}`: a reminder to every ACTIVE participant who booked
 * from Telegram, written to the outbox under the session's lock, and the session marked
 * is_notified. Staff may send it again any number of times. Returns how many reminders it wrote.
 */
export async function sendReminders(database: Database, scheduleId: number): Promise<number> {
  return withScheduleLock(database, scheduleId, async (trx) => {
    const session = await getRecordSchedule(trx, scheduleId);
    if (!session) throw new NotFound(MSG.scheduleNotFound);
    if (session.date <= nowIso()) throw new Conflict(REMINDER_MSG.past);
    const snapshot = sessionSnapshot(session);
    let written = 0;
    for (const r of await listRecordsOfSchedules(trx, [scheduleId])) {
      if (r.state !== 'ACTIVE' || r.telegram_id == null) continue;
      await notifyCustomer(trx, r, {
        kind: 'schedule.reminder',
        payload: { session: snapshot, record: recordSnapshot(r, null) },
      });
      written++;
    }
    await setScheduleNotified(trx, scheduleId);
    return written;
  });
}
