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

/** The longest period one bookings export covers; without dates it ends a month from now. */
export const EXPORT_MAX_DAYS = 400;
export const EXPORT_TOO_LONG = `Выгрузка — не больше ${EXPORT_MAX_DAYS} дней: выберите период короче`;
export const CASH_DESK_TOO_LONG = `Касса показывает не больше ${EXPORT_MAX_DAYS} дней за раз: выберите период короче`;

/** An export's bounds: a missing end is EXPORT_MAX_DAYS after the start (and the reverse); null when longer. */
export function exportBounds(r: DateRange, timeZone: string, now = Date.now()): { from: string; to: string } | null {
  const DAY_MS = 86_400_000;
  const span = EXPORT_MAX_DAYS * DAY_MS;
  const b = rangeBounds(r, timeZone);
  const iso = (ms: number) => new Date(ms).toISOString();
  const to = b.to ?? iso(b.from ? Date.parse(b.from) + span : now + 30 * DAY_MS);
  const from = b.from ?? iso(Date.parse(to) - span);
  // Whole days, so a daylight-saving hour does not count.
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) <= EXPORT_MAX_DAYS ? { from, to } : null;
}

/** Session lists (upcoming and past): a page, a date range and one workshop. */
export const ScheduleListQuery = PageQuery.extend(DateRange.shape).extend({
  workshop_id: idParam.optional(),
});
export type ScheduleListQuery = z.input<typeof ScheduleListQuery>;
