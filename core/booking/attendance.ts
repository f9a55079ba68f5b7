import type { AttendanceValue } from '../../contract';
import { nowIso, type Database } from '../../db/database';
import { updateRecord, type RecordRow } from '../../db/repositories/records';
import { fiscalizeDelivery } from '../fiscal/enqueue';
import { actorCan, type Actor } from '../kernel/actor';
import { Conflict, Forbidden } from '../kernel/errors';
import { onRecord } from './command';

export const ATTENDANCE_MSG = {
  notActive: 'attendanceNotActive',
  tooEarly: 'attendanceTooEarly',
  staffOnly: 'attendanceStaffOnly',
} as const;

/** Check-in opens this long before the start. */
export const CHECK_IN_OPENS_MS = 60 * 60 * 1000;

export const checkInOpen = (scheduleDate: string, now = Date.now()) =>
  now >= Date.parse(scheduleDate) - CHECK_IN_OPENS_MS;

/**
 * Staff mark whether an ACTIVE booking's party came (null clears the mark), under the session's lock;
 * «пришёл» writes the booking's delivery receipts.
 * `toggle` (the staff bot's buttons): pressing the mark the booking already has clears it.
 */
export function setAttendance(
  database: Database,
  actor: Actor,
  recordId: number,
  mark: AttendanceValue | null,
  { toggle = false } = {},
): Promise<RecordRow> {
  return onRecord(database, actor, recordId, async ({ trx, record: r, schedule }) => {
    if (!actorCan(actor, 'checkin')) throw new Forbidden(ATTENDANCE_MSG.staffOnly);
    if (r.state !== 'ACTIVE') throw new Conflict(ATTENDANCE_MSG.notActive);
    if (!checkInOpen(schedule.date)) throw new Conflict(ATTENDANCE_MSG.tooEarly);
    const attendance = toggle && r.attendance === mark ? null : mark;
    if (r.attendance === attendance) return { value: r, events: [] };
    const record = await updateRecord(trx, r.id, { attendance });
    // «Пришёл» is the service delivered: its advances are closed and it is sold (once).
    if (attendance === 'ATTENDED') await fiscalizeDelivery(trx, record, nowIso());
    return { value: record, events: [{ type: 'record.attendance', actor, before: r, record, schedule }] };
  });
}
