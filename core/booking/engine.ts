import type { RecordCreate, RecordSchedule } from '../../contract';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withScheduleLock } from '../../db/lock';
import {
  findOpenBooking,
  getRecord,
  insertRecord,
  listQueue,
  queuePosition,
  takenSeats,
  updateRecord,
  type RecordRow,
} from '../../db/repositories/records';
import { getRecordSchedule, placesAvailable } from '../../db/repositories/schedules';
import { closeSeatGifts } from '../../db/repositories/seat-gifts';
import { Conflict, NotFound } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import { assertCustomerMayChange, changeDeadline } from './change-deadline';
import { getBusinessSettings } from '../staff/business-settings';
import { consentFor } from './consent';
import { SYSTEM, customerActor, writeAudit, type Actor } from '../notify/audit';
import {
  notifyCustomer,
  notifyStaff,
  recordSnapshot,
  scheduleSnapshot,
  type RecordPayload,
} from '../notify/notifications';

/*
 * The booking engine: the one place that decides a booking's state.
 * Seats taken = people on ACTIVE records; a booking is ACTIVE when it fits the seats left,
 * else QUEUED. Whatever can free seats ends with fill(), which walks the queue in order and
 * promotes every record that fits. Every change runs under the schedule's lock, and writes
 * its notifications to the outbox in the same transaction.
 */

export interface Customer {
  telegram_id: number | null;
  telegram_login: string | null;
}

export interface RecordResult {
  record: RecordRow;
  schedule: RecordSchedule;
  places_available: number;
  queue_position: number | null;
  /** The last moment the customer may change the booking (the business's change deadline), null: until the start. */
  change_until: string | null;
  /** How to reach the studio, shown when a change is refused. */
  contact: string;
}

export const isPast = (date: string, now = nowIso()) => date <= now;

/** The fields of a booking its log entries show. */
const bookingState = (r: RecordRow) => ({
  state: r.state,
  people_count: r.people_count,
  ...(r.cancel_reason !== null && { cancel_reason: r.cancel_reason }),
});

export async function loadSchedule(trx: Executor, scheduleId: number): Promise<RecordSchedule> {
  const schedule = await getRecordSchedule(trx, scheduleId);
  if (!schedule) throw new NotFound(MSG.scheduleNotFound);
  return schedule;
}

async function freeSeats(trx: Executor, schedule: { id: number; capacity: number }) {
  return placesAvailable(schedule.capacity, await takenSeats(trx, schedule.id));
}

async function positionOf(trx: Executor, r: RecordRow) {
  return r.state === 'QUEUED' ? queuePosition(trx, r) : null;
}

async function result(trx: Executor, record: RecordRow, schedule: RecordSchedule): Promise<RecordResult> {
  const settings = await getBusinessSettings(trx);
  return {
    record,
    schedule,
    places_available: await freeSeats(trx, schedule),
    queue_position: await positionOf(trx, record),
    change_until: changeDeadline(schedule.date, settings.change_deadline_hours),
    contact: settings.contact,
  };
}

/** A record as its booking page shows it: its schedule, the seats left and its place in the queue. */
export async function viewRecord(db: Executor, record: RecordRow): Promise<RecordResult> {
  return result(db, record, await loadSchedule(db, record.schedule_id));
}

/** What the customer and staff are told about `r`, as it is now. */
export async function payloadOf(trx: Executor, r: RecordRow, schedule: RecordSchedule): Promise<RecordPayload> {
  return { schedule: scheduleSnapshot(schedule), record: recordSnapshot(r, await positionOf(trx, r)) };
}

/** Promotes queued records, in queue order, while they fit; a party too large keeps its place. */
export async function fill(trx: Executor, schedule: RecordSchedule, skipNotifyId?: number): Promise<number[]> {
  let free = await freeSeats(trx, schedule);
  const promoted: number[] = [];
  for (const q of await listQueue(trx, schedule.id)) {
    if (free <= 0) break;
    if (q.people_count > free) continue;
    const r = await updateRecord(trx, q.id, { state: 'ACTIVE', queued_at: null });
    free -= q.people_count;
    promoted.push(q.id);
    // Promotion is the engine's own doing, whoever freed the seats.
    await writeAudit(trx, {
      actor: SYSTEM,
      entity: 'record',
      entity_id: q.id,
      action: 'promoted',
      before: bookingState(q),
      after: bookingState(r),
    });
    if (q.id !== skipNotifyId)
      await notifyCustomer(trx, r, { kind: 'record.promoted', payload: await payloadOf(trx, r, schedule) });
  }
  return promoted;
}

/** `actor` defaults to the customer the booking is for (staff pass themselves when booking on a customer's behalf). */
export async function createRecord(
  database: Database,
  input: RecordCreate,
  customer: Customer,
  actor: Actor = customerActor(customer.telegram_id),
): Promise<RecordResult> {
  return withScheduleLock(database, input.schedule_id, async (trx) => {
    const schedule = await loadSchedule(trx, input.schedule_id);
    if (isPast(schedule.date)) throw new Conflict(MSG.pastBooking);
    if (customer.telegram_id != null && (await findOpenBooking(trx, schedule.id, customer.telegram_id)))
      throw new Conflict(MSG.alreadyBooked);
    const people = input.people_count ?? 1;
    const consent = await consentFor(trx, input.consent, actor.kind === 'customer');
    const record = await insertRecord(trx, {
      ...consent,
      schedule_id: schedule.id,
      state: people <= (await freeSeats(trx, schedule)) ? 'ACTIVE' : 'QUEUED',
      name: input.name,
      last_name: input.last_name ?? null,
      people_count: people,
      telegram_id: customer.telegram_id,
      telegram_login: customer.telegram_login,
      comment: input.comment ?? null,
      has_allergy: input.has_allergy ?? false,
      allergy_type: input.has_allergy ? (input.allergy_type ?? null) : null,
      source: input.source ?? null,
      is_first_time: input.is_first_time,
    });
    await writeAudit(trx, {
      actor,
      entity: 'record',
      entity_id: record.id,
      action: 'created',
      after: { ...bookingState(record), schedule_id: record.schedule_id, name: record.name },
    });
    const payload = await payloadOf(trx, record, schedule);
    await notifyCustomer(trx, record, { kind: record.state === 'ACTIVE' ? 'record.booked' : 'record.queued', payload });
    await notifyStaff(trx, { kind: 'staff.new_record', payload });
    return result(trx, record, schedule);
  });
}

