import { sql } from 'kysely';
import type { Executor } from '../database';

const n = (v: number | string | null | undefined) => Number(v ?? 0);

/** Sessions dated in [from, to) with their bookings: what the dashboard adds up. */
export async function periodStats(db: Executor, from: string, to: string) {
  const inPeriod = db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .where('s.date', '>=', from)
    .where('s.date', '<', to)
    .where('s.cancelled_at', 'is', null);
  const attendedActive = sql`r.state = 'ACTIVE' and r.attendance = 'ATTENDED'`;
  const [sessions, totals, reasons, sources, queue] = await Promise.all([
    db
      .selectFrom('schedules')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.sum<number | string | null>('capacity').as('capacity'),
      ])
      .where('date', '>=', from)
      .where('date', '<', to)
      // A cancelled session counts in no fill rate.
      .where('cancelled_at', 'is', null)
      .executeTakeFirstOrThrow(),
    inPeriod
      .select((eb) => [
        eb.fn.countAll<number | string>().as('bookings'),
        sql<number | string | null>`sum(case when r.state = 'ACTIVE' then r.people_count else 0 end)`.as('seats_sold'),
        sql<number | string | null>`sum(case when r.state = 'CANCELLED' then 1 else 0 end)`.as('cancellations'),
        sql<number | string | null>`sum(case when ${attendedActive} then 1 else 0 end)`.as('attended'),
        sql<
          number | string | null
        >`sum(case when r.state = 'ACTIVE' and r.attendance = 'NO_SHOW' then 1 else 0 end)`.as('no_shows'),
        sql<number | string | null>`sum(case when r.state != 'CANCELLED' and r.is_first_time then 1 else 0 end)`.as(
          'first_timers',
        ),
        sql<number | string | null>`sum(case when ${attendedActive} then r.people_count * w.price else 0 end)`.as(
          'revenue',
        ),
        eb.fn.count<number | string>('r.rating').as('ratings'),
        eb.fn.avg<number | string | null>('r.rating').as('rating_avg'),
      ])
      .executeTakeFirstOrThrow(),
    inPeriod
      .select((eb) => ['r.cancel_reason', eb.fn.countAll<number | string>().as('n')])
      .where('r.state', '=', 'CANCELLED')
      .groupBy('r.cancel_reason')
      .orderBy('n', 'desc')
      .limit(10)
      .execute(),
    inPeriod
      .select((eb) => [
        'r.source',
        eb.fn.countAll<number | string>().as('bookings'),
        sql<number | string | null>`sum(case when ${attendedActive} then 1 else 0 end)`.as('attended'),
      ])
      .where('r.state', '!=', 'CANCELLED')
      .groupBy('r.source')
      .orderBy('bookings', 'desc')
      .execute(),
    inPeriod
      .select((eb) => [
        'w.id',
        'w.title',
        eb.fn.countAll<number | string>().as('bookings'),
        eb.fn.sum<number | string | null>('r.people_count').as('people'),
      ])
      .where('r.state', '=', 'QUEUED')
      .groupBy(['w.id', 'w.title'])
      .orderBy('people', 'desc')
      .execute(),
  ]);
  return {
    schedules: n(sessions.n),
    capacity: n(sessions.capacity),
    bookings: n(totals.bookings),
    seats_sold: n(totals.seats_sold),
    cancellations: n(totals.cancellations),
    attended: n(totals.attended),
    no_shows: n(totals.no_shows),
    first_timers: n(totals.first_timers),
    revenue: n(totals.revenue),
    ratings: n(totals.ratings),
    rating_avg: totals.rating_avg === null ? null : Number(totals.rating_avg),
    cancel_reasons: reasons.map((r) => ({ reason: r.cancel_reason ?? '', count: n(r.n) })),
    sources: sources.map((r) => ({ source: r.source, bookings: n(r.bookings), attended: n(r.attended) })),
    queue_demand: queue.map((r) => ({
      workshop_id: r.id,
      title: r.title,
      bookings: n(r.bookings),
      people: n(r.people),
    })),
  };
}

/** Bookings made in [from, to), whatever their session's date: how many and for how many people, queued ones included. */
export async function bookingsMade(db: Executor, from: string, to: string) {
  const row = await db
    .selectFrom('records')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string | null>('people_count').as('people'),
    ])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow();
  return { bookings: n(row.n), people: n(row.people) };
}

/** Sessions dated in (from, to], each with seats taken and people queued. */
export async function upcomingFill(db: Executor, from: string, to: string) {
  const rows = await db
    .selectFrom('schedules as s')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .select([
      's.id',
      's.date',
      's.capacity',
      'w.title',
      (eb) =>
        eb
          .selectFrom('records as r')
          .select((e) => e.fn.sum<number | string | null>('r.people_count').as('n'))
          .whereRef('r.schedule_id', '=', 's.id')
          .where('r.state', '=', 'ACTIVE')
          .as('taken'),
      (eb) =>
        eb
          .selectFrom('records as r')
          .select((e) => e.fn.sum<number | string | null>('r.people_count').as('n'))
          .whereRef('r.schedule_id', '=', 's.id')
          .where('r.state', '=', 'QUEUED')
          .as('queued'),
    ])
    .where('s.date', '>', from)
    .where('s.date', '<=', to)
    .where('s.cancelled_at', 'is', null)
    .orderBy('s.date')
    .execute();
  return rows.map((r) => ({
    schedule_id: r.id,
    date: r.date,
    title: r.title,
    capacity: r.capacity,
    taken: n(r.taken),
    queued: n(r.queued),
  }));
}
