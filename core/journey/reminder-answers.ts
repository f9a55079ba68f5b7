import type { RecordSchedule } from '../../contract';
import { nowIso, type Database } from '../../db/database';
import { setRecordResponse, type RecordRow } from '../../db/repositories/records';
import type { Actor } from '../kernel/actor';
import { Conflict } from '../kernel/errors';
import { assertAllowed } from '../booking/allowed';
import { onRecord } from '../booking/command';

/*
 * The customer's answers from Telegram: "Приду" on a reminder and the 1–5 rating after the class.
 * Only the booking's own Telegram user may answer; anyone else is told the booking does not exist.
 */

export interface AnsweredRecord {
  record: RecordRow;
  schedule: RecordSchedule;
}

/** "Приду": records when the customer confirmed (once; pressing again changes nothing). */
export function confirmComing(database: Database, actor: Actor, recordId: number): Promise<AnsweredRecord> {
  return onRecord(database, actor, recordId, async (c) => {
    const { trx, record: r, schedule } = c;
    assertAllowed(c.allowed, 'confirm');
    if (r.confirmed_at) return { value: { record: r, schedule }, events: [] };
    const record = await setRecordResponse(trx, r.id, { confirmed_at: nowIso() });
    return { value: { record, schedule }, events: [{ type: 'record.confirmed', actor, before: r, record, schedule }] };
  });
}

/** The 1–5 rating after the class; a later press replaces it. */
export function rateClass(database: Database, actor: Actor, recordId: number, rating: number): Promise<AnsweredRecord> {
  return onRecord(database, actor, recordId, async (c) => {
    if (!Number.isInteger(rating) || rating < 1 || rating > 5) throw new Conflict('ratingRange');
    assertAllowed(c.allowed, 'rate');
    return {
      value: { record: await setRecordResponse(c.trx, c.record.id, { rating }), schedule: c.schedule },
      events: [],
    };
  });
}