/** The record a change is about, as the caller read it to check who owns it: its schedule is locked,
 * then the record is read again under the lock. */
export type RecordRef = Pick<RecordRow, 'id' | 'schedule_id'>;

/** Runs `change` on a record of a future schedule, under its schedule's lock. */
async function changeRecord(
  database: Database,
  ref: RecordRef,
  actor: Actor,
  change: (trx: Executor, r: RecordRow, schedule: RecordSchedule) => Promise<RecordRow>,
): Promise<RecordResult> {
  return withScheduleLock(database, ref.schedule_id, async (trx) => {
    const r = await getRecord(trx, ref.id);
    if (!r) throw new NotFound(MSG.recordNotFound);
    const schedule = await loadSchedule(trx, r.schedule_id);
    if (isPast(schedule.date)) throw new Conflict(MSG.past);
    await assertCustomerMayChange(trx, actor, schedule.date);
    const updated = await change(trx, r, schedule);
    return result(trx, updated, schedule);
  });
}

export function changePeopleCount(
  database: Database,
  record: RecordRef,
  peopleCount: number,
  actor: Actor = SYSTEM,
): Promise<RecordResult> {
  return changeRecord(database, record, actor, async (trx, r, schedule) => {
    if (r.state === 'CANCELLED') throw new Conflict(MSG.cancelled);
    if (peopleCount === r.people_count) return r;
    let updated: RecordRow;
    if (r.state === 'ACTIVE') {
      const increase = peopleCount - r.people_count;
      const fits = increase <= (await freeSeats(trx, schedule));
      updated = await updateRecord(
        trx,
        r.id,
        fits ? { people_count: peopleCount } : { people_count: peopleCount, state: 'QUEUED', queued_at: nowIso() },
      );
    } else {
      updated = await updateRecord(trx, r.id, { people_count: peopleCount });
    }
    await writeAudit(trx, {
      actor,
      entity: 'record',
      entity_id: r.id,
      action: 'people_changed',
      before: bookingState(r),
      after: bookingState(updated),
    });
    // A smaller party, or seats left behind on the way to the queue, can serve the queue;
    // this record itself may be promoted, and then its one message says so.
    const promoted = await fill(trx, schedule, r.id);
    if (promoted.includes(r.id)) updated = (await getRecord(trx, r.id)) ?? updated;
    const payload = { ...(await payloadOf(trx, updated, schedule)), previous_people_count: r.people_count };
    await notifyCustomer(trx, updated, { kind: 'record.people_changed', payload });
    return updated;
  });
}

export function cancelRecord(
  database: Database,
  record: RecordRef,
  reason: string,
  actor: Actor = SYSTEM,
): Promise<RecordResult> {
  return changeRecord(database, record, actor, async (trx, r, schedule) => {
    if (r.state === 'CANCELLED') throw new Conflict(MSG.alreadyCancelled);
    const updated = await updateRecord(trx, r.id, { state: 'CANCELLED', cancel_reason: reason, queued_at: null });
    // A cancelled booking can no longer be given to a friend, even once restored.
    await closeSeatGifts(trx, r.id, nowIso());
    await writeAudit(trx, {
      actor,
      entity: 'record',
      entity_id: r.id,
      action: 'cancelled',
      before: bookingState(r),
      after: bookingState(updated),
    });
    if (r.state === 'ACTIVE') await fill(trx, schedule);
    const payload = await payloadOf(trx, updated, schedule);
    await notifyCustomer(trx, updated, { kind: 'record.cancelled', payload });
    await notifyStaff(trx, { kind: 'staff.cancelled', payload });
    return updated;
  });
}

export function restoreRecord(database: Database, record: RecordRef, actor: Actor = SYSTEM): Promise<RecordResult> {
  return changeRecord(database, record, actor, async (trx, r, schedule) => {
    if (r.state !== 'CANCELLED') throw new Conflict(MSG.notCancelled);
    if (r.telegram_id != null && (await findOpenBooking(trx, schedule.id, r.telegram_id, r.id)))
      throw new Conflict(MSG.alreadyBooked);
    const fits = r.people_count <= (await freeSeats(trx, schedule));
    const updated = await updateRecord(
      trx,
      r.id,
      fits ? { state: 'ACTIVE', cancel_reason: null } : { state: 'QUEUED', cancel_reason: null, queued_at: nowIso() },
    );
    await writeAudit(trx, {
      actor,
      entity: 'record',
      entity_id: r.id,
      action: 'restored',
      before: bookingState(r),
      after: bookingState(updated),
    });
    await notifyCustomer(trx, updated, { kind: 'record.restored', payload: await payloadOf(trx, updated, schedule) });
    return updated;
  });
}
