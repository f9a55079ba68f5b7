import type { Database } from '../../db/database';
import { isPast } from '../../contract/format';
import { withScheduleLock } from '../../db/lock';
import { existingDedupeKeys } from '../../db/repositories/notifications';
import { getRecord, listRecordsOfSchedules } from '../../db/repositories/records';
import { getRecordSchedule, listSchedulesBetween, setScheduleNotified } from '../../db/repositories/schedules';
import { getBusinessSettings } from '../kernel/settings';
import { MSG } from '../kernel/messages';
import { Conflict, NotFound } from '../kernel/errors';
import { recordSnapshot, scheduleSnapshot } from '../notify/snapshots';
import type { MessageEvent } from '../notify/publish';
import { publish } from '../notify/publish';

export const REMINDER_MSG = {
  sent: 'Нотификации отправлены',
  past: 'reminderPast',
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
    if (isPast(schedule.date)) throw new Conflict(REMINDER_MSG.past);
    const snapshot = scheduleSnapshot(schedule);
    const told: MessageEvent[] = (await listRecordsOfSchedules(trx, [scheduleId]))
      .filter((r) => r.state === 'ACTIVE' && r.telegram_id != null)
      .map((r) => ({
        type: 'message',
        chat_id: r.telegram_id!,
        notification: { kind: 'schedule.reminder', payload: { schedule: snapshot, record: recordSnapshot(r, null) } },
      }));
    await publish(trx, told);
    await setScheduleNotified(trx, scheduleId);
    return told.length;
  });
}

/*
 * Automatic reminders (the business setting reminder_hours, e.g. [24, 3]): a scheduler job. Each
 * offset has a window, from its moment (start − hours) to the next offset's moment (or the start);
 * a tick inside the window writes the reminder to every ACTIVE booking that was already ACTIVE at
 * the moment (a booking made 2 hours before gets no "3 hours before" reminder), once per booking
 * and offset: the dedupe key reminder:<record>:<hours> holds across runs, restarts and instances.
 * A window missed entirely (the server was down) is skipped rather than sent late. The last
 * reminder carries the address as a map pin when it has coordinates.
 */

export const reminderDedupeKey = (recordId: number, hours: number) => `reminder:${recordId}:${hours}`;

const HOUR_MS = 3_600_000;

/** Writes the reminders due at `now`; returns how many it wrote. */
export async function enqueueDueReminders(database: Database, now = new Date()): Promise<number> {
  const { reminder_hours } = await getBusinessSettings(database.db);
  const hours = [...reminder_hours].sort((a, b) => b - a);
  if (hours.length === 0) return 0;
  const schedules = await listSchedulesBetween(
    database.db,
    now.toISOString(),
    new Date(now.getTime() + hours[0] * HOUR_MS).toISOString(),
  );
  let written = 0;
  for (const s of schedules) {
    const start = Date.parse(s.date);
    const i = hours.findIndex((h, k) => {
      const next = k + 1 < hours.length ? start - hours[k + 1] * HOUR_MS : start;
      return now.getTime() >= start - h * HOUR_MS && now.getTime() < next;
    });
    if (i < 0) continue;
    const h = hours[i];
    const moment = new Date(start - h * HOUR_MS).toISOString();
    const due = (await listRecordsOfSchedules(database.db, [s.id])).filter(
      (r) => r.state === 'ACTIVE' && r.telegram_id != null && r.active_since != null && r.active_since <= moment,
    );
    const done = await existingDedupeKeys(
      database.db,
      due.map((r) => reminderDedupeKey(r.id, h)),
    );
    const todo = due.filter((r) => !done.has(reminderDedupeKey(r.id, h)));
    if (todo.length === 0) continue;
    written += await withScheduleLock(database, s.id, async (trx) => {
      const schedule = await getRecordSchedule(trx, s.id);
      if (!schedule) return 0;
      const snapshot = scheduleSnapshot(schedule);
      const last = i === hours.length - 1;
      const { latitude, longitude } = schedule.address;
      const venue =
        last && latitude != null && longitude != null
          ? {
              latitude,
              longitude,
              title: schedule.address.title.slice(0, 100),
              address: (schedule.address.description || schedule.address.title).slice(0, 200),
            }
          : undefined;
      const told: MessageEvent[] = [];
      for (const r of todo) {
        // Read again under the lock: cancelled meanwhile means no reminder.
        const fresh = await getRecord(trx, r.id);
        if (!fresh || fresh.state !== 'ACTIVE' || fresh.telegram_id == null) continue;
        told.push({
          type: 'message',
          chat_id: fresh.telegram_id,
          notification: {
            kind: 'schedule.reminder',
            payload: { schedule: snapshot, record: recordSnapshot(fresh, null), hours_before: h, venue },
          },
          dedupe_key: reminderDedupeKey(fresh.id, h),
        });
      }
      await publish(trx, told);
      return told.length;
    });
  }
  return written;
}
