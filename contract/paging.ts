import { z } from './zod';

/** A page of a long list: `count` in the answer is the total, `skip`/`limit` pick the page. */
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;

export const PageQuery = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT),
});

/** A day ('2026-11-01') or an instant with its offset. */
const Bound = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'Укажите дату: ГГГГ-ММ-ДД' });

/** `from` is inclusive; `to` is exclusive, except a bare day, which includes that whole day (UTC). */
export const DateRange = z.object({ from: Bound.optional(), to: Bound.optional() });
export type DateRange = z.infer<typeof DateRange>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A range's bounds as ISO instants for comparing with stored UTC timestamps. */
export function rangeBounds(r: DateRange): { from?: string; to?: string } {
  const from = r.from && new Date(DAY.test(r.from) ? `${r.from}T00:00:00Z` : r.from).toISOString();
  let to: string | undefined;
  if (r.to) {
    const t = new Date(DAY.test(r.to) ? `${r.to}T00:00:00Z` : r.to);
    if (DAY.test(r.to)) t.setUTCDate(t.getUTCDate() + 1);
    to = t.toISOString();
  }
  return { from, to };
}

/** Session lists (upcoming and past): a page, a date range and one workshop. */
export const ScheduleListQuery = PageQuery.extend(DateRange.shape).extend({
  workshop_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type ScheduleListQuery = z.input<typeof ScheduleListQuery>;
