import type { Database } from '../db/database';
import { nowIso } from '../db/database';
import { withScheduleLock } from '../db/lock';
import { listRecordsOfSchedules } from '../db/repositories/records';
import { getRecordSchedule, setScheduleNotified } from '../db/repositories/schedules';
import { MSG } from './booking';
import { Conflict, NotFound } from './errors';
import { notifyCustomer, recordSnapshot, scheduleSnapshot } from './notifications';

export const REMINDER_MSG = {
  sent: 'Нотификации отправлены',
  past: 'Мастер-класс уже прошёл: уведомления не отправляются',
} as const;

/**
 * `POST /schedule/notify/{id}`: a reminder to every ACTIVE participant who booked
 * from Telegram, written to the outbox under the schedule's lock, and the schedule marked
 * is_notified. Staff may send it again any number of times. Returns how many reminders it wrote.
 */
export async function sendReminders(database: Database, scheduleId: number): Promise<number> {
  return withScheduleLock(database, scheduleId, async (trx) => {
    const schedule = await getRecordSchedule(trx, scheduleId);
    if (!schedule) throw new NotFound(MSG.scheduleNotFound);
    if (schedule.date <= nowIso()) throw new Conflict(REMINDER_MSG.past);
    const snapshot = scheduleSnapshot(schedule);
    let written = 0;
    for (const r of await listRecordsOfSchedules(trx, [scheduleId])) {
      if (r.state !== 'ACTIVE' || r.telegram_id == null) continue;
      await notifyCustomer(trx, r, {
        kind: 'schedule.reminder',
        payload: { schedule: snapshot, record: recordSnapshot(r, null) },
      });
      written++;
    }
    await setScheduleNotified(trx, scheduleId);
    return written;
  });
}
