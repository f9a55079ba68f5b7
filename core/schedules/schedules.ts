import type { ScheduleCreate, ScheduleUpdate } from '../../contract';
import { isPast } from '../../contract/format';
import type { Database, Executor } from '../../db/database';
import { withScheduleLock, withWriteTransaction } from '../../db/lock';
import { listRecordsOfSchedules } from '../../db/repositories/records';
import { deleteSchedule, getSchedule, insertSchedule, updateSchedule } from '../../db/repositories/schedules';
import { getWorkshop } from '../../db/repositories/workshops';
import { getAddress } from '../../db/repositories/addresses';
import type { Actor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import { newDatesMessages } from '../journey/date-subscriptions';
import type { DomainEvent, ScheduleFields } from '../notify/events';
import { publish } from '../notify/publish';
import { fill, loadSchedule } from '../booking/engine';

/* Staff's schedule changes: add (subscribers to new dates are told), edit (a larger capacity serves the queue), delete. */

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
    const { id } = await insertSchedule(trx, values);
    const told = isPast(values.date) ? [] : await newDatesMessages(trx, id);
    await publish(trx, [...told, { type: 'schedule.created', actor, schedule_id: id, after: scheduleFields(values) }]);
    return id;
  });
}

/** A larger capacity serves the queue; a new date or address of an upcoming session is told to its customers. */
export async function editSchedule(database: Database, actor: Actor, id: number, patch: ScheduleUpdate): Promise<void> {
  await withScheduleLock(database, id, async (trx) => {
    const before = await getSchedule(trx, id);
    if (!before) throw new NotFound(MSG.scheduleNotFound);
    if (before.cancelled_at) throw new Conflict(MSG.sessionCancelled);
    await assertRefsExist(trx, patch);
    const values = { ...patch, ...(patch.date && { date: new Date(patch.date).toISOString() }) };
    await updateSchedule(trx, id, values);
    const schedule = await loadSchedule(trx, id);
    const upcoming = !isPast(schedule.date);
    const changed = { date: schedule.date !== before.date, address: schedule.address.id !== before.address_id };
    const promoted = upcoming && schedule.capacity > before.capacity ? await fill(trx, schedule) : [];
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
    await publish(trx, events);
  });
}

/** Its customers of an upcoming session are told, then it goes with its bookings. */
export async function removeSchedule(database: Database, actor: Actor, id: number): Promise<void> {
  await withScheduleLock(database, id, async (trx) => {
    const schedule = await loadSchedule(trx, id);
    const before = (await getSchedule(trx, id))!;
    const told = isPast(schedule.date) ? [] : await openRecords(trx, id);
    await publish(trx, [{ type: 'schedule.deleted', actor, before: scheduleFields(before), schedule, told }]);
    await deleteSchedule(trx, id);
  });
}
