import { SERIES_MAX_MONTHS, type ScheduleSeriesCreate } from './schedule';
import { fromZonedInput } from './format';

/** Why a series has no dates: its last day before its first, more than six months, or no future day. */
export type SeriesProblem = 'untilBeforeStart' | 'tooLong' | 'empty';

type SeriesDays = Pick<ScheduleSeriesCreate, 'start' | 'weekdays' | 'time' | 'weeks' | 'until'>;

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/**
 * The start instants (UTC) a series makes, in order: each chosen weekday at `time` on the studio's
 * clock, future ones only. The server creates exactly these; the add dialog lists them before saving.
 */
export function seriesPlan(
  input: SeriesDays,
  timeZone: string,
  now = new Date(),
): { dates: string[]; problem?: SeriesProblem } {
  const last = input.weeks !== undefined ? addDays(input.start, input.weeks * 7 - 1) : input.until!;
  if (last < input.start) return { dates: [], problem: 'untilBeforeStart' };
  const limit = new Date(`${input.start}T12:00:00Z`);
  limit.setUTCMonth(limit.getUTCMonth() + SERIES_MAX_MONTHS);
  if (last > limit.toISOString().slice(0, 10)) return { dates: [], problem: 'tooLong' };
  const weekdays = new Set(input.weekdays);
  const dates: string[] = [];
  for (let day = input.start; day <= last; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay() || 7;
    if (!weekdays.has(weekday)) continue;
    const at = new Date(fromZonedInput(`${day} ${input.time}:00`, timeZone)).toISOString();
    if (at > now.toISOString()) dates.push(at);
  }
  return dates.length ? { dates } : { dates, problem: 'empty' };
}
