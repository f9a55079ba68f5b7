import type { BusinessSettings, RecordAllowed, RecordSchedule } from '../../contract';
import type { Database, Executor } from '../../db/database';
import { withLocks, type LockKeys } from '../../db/lock';
import { getRecord, type RecordRow } from '../../db/repositories/records';
import { getRecordSchedule } from '../../db/repositories/schedules';
import type { Actor } from '../kernel/actor';
import { NotFound } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import type { Outcome } from '../kernel/events';
import { publish } from '../notify/publish';
import { getBusinessSettings } from '../kernel/settings';
import { assertHostMaySee } from '../kernel/roles';
import { allowedActions } from './allowed';

/*
 * How every command on one booking runs: in one transaction that first locks the booking's session,
 * the booking is read again under that lock and must be the caller's (a customer's own, or any for
 * staff and the system: anyone else is told it does not exist, as a missing one is), what the caller
 * may do is decided from that row, and the command's events are published before the commit. Nothing
 * checked outside the lock decides anything, so a booking handed to a friend a moment earlier is no
 * longer the giver's to cancel.
 */

export interface OnRecord {
  trx: Executor;
  actor: Actor;
  record: RecordRow;
  schedule: RecordSchedule;
  settings: BusinessSettings;
  allowed: RecordAllowed;
  now: Date;
}

/** Whether the actor may see and change this booking at all. */
export const mayAccess = (actor: Actor, r: Pick<RecordRow, 'telegram_id'>) =>
  actor.kind !== 'customer' || r.telegram_id === actor.telegram_id;

/**
 * The booking as the actor may see it, with its session; NotFound otherwise, Forbidden for a host outside
 * its days. Runs on any executor.
 */
export async function loadForActor(db: Executor, actor: Actor, recordId: number, now = new Date()): Promise<OnRecord> {
  const record = await getRecord(db, recordId);
  if (!record || !mayAccess(actor, record)) throw new NotFound(MSG.recordNotFound);
  const schedule = await getRecordSchedule(db, record.schedule_id);
  if (!schedule) throw new NotFound(MSG.scheduleNotFound);
  // A host reads and changes bookings of today's and tomorrow's sessions only.
  assertHostMaySee(actor, schedule.date);
  const settings = await getBusinessSettings(db);
  return {
    trx: db,
    actor,
    record,
    schedule,
    settings,
    allowed: allowedActions({ actor, record, schedule, settings, now }),
    now,
  };
}

/** Runs a command on one booking under its session's lock (and any further locks), publishing its events. */
export async function onRecord<T>(
  database: Database,
  actor: Actor,
  recordId: number,
  command: (c: OnRecord) => Promise<Outcome<T>>,
  more: LockKeys = {},
): Promise<T> {
  // Only to learn which session to lock: everything is read again under the lock.
  const ref = await getRecord(database.db, recordId);
  if (!ref || !mayAccess(actor, ref)) throw new NotFound(MSG.recordNotFound);
  const keys = { ...more, scheduleIds: [ref.schedule_id, ...(more.scheduleIds ?? [])] };
  return withLocks(database, keys, async (trx) => {
    const { value, events } = await command(await loadForActor(trx, actor, recordId));
    await publish(trx, events);
    return value;
  });
}
