import { z } from './zod';
import { DateRange } from './paging';

export const StatsQuery = DateRange;
export type StatsQuery = z.input<typeof StatsQuery>;

const count = z.number().int();

/**
 * What the dashboard shows: the period's sessions (whose date falls in it) and their bookings; the bookings made
 * and the money received in the period, whatever the session's date; refunds owed now; the coming week.
 */
export const Stats = z.object({
  from: z.string(),
  to: z.string(),
  schedules: count,
  capacity: count,
  seats_sold: count,
  /** seats_sold / capacity, 0..1; null without capacity. */
  fill_rate: z.number().nullable(),
  /** Bookings of the period's sessions (whenever they were made). */
  bookings: count,
  /** Bookings made in the period, for any session (queued ones included), and their people. */
  bookings_made: count,
  people_made: count,
  cancellations: count,
  cancel_reasons: z.array(z.object({ reason: z.string(), count })),
  attended: count,
  no_shows: count,
  /** no-shows / marked ACTIVE bookings; null when none is marked. */
  no_show_rate: z.number().nullable(),
  first_timers: count,
  sources: z.array(z.object({ source: z.string().nullable(), bookings: count, attended: count })),
  /** Price × people who attended. */
  revenue_estimate: count,
  /** Money received minus refunds paid out in the period (the ledger; credit moves are not money in or out). */
  revenue: count,
  /** What ACTIVE bookings of the period's sessions still owe. */
  money_due: count,
  /** What the studio owes back to customers now (paid beyond what bookings cost, erased customers' credit). */
  refunds_owed: count,
  queue_demand: z.array(z.object({ workshop_id: count, title: z.string(), bookings: count, people: count })),
  ratings: z.object({ count, average: z.number().nullable() }),
  next_days: z.array(
    z.object({
      schedule_id: count,
      date: z.string(),
      title: z.string(),
      capacity: count,
      taken: count,
      queued: count,
    }),
  ),
  /** Per promo code, the period's bookings made with it that are not cancelled: their people, price after the discount, and the discounts. */
  promo_codes: z
    .array(
      z.object({
        promo_code_id: count,
        code: z.string(),
        bookings: count,
        people: count,
        revenue: count,
        discount: count,
      }),
    )
    .optional(),
});
export type Stats = z.infer<typeof Stats>;
