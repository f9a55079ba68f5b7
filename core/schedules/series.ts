import { SERIES_MAX_MONTHS, type ScheduleSeriesCreate } from '../../contract';
import { fromZonedInput } from '../../contract/format';
import type { Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { insertSchedule, insertSeries } from '../../db/repositories/schedules';
import { assertCan, type Actor } from '../kernel/actor';
import { Unprocessable } from '../kernel/errors';
import { newDatesMessages } from '../journey/date-subscriptions';
import type { DomainEvent } from '../kernel/events';
import { publish } from '../notify/publish';
import { assertRefsExist } from './schedules';

export const SERIES_MSG = {
  tooLong: { code: 'seriesTooLong', args: { months: SERIES_MAX_MONTHS } },
  untilBeforeStart: 'seriesUntilBeforeStart',
  empty: 'seriesEmpty',
} as const;

type SeriesInput = Omit<ScheduleSeriesCreate, 'capacity'> & { capacity: number };

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** The series' start instants (UTC), in order: each chosen weekday at `time` on the studio's clock, future ones only. */
export function seriesDates(input: SeriesInput, timeZone: string, now = new Date()): string[] {
  const last = input.weeks !== undefined ? addDays(input.start, input.weeks * 7 - 1) : input.until!;
  if (last < input.start) throw new Unprocessable(SERIES_MSG.untilBeforeStart);
  const limit = new Date(`${input.start}T12:00:00Z`);
  limit.setUTCMonth(limit.getUTCMonth() + SERIES_MAX_MONTHS);
  if (last > limit.toISOString().slice(0, 10)) throw new Unprocessable(SERIES_MSG.tooLong);
  const weekdays = new Set(input.weekdays);
  const dates: string[] = [];
  for (let day = input.start; day <= last; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay() || 7;
    if (!weekdays.has(weekday)) continue;
    const at = new Date(fromZonedInput(`${day} ${input.time}:00`, timeZone)).toISOString();
    if (at > now.toISOString()) dates.push(at);
  }
  if (dates.length === 0) throw new Unprocessable(SERIES_MSG.empty);
  return dates;
}

/**
 * Creates every session of a weekly series in one transaction (all or none), each remembering its
 * series; subscribers to the workshop's new dates are told once, with the first date.
 */
export async function addSeries(
  database: Database,
  actor: Actor,
  input: SeriesInput,
  timeZone: string,
): Promise<number[]> {
  assertCan(actor, 'schedule.manage');
  const dates = seriesDates(input, timeZone);
  return withWriteTransaction(database, async (trx) => {
    await assertRefsExist(trx, input);
    const series = await insertSeries(trx, input);
    const ids: number[] = [];
    const events: DomainEvent[] = [];
    for (const date of dates) {
      const values = {
        date,
        capacity: input.capacity,
        workshop_id: input.workshop_id,
        address_id: input.address_id,
        min_people: input.min_people ?? null,
      };
      const { id } = await insertSchedule(trx, { ...values, series_id: series.id });
      ids.push(id);
      events.push({ type: 'schedule.created', actor, schedule_id: id, after: values });
    }
    await publish(trx, [...(await newDatesMessages(trx, ids[0])), ...events]);
    return ids;
  });
}
