import type { RecordSchedule } from '../../contract';
import type { Database, Executor } from '../../db/database';
import { withScheduleLock } from '../../db/lock';
import { getRecord, type RecordRow } from '../../db/repositories/records';
import { getRecordSchedule } from '../../db/repositories/schedules';
import { MSG } from '../kernel/messages';
import { NotFound } from '../kernel/errors';

/**
 * Runs `fn` on a customer's own booking under its schedule's lock. The booking is read again under
 * the lock; anyone but its Telegram owner is told it does not exist (as a missing one is).
 */
export async function withOwnRecord<T>(
  database: Database,
  recordId: number,
  telegramId: number,
  fn: (trx: Executor, r: RecordRow, schedule: RecordSchedule) => Promise<T>,
): Promise<T> {
  const ref = await getRecord(database.db, recordId);
  if (!ref || ref.telegram_id !== telegramId) throw new NotFound(MSG.recordNotFound);
  return withScheduleLock(database, ref.schedule_id, async (trx) => {
    const r = await getRecord(trx, recordId);
    if (!r || r.telegram_id !== telegramId) throw new NotFound(MSG.recordNotFound);
    const schedule = await getRecordSchedule(trx, r.schedule_id);
    if (!schedule) throw new NotFound(MSG.scheduleNotFound);
    return fn(trx, r, schedule);
  });
}
