import type { Stats } from '../../contract';
import type { Executor } from '../../db/database';
import { bookingsMade, periodStats, upcomingFill } from '../../db/repositories/stats';
import { moneyDue, netReceived } from '../../db/repositories/payments';
import { promoCodeFigures } from '../../db/repositories/promo-codes';
import { refundsOwed } from '../payments/cash-desk';

const DAY_MS = 86_400_000;
/** Without a period the dashboard shows the last 30 days. */
export const DEFAULT_PERIOD_DAYS = 30;

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * The dashboard's figures, each on its own basis: sessions dated in [from, to) and their bookings; bookings made
 * and money received in [from, to); refunds owed as of now; the next 7 days from `now`.
 */
export async function dashboardStats(
  db: Executor,
  range: { from?: string; to?: string },
  now = Date.now(),
): Promise<Stats> {
  const to = range.to ?? new Date(now).toISOString();
  const from = range.from ?? new Date(Date.parse(to) - DEFAULT_PERIOD_DAYS * DAY_MS).toISOString();
  const [p, made, next, revenue, due, owed, promo] = await Promise.all([
    periodStats(db, from, to),
    bookingsMade(db, from, to),
    upcomingFill(db, new Date(now).toISOString(), new Date(now + 7 * DAY_MS).toISOString()),
    netReceived(db, from, to),
    moneyDue(db, from, to),
    refundsOwed(db),
    promoCodeFigures(db, from, to),
  ]);
  return {
    from,
    to,
    schedules: p.schedules,
    capacity: p.capacity,
    seats_sold: p.seats_sold,
    fill_rate: ratio(p.seats_sold, p.capacity),
    bookings: p.bookings,
    bookings_made: made.bookings,
    people_made: made.people,
    cancellations: p.cancellations,
    cancel_reasons: p.cancel_reasons,
    attended: p.attended,
    no_shows: p.no_shows,
    no_show_rate: ratio(p.no_shows, p.attended + p.no_shows),
    first_timers: p.first_timers,
    sources: p.sources,
    revenue_estimate: p.revenue,
    revenue,
    money_due: due,
    refunds_owed: owed,
    queue_demand: p.queue_demand,
    ratings: { count: p.ratings, average: p.rating_avg },
    next_days: next,
    promo_codes: promo,
  };
}
