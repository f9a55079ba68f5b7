import type { ScheduleCreate, ScheduleUpdate } from '../../contract';
import { isPast } from '../../contract/format';
import type { Database, Executor } from '../../db/database';
import { withLocks, withWriteTransaction } from '../../db/lock';
import { listRecordsOfSchedules } from '../../db/repositories/records';
import { listPaymentsOfRecords } from '../../db/repositories/payments';
import {
  deleteSchedule,
  getSchedule,
  insertSchedule,
  listSeriesFrom,
  updateSchedule,
} from '../../db/repositories/schedules';
import { getWorkshop } from '../../db/repositories/workshops';
import { getAddress } from '../../db/repositories/addresses';
import type { Actor } from '../kernel/actor';
import { Conflict, NotFound, type RefusalRef } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import { newDatesMessages } from '../journey/date-subscriptions';
import type { DomainEvent, ScheduleFields } from '../kernel/events';
import { publish } from '../notify/publish';
import { fill, loadSchedule } from '../booking/engine';
import { getBusinessSettings } from '../kernel/settings';
import { cancelRefusal } from './cancel-session';

/* Staff's schedule changes: add (subscribers to new dates are told), edit (a larger capacity serves the queue), delete. */

export const SCHEDULE_MSG = {
  hasBookings: (bookings: number): RefusalRef => ({ code: 'sessionHasBookings', args: { count: bookings } }),
  /** A past or cancelled session cannot be cancelled instead: it stays in history. */
  keptInHistory: (bookings: number): RefusalRef => ({ code: 'sessionKeptInHistory', args: { count: bookings } }),
};

/**
 * Why a session cannot be deleted, or null: a booking still open (active or queued) or any money on a booking's
 * ledger (`ledgerRows`). An upcoming session is cancelled instead; a past or cancelled one stays in history.
 */
export function deleteRefusal(
  schedule: { date: string; cancelled_at: string | null },
  bookings: readonly { state: string }[],
  ledgerRows: number,
): RefusalRef | null {
  const open = bookings.filter((r) => r.state !== 'CANCELLED').length;
  if (open === 0 && ledgerRows === 0) return null;
  const count = open || bookings.length;
  return cancelRefusal(schedule) ? SCHEDULE_MSG.keptInHistory(count) : SCHEDULE_MSG.hasBookings(count);
}

export async function assertRefsExist(trx: Executor, refs: { workshop_id?: number; address_id?: number }) {
  if (refs.workshop_id !== undefined && !(await getWorkshop(trx, refs.workshop_id)))
    throw new NotFound(MSG.workshopNotFound);
  if (refs.address_id !== undefined && !(await getAddress(trx, refs.address_id)))
    throw new NotFound(MSG.addressNotFound);
}

const openRecords = async (trx: Executor, scheduleId: number) =>
  (await listRecordsOfSchedules(trx, [scheduleId])).filter((r) => r.state !== 'CANCELLED');

/** The fields of a schedule its log entries show. */
const scheduleFields = (s: ScheduleFields): ScheduleFields => ({
  date: s.date,
  capacity: s.capacity,
  workshop_id: s.workshop_id,
  address_id: s.address_id,
});

export async function addSchedule(database: Database, actor: Actor, input: ScheduleCreate): Promise<number> {
  return withWriteTransaction(database, async (trx) => {
    await assertRefsExist(trx, input);
    const values = {
      date: new Date(input.date).toISOString(),
      capacity: input.capacity ?? 8,
      workshop_id: input.workshop_id,
      address_id: input.address_id,
    };
    const { id } = await insertSchedule(trx, { ...values, min_people: input.min_people ?? null });
    const told = isPast(values.date) ? [] : await newDatesMessages(trx, id);
    await publish(trx, [...told, { type: 'schedule.created', actor, schedule_id: id, after: scheduleFields(values) }]);
    return id;
  });
}

/** Which sessions a change covers: this one, or this one and the later ones of its series. */
export type Scope = 'one' | 'following';

/**
 * A larger capacity serves the queue; a new date or address of an upcoming session is told to its
 * customers. With `following`, the later sessions of the series change too, in the same transaction:
 * the same capacity, workshop and address, and a new date moves each of them by the same shift.
 */
export async function editSchedule(
  database: Database,
  actor: Actor,
  id: number,
  patch: ScheduleUpdate,
  scope: Scope = 'one',
): Promise<void> {
  const ids = scope === 'following' ? await listSeriesFrom(database.db, id) : [id];
  await withLocks(database, { scheduleIds: ids }, async (trx) => {
    const first = await getSchedule(trx, id);
    if (!first) throw new NotFound(MSG.scheduleNotFound);
    const shift = patch.date ? new Date(patch.date).getTime() - new Date(first.date).getTime() : 0;
    for (const sid of ids) {
      const s = sid === id ? first : await getSchedule(trx, sid);
      if (!s) continue;
      const date = patch.date && new Date(new Date(s.date).getTime() + shift).toISOString();
      await publish(trx, await editLocked(trx, actor, sid, { ...patch, ...(date && { date }) }));
    }
  });
}

async function editLocked(trx: Executor, actor: Actor, id: number, patch: ScheduleUpdate): Promise<DomainEvent[]> {
  const before = await getSchedule(trx, id);
  if (!before) throw new NotFound(MSG.scheduleNotFound);
  if (before.cancelled_at) throw new Conflict(MSG.sessionCancelled);
  await assertRefsExist(trx, patch);
  const values = { ...patch, ...(patch.date && { date: new Date(patch.date).toISOString() }) };
  await updateSchedule(trx, id, values);
  const schedule = await loadSchedule(trx, id);
  const upcoming = !isPast(schedule.date);
  const changed = { date: schedule.date !== before.date, address: schedule.address.id !== before.address_id };
  const promoted =
    upcoming && schedule.capacity > before.capacity
      ? await fill(trx, schedule, await getBusinessSettings(trx), new Date())
      : [];
  const events: DomainEvent[] = [
    {
      type: 'schedule.updated',
      actor,
      before: scheduleFields(before),
      after: values,
      schedule,
      told: upcoming && (changed.date || changed.address) ? await openRecords(trx, id) : [],
      changed,
    },
    ...promoted,
  ];
  return events;
}

/**
 * A session goes only when nothing of anyone's is on it: a booking still open (active or queued) or any
 * money on a booking's ledger refuses the delete (409), and staff cancel the session instead, which keeps
 * the bookings with their money and tells each customer where it went. A refusal rather than a silent
 * cancel: a cancel needs a reason the customers read, and a DELETE that leaves the session would lie.
 * With `following`, the later sessions of its series go too, or none if any of them is refused.
 */
export async function removeSchedule(
  database: Database,
  actor: Actor,
  id: number,
  scope: Scope = 'one',
): Promise<void> {
  const ids = scope === 'following' ? await listSeriesFrom(database.db, id) : [id];
  await withLocks(database, { scheduleIds: ids.length ? ids : [id] }, async (trx) => {
    for (const sid of ids.length ? ids : [id]) {
      const before = await getSchedule(trx, sid);
      if (!before) throw new NotFound(MSG.scheduleNotFound);
      const bookings = await listRecordsOfSchedules(trx, [sid]);
      const money = await listPaymentsOfRecords(
        trx,
        bookings.map((r) => r.id),
      );
      const refused = deleteRefusal(before, bookings, money.length);
      if (refused) throw new Conflict(refused);
      await publish(trx, [{ type: 'schedule.deleted', actor, before: scheduleFields(before), schedule_id: sid }]);
      await deleteSchedule(trx, sid);
    }
  });
}
