import { SERIES_MAX_MONTHS, type ScheduleSeriesCreate } from '../../contract';
import { seriesPlan } from '../../contract/schedule-series';
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

/** The series' start instants (UTC), in order; a series with none is refused with its reason. */
export function seriesDates(input: SeriesInput, timeZone: string, now = new Date()): string[] {
  const plan = seriesPlan(input, timeZone, now);
  if (plan.problem === 'tooLong') throw new Unprocessable(SERIES_MSG.tooLong);
  if (plan.problem) throw new Unprocessable(SERIES_MSG[plan.problem]);
  return plan.dates;
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
