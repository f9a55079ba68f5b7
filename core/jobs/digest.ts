import { fullName } from '../../contract/format';
import { publish } from '../notify/publish';
import type { Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { existingDedupeKeys } from '../../db/repositories/notifications';
import { listQueue, listRecordsOfSchedules, type RecordRow } from '../../db/repositories/records';
import { getRecordSchedule, listSchedulesBetween } from '../../db/repositories/schedules';
import { listAlertRecipients } from '../../db/repositories/users';
import { bool } from '../../db/database';
import { type DigestPayload, type DigestPerson } from '../notify/notifications';
import { digestDedupeKey, scheduleSnapshot } from '../notify/snapshots';

/*
 * The day-before digest (staff setting scheduled_1d): a scheduler job writes, for every schedule
 * that starts within the next 24 hours, one 'staff.digest' row per staff member who has the
 * alert on and a linked Telegram account. "The day before" is taken as "24 hours before": a
 * schedule at 12:00 is summarised at about 12:00 the day before, whatever the time zone; a schedule
 * created less than a day ahead is summarised at once. The dedupe key digest:<schedule>:<user>
 * makes the job idempotent across runs, restarts and server instances: once per schedule and
 * staff member, even if the schedule moves later.
 */

export const DIGEST_WINDOW_MS = 24 * 60 * 60 * 1000;

const person = (r: RecordRow): DigestPerson => ({
  record_id: r.id,
  telegram_id: r.telegram_id,
  name: r.name,
  last_name: r.last_name,
  telegram_login: r.telegram_login,
  people_count: r.people_count,
  has_allergy: bool(r.has_allergy),
  allergy_type: r.allergy_type,
  comment: r.comment,
  is_first_time: bool(r.is_first_time),
});

/** Whose a line about allergies or comments is (erasure finds it by the booking). */
const whose = (r: RecordRow) => ({ record_id: r.id, telegram_id: r.telegram_id, name: fullName(r) });

/** Writes the digests due at `now`; returns how many rows it wrote. */
export async function enqueueDueDigests(database: Database, now = new Date()): Promise<number> {
  const db = database.db;
  const schedules = await listSchedulesBetween(
    db,
    now.toISOString(),
    new Date(now.getTime() + DIGEST_WINDOW_MS).toISOString(),
  );
  if (schedules.length === 0) return 0;
  const recipients = await listAlertRecipients(db, 'scheduled_1d');
  if (recipients.length === 0) return 0;
  let written = 0;
  for (const s of schedules) {
    const done = await existingDedupeKeys(
      db,
      recipients.map((r) => digestDedupeKey(s.id, r.user_id)),
    );
    const todo = recipients.filter((r) => !done.has(digestDedupeKey(s.id, r.user_id)));
    if (todo.length === 0) continue;
    written += await withWriteTransaction(database, async (trx) => {
      const schedule = await getRecordSchedule(trx, s.id);
      if (!schedule) return 0;
      const records = await listRecordsOfSchedules(trx, [s.id]);
      const active = records.filter((r) => r.state === 'ACTIVE');
      const payload: DigestPayload = {
        schedule: scheduleSnapshot(schedule),
        capacity: schedule.capacity,
        participants: active.map(person),
        total_people: active.reduce((n, r) => n + r.people_count, 0),
        allergies: active
          .filter((r) => bool(r.has_allergy))
          .map((r) => ({ ...whose(r), allergy: r.allergy_type || 'да' })),
        comments: active.filter((r) => r.comment?.trim()).map((r) => ({ ...whose(r), comment: r.comment!.trim() })),
        queue: (await listQueue(trx, s.id)).map(person),
      };
      await publish(
        trx,
        todo.map((r) => ({
          type: 'message',
          chat_id: r.chat_id,
          notification: { kind: 'staff.digest', payload },
          dedupe_key: digestDedupeKey(s.id, r.user_id),
        })),
      );
      return todo.length;
    });
  }
  return written;
}
