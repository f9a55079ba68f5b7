import { z } from './zod';
import { startOfStudioDay } from './format';
import { idParam } from './common';

/** A page of a long list: `count` in the answer is the total, `skip`/`limit` pick the page. */
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;

export const PageQuery = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT),
});

/** The years a date filter may name: no booking lies outside them, and the zone conversion misreads years beyond them. */
export const FILTER_YEARS = { min: 1900, max: 2999 } as const;

/** A day ('2026-11-01') or an instant with its offset, in FILTER_YEARS. */
const Bound = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'Укажите дату: ГГГГ-ММ-ДД' })
  .refine((s) => Number(s.slice(0, 4)) >= FILTER_YEARS.min && Number(s.slice(0, 4)) <= FILTER_YEARS.max, {
    message: `Укажите дату с ${FILTER_YEARS.min} по ${FILTER_YEARS.max} год`,
  });

/** `from` is inclusive; `to` is exclusive, except a bare day, which includes that whole day in the business time zone. */
export const DateRange = z.object({ from: Bound.optional(), to: Bound.optional() });
export type DateRange = z.infer<typeof DateRange>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A range's bounds as ISO instants for comparing with stored UTC timestamps; a bare day is the studio's day. */
export function rangeBounds(r: DateRange, timeZone: string): { from?: string; to?: string } {
  const bound = (b: string | undefined, plusDays: number) =>
    b && (DAY.test(b) ? startOfStudioDay(b, timeZone, plusDays) : new Date(b).toISOString());
  return { from: bound(r.from, 0), to: bound(r.to, 1) };
}

/** Session lists (upcoming and past): a page, a date range and one workshop. */
export const ScheduleListQuery = PageQuery.extend(DateRange.shape).extend({
  workshop_id: idParam.optional(),
});
export type ScheduleListQuery = z.input<typeof ScheduleListQuery>;
