import type { Executor } from '../database';

/** The columns a participants list or a bookings export needs: the booking, its session and workshop. */
const exportRows = (db: Executor) =>
  db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .select([
      'r.id',
      'r.state',
      'r.name',
      'r.last_name',
      'r.telegram_login',
      'r.telegram_id',
      'r.people_count',
      'r.has_allergy',
      'r.allergy_type',
      'r.comment',
      'r.is_first_time',
      'r.source',
      'r.confirmed_at',
      'r.attendance',
      's.date',
      'w.title as workshop_title',
    ]);

export type ExportRow = Awaited<ReturnType<ReturnType<typeof exportRows>['execute']>>[number];

/** A session's participants for the chef: ACTIVE first, then the queue in its order. */
export const listParticipants = (db: Executor, scheduleId: number) =>
  exportRows(db)
    .where('r.schedule_id', '=', scheduleId)
    .where('r.state', 'in', ['ACTIVE', 'QUEUED'])
    .orderBy((eb) => eb.case().when('r.state', '=', 'ACTIVE').then(0).else(1).end())
    .orderBy('r.queued_at')
    .orderBy('r.id')
    .execute();

/** Every booking of the sessions dated in [from, to), by session date. */
export function listBookingsBetween(db: Executor, range: { from?: string; to?: string }) {
  let q = exportRows(db);
  if (range.from) q = q.where('s.date', '>=', range.from);
  if (range.to) q = q.where('s.date', '<', range.to);
  return q.orderBy('s.date').orderBy('s.id').orderBy('r.id').execute();
}
