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
      's.id as schedule_id',
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

/**
 * A page of the bookings of the sessions dated in [from, to), by session date, then session and
 * booking: the `limit` rows that follow `after` (the last row of the previous page), so a long export
 * is read page by page without ever holding it whole.
 */
export function listBookingsPage(
  db: Executor,
  range: { from: string; to: string },
  after: Pick<ExportRow, 'date' | 'schedule_id' | 'id'> | null,
  limit: number,
) {
  let q = exportRows(db).where('s.date', '>=', range.from).where('s.date', '<', range.to);
  if (after)
    q = q.where((eb) =>
      eb(eb.refTuple('s.date', 's.id', 'r.id'), '>', eb.tuple(after.date, after.schedule_id, after.id)),
    );
  return q.orderBy('s.date').orderBy('s.id').orderBy('r.id').limit(limit).execute();
}

/** Every booking of the sessions dated in [from, to), in pages of `size` rows, one query each. */
export async function* bookingsInPages(db: Executor, range: { from: string; to: string }, size: number) {
  let after: ExportRow | null = null;
  for (;;) {
    const page: ExportRow[] = await listBookingsPage(db, range, after, size);
    yield page;
    if (page.length < size) return;
    after = page[page.length - 1];
  }
}
