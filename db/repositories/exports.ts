import type { Executor } from '../database';

/** The columns a participants list or a bookings export needs: the booking, its session and workshop. */
const exportRows = (db: Executor) =>
  db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .leftJoin('customer_notes as n', 'n.telegram_id', 'r.telegram_id')
    .leftJoin('promo_codes as pc', 'pc.id', 'r.promo_code_id')
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
      'n.note',
      'r.unit_price',
      'r.price_override',
      'r.price_override_party',
      'r.discount',
      'pc.code as promo_code',
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
 * Every booking of the sessions dated in [from, to), by session date, then session and booking, read
 * `sessions` sessions at a time (the next ones after the last page's, by date and id, on the date
 * index), so a long export is never held whole.
 */
export async function* bookingsInPages(db: Executor, range: { from: string; to: string }, sessions: number) {
  let after: { date: string; id: number } | null = null;
  for (;;) {
    let q = db
      .selectFrom('schedules as s')
      .select(['s.id', 's.date'])
      .where('s.date', '>=', range.from)
      .where('s.date', '<', range.to);
    if (after) {
      const { date, id } = after;
      q = q.where((eb) => eb(eb.refTuple('s.date', 's.id'), '>', eb.tuple(date, id)));
    }
    const page = await q.orderBy('s.date').orderBy('s.id').limit(sessions).execute();
    if (page.length === 0) return;
    yield await exportRows(db)
      .where(
        'r.schedule_id',
        'in',
        page.map((p) => p.id),
      )
      .orderBy('s.date')
      .orderBy('s.id')
      .orderBy('r.id')
      .execute();
    if (page.length < sessions) return;
    after = page[page.length - 1];
  }
}
