import type { ScheduleCreate, ScheduleUpdate } from '../../contract';
import type { Database, Executor } from '../../db/database';
import { withScheduleLock, withWriteTransaction } from '../../db/lock';
import { listRecordsOfSchedules } from '../../db/repositories/records';
import { deleteSchedule, getSchedule, insertSchedule, updateSchedule } from '../../db/repositories/schedules';
import { getWorkshop } from '../../db/repositories/workshops';
import { getAddress } from '../../db/repositories/addresses';
import { NotFound } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import { notifyDateSubscribers } from '../journey/date-subscriptions';
import { SYSTEM, auditUpdate, writeAudit, type Actor } from '../notify/audit';
import { notifyCustomer } from '../notify/notifications';
import { fill, isPast, loadSchedule, payloadOf } from '../booking/engine';

/* Staff's schedule changes: add, edit (a larger capacity serves the queue), delete. */

/** Staff edit of a schedule: a larger capacity serves the queue; a new date or address is told to its customers. */
export async function editSchedule(
  database: Database,
  id: number,
  patch: ScheduleUpdate,
  actor: Actor = SYSTEM,
): Promise<void> {
  await withScheduleLock(database, id, async (trx) => {
    const before = await getSchedule(trx, id);
    if (!before) throw new NotFound(MSG.scheduleNotFound);
    await assertRefsExist(trx, patch);
    const values = { ...patch, ...(patch.date && { date: new Date(patch.date).toISOString() }) };
    await updateSchedule(trx, id, values);
    await auditUpdate(trx, actor, 'schedule', id, scheduleFields(before), values);
    const schedule = await loadSchedule(trx, id);
    if (isPast(schedule.date)) return;
    if (schedule.capacity > before.capacity) await fill(trx, schedule);
    const changed = { date: schedule.date !== before.date, address: schedule.address.id !== before.address_id };
    if (changed.date || changed.address) {
      for (const r of await openRecords(trx, id)) {
        await notifyCustomer(trx, r, {
          kind: 'schedule.changed',
          payload: { ...(await payloadOf(trx, r, schedule)), changed },
        });
      }
    }
  });
}

/** Staff delete of a schedule: its customers of an upcoming schedule are told, then it goes with its bookings. */
export async function removeSchedule(database: Database, id: number, actor: Actor = SYSTEM): Promise<void> {
  await withScheduleLock(database, id, async (trx) => {
    const schedule = await loadSchedule(trx, id);
    if (!isPast(schedule.date)) {
      for (const r of await openRecords(trx, id))
        await notifyCustomer(trx, r, { kind: 'schedule.deleted', payload: await payloadOf(trx, r, schedule) });
    }
    const before = await getSchedule(trx, id);
    if (before)
      await writeAudit(trx, {
        actor,
        entity: 'schedule',
        entity_id: id,
        action: 'deleted',
        before: scheduleFields(before),
      });
    await deleteSchedule(trx, id);
  });
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
const scheduleFields = (s: { date: string; capacity: number; workshop_id: number; address_id: number }) => ({
  date: s.date,
  capacity: s.capacity,
  workshop_id: s.workshop_id,
  address_id: s.address_id,
});

export async function addSchedule(database: Database, input: ScheduleCreate, actor: Actor = SYSTEM): Promise<number> {
  return withWriteTransaction(database, async (trx) => {
    await assertRefsExist(trx, input);
    const values = {
      date: new Date(input.date).toISOString(),
      capacity: input.capacity ?? 8,
      workshop_id: input.workshop_id,
      address_id: input.address_id,
    };
    const { id } = await insertSchedule(trx, values);
    if (new Date(values.date).getTime() > Date.now()) await notifyDateSubscribers(trx, id);
    await writeAudit(trx, {
      actor,
      entity: 'schedule',
      entity_id: id,
      action: 'created',
      after: scheduleFields(values),
    });
    return id;
  });
}
