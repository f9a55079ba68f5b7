import type { AttendanceValue } from '../../contract';
import type { Database } from '../../db/database';
import { withScheduleLock } from '../../db/lock';
import { getRecord, updateRecord, type RecordRow } from '../../db/repositories/records';
import { getSchedule } from '../../db/repositories/schedules';
import { writeAudit, type Actor } from '../notify/audit';
import { Conflict, NotFound } from '../kernel/errors';

export const ATTENDANCE_MSG = {
  recordNotFound: 'Запись не найдена',
  notActive: 'Посещение отмечают только у активной записи',
  tooEarly: 'Посещение можно отметить не раньше чем за час до начала',
} as const;

/** Check-in opens this long before the start. */
export const CHECK_IN_OPENS_MS = 60 * 60 * 1000;

export const checkInOpen = (scheduleDate: string, now = Date.now()) =>
  now >= Date.parse(scheduleDate) - CHECK_IN_OPENS_MS;

/** Marks whether an ACTIVE booking's party came (null clears the mark), under the session's lock. */
export async function setAttendance(
  database: Database,
  ref: Pick<RecordRow, 'id' | 'schedule_id'>,
  attendance: AttendanceValue | null,
  actor: Actor,
): Promise<RecordRow> {
  return withScheduleLock(database, ref.schedule_id, async (trx) => {
    const r = await getRecord(trx, ref.id);
    const schedule = r && (await getSchedule(trx, r.schedule_id));
    if (!r || !schedule) throw new NotFound(ATTENDANCE_MSG.recordNotFound);
    if (r.state !== 'ACTIVE') throw new Conflict(ATTENDANCE_MSG.notActive);
    if (!checkInOpen(schedule.date)) throw new Conflict(ATTENDANCE_MSG.tooEarly);
    if (r.attendance === attendance) return r;
    const updated = await updateRecord(trx, r.id, { attendance });
    await writeAudit(trx, {
      actor,
      entity: 'record',
      entity_id: r.id,
      action: 'attendance',
      before: { attendance: r.attendance },
      after: { attendance },
    });
    return updated;
  });
}
