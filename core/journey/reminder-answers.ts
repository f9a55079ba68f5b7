import { nowIso, type Database, type Executor } from '../../db/database';
import { setRecordResponse, type RecordRow } from '../../db/repositories/records';
import type { RecordSchedule } from '../../contract';
import { customerActor, writeAudit } from '../notify/audit';
import { Conflict } from '../kernel/errors';
import { withOwnRecord } from '../booking/own-record';

/*
 * The customer's answers from Telegram: "Приду" on a reminder and the 1–5 rating after the class.
 * Only the booking's own Telegram user may answer; anyone else is told the booking does not exist.
 */

export const ANSWER_MSG = {
  notActive: 'Запись не активна: подтверждать нечего',
  started: 'Мастер-класс уже начался',
  notYet: 'Оценить мастер-класс можно после него',
  notAttended: 'Оценить можно только мастер-класс, на который вы были записаны',
} as const;

export interface AnsweredRecord {
  record: RecordRow;
  schedule: RecordSchedule;
}

/** The answer `fn` gives to the caller's own booking, under its schedule's lock. */
const ownRecordUnderLock = (
  database: Database,
  recordId: number,
  telegramId: number,
  fn: (trx: Executor, r: RecordRow, s: RecordSchedule) => Promise<RecordRow>,
): Promise<AnsweredRecord> =>
  withOwnRecord(database, recordId, telegramId, async (trx, r, schedule) => ({
    record: await fn(trx, r, schedule),
    schedule,
  }));

/** "Приду": records when the customer confirmed (once; pressing again changes nothing). */
export function confirmComing(database: Database, recordId: number, telegramId: number): Promise<AnsweredRecord> {
  return ownRecordUnderLock(database, recordId, telegramId, async (trx, r, schedule) => {
    if (schedule.date <= nowIso()) throw new Conflict(ANSWER_MSG.started);
    if (r.state !== 'ACTIVE') throw new Conflict(ANSWER_MSG.notActive);
    if (r.confirmed_at) return r;
    const updated = await setRecordResponse(trx, r.id, { confirmed_at: nowIso() });
    await writeAudit(trx, {
      actor: customerActor(telegramId),
      entity: 'record',
      entity_id: r.id,
      action: 'confirmed',
      after: { confirmed_at: updated.confirmed_at },
    });
    return updated;
  });
}

/** The 1–5 rating after the class; a later press replaces it. */
export function rateClass(
  database: Database,
  recordId: number,
  telegramId: number,
  rating: number,
): Promise<AnsweredRecord> {
  return ownRecordUnderLock(database, recordId, telegramId, async (trx, r, schedule) => {
    if (!Number.isInteger(rating) || rating < 1 || rating > 5) throw new Conflict('Оценка: от 1 до 5');
    if (schedule.date > nowIso()) throw new Conflict(ANSWER_MSG.notYet);
    if (r.state !== 'ACTIVE') throw new Conflict(ANSWER_MSG.notAttended);
    return setRecordResponse(trx, r.id, { rating });
  });
}
