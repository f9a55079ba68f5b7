import type { Stats } from '../../contract';
import type { Executor } from '../../db/database';
import { periodStats, upcomingFill } from '../../db/repositories/stats';
import { moneyDue, netReceived } from '../../db/repositories/payments';
import { promoCodeFigures } from '../../db/repositories/promo-codes';

const DAY_MS = 86_400_000;
/** Without a period the dashboard shows the last 30 days. */
export const DEFAULT_PERIOD_DAYS = 30;

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** The dashboard's figures for sessions dated in [from, to), and the next 7 days from `now`. */
export async function dashboardStats(
  db: Executor,
  range: { from?: string; to?: string },
  now = Date.now(),
): Promise<Stats> {
  const to = range.to ?? new Date(now).toISOString();
  const from = range.from ?? new Date(Date.parse(to) - DEFAULT_PERIOD_DAYS * DAY_MS).toISOString();
  const [p, next, revenue, due, promo] = await Promise.all([
    periodStats(db, from, to),
    upcomingFill(db, new Date(now).toISOString(), new Date(now + 7 * DAY_MS).toISOString()),
    netReceived(db, from, to),
    moneyDue(db, from, to),
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
    queue_demand: p.queue_demand,
    ratings: { count: p.ratings, average: p.rating_avg },
    next_days: next,
    promo_codes: promo,
  };
}
