import { moneyOf } from '../../contract/money';
import { listPaymentsOfRecords, type PaymentRow } from './payments';
import type { RecordRow } from './records';
import { PostgresAdapter, sql, type Selectable } from 'kysely';
import type { RecordSchedule, ScheduleOpen, SchedulePublic } from '../../contract';
import { bool, flag, nowIso, type Executor } from '../database';
import { prepared } from '../prepared';
import type { SchedulesTable } from '../schema';
import { listNoShowDates, listRecordsOfSchedules, toRecordPublic } from './records';
import { notesOf } from './customer-notes';

export type ScheduleRow = Selectable<SchedulesTable>;

export const placesAvailable = (capacity: number, taken: number) => Math.max(0, capacity - taken);
/** People still missing for a session's minimum (its own, else its workshop's): 0 when met or none. */
export const peopleNeeded = (minPeople: number, taken: number) => Math.max(0, minPeople - taken);

const joined = (db: Executor) =>
  db
    .selectFrom('schedules as s')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .innerJoin('addresses as a', 'a.id', 's.address_id')
    .select([
      's.id',
      's.date',
      's.capacity',
      's.workshop_id',
      's.address_id',
      's.is_notified',
      's.cancelled_at',
      's.cancel_reason',
      's.series_id',
      's.min_people',
      'w.title as w_title',
      'w.description as w_description',
      'w.title_en as w_title_en',
      'w.title_sr as w_title_sr',
      'w.description_en as w_description_en',
      'w.description_sr as w_description_sr',
      'w.price as w_price',
      'w.duration_minutes as w_duration_minutes',
      'w.min_people as w_min_people',
      'a.title as a_title',
      'a.map_link as a_map_link',
      'a.description as a_description',
      'a.latitude as a_latitude',
      'a.longitude as a_longitude',
    ]);

type JoinedRow = Awaited<ReturnType<ReturnType<typeof joined>['execute']>>[number];

const nest = (r: JoinedRow) => ({
  id: r.id,
  date: r.date,
  capacity: r.capacity,
  workshop: {
    id: r.workshop_id,
    title: r.w_title,
    description: r.w_description,
    title_en: r.w_title_en,
    title_sr: r.w_title_sr,
    description_en: r.w_description_en,
    description_sr: r.w_description_sr,
    price: r.w_price,
    duration_minutes: r.w_duration_minutes,
    min_people: r.w_min_people,
  },
  address: {
    id: r.address_id,
    title: r.a_title,
    map_link: r.a_map_link,
    description: r.a_description,
    latitude: r.a_latitude,
    longitude: r.a_longitude,
  },
  cancelled_at: r.cancelled_at,
  cancel_reason: r.cancel_reason,
});

/** Staff lists: upcoming schedules soonest first, or past ones latest first, each with every booking. */
export interface ScheduleFilter {
  from?: string;
  to?: string;
  workshop_id?: number;
}

/** One page of a staff list (the date index serves both the range and the order), and the total. */
export async function listSchedules(
  db: Executor,
  when: 'upcoming' | 'past',
  now: string,
  filter: ScheduleFilter = {},
  page: { skip: number; limit: number } = { skip: 0, limit: 1_000_000 },
): Promise<{ data: SchedulePublic[]; count: number }> {
  // A cancelled session leaves the schedule for history at once.
  let where = db
    .selectFrom('schedules as s')
    .where((eb) =>
      when === 'upcoming'
        ? eb.and([eb('s.date', '>', now), eb('s.cancelled_at', 'is', null)])
        : eb.or([eb('s.date', '<=', now), eb('s.cancelled_at', 'is not', null)]),
    );
  if (filter.from) where = where.where('s.date', '>=', filter.from);
  if (filter.to) where = where.where('s.date', '<', filter.to);
  if (filter.workshop_id !== undefined) where = where.where('s.workshop_id', '=', filter.workshop_id);
  const [ids, total] = await Promise.all([
    where
      .select('s.id')
      .orderBy('s.date', when === 'upcoming' ? 'asc' : 'desc')
      .orderBy('s.id')
      .offset(page.skip)
      .limit(page.limit)
      .execute(),
    where.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const rows =
    ids.length === 0
      ? []
      : await joined(db)
          .where(
            's.id',
            'in',
            ids.map((r) => r.id),
          )
          .orderBy('s.date', when === 'upcoming' ? 'asc' : 'desc')
          .orderBy('s.id')
          .execute();
  return { data: await withRecords(db, rows), count: Number(total.n) };
}

export async function getScheduleDetail(db: Executor, id: number): Promise<SchedulePublic | undefined> {
  const rows = await joined(db).where('s.id', '=', id).execute();
  return (await withRecords(db, rows))[0];
}

async function withRecords(db: Executor, rows: JoinedRow[]): Promise<SchedulePublic[]> {
  const records = await listRecordsOfSchedules(
    db,
    rows.map((r) => r.id),
  );
  const bySchedule = new Map<number, typeof records>();
  for (const rec of records) bySchedule.set(rec.schedule_id, [...(bySchedule.get(rec.schedule_id) ?? []), rec]);
  const notes = await notesOf(
    db,
    records.map((r) => r.telegram_id),
  );
  const noShows = await listNoShowDates(db, [
    ...new Set(records.flatMap((r) => (r.telegram_id === null ? [] : [r.telegram_id]))),
  ]);
  const ledgers = new Map<number, PaymentRow[]>();
  for (const p of await listPaymentsOfRecords(
    db,
    records.map((r) => r.id),
  ))
    ledgers.set(p.record_id!, [...(ledgers.get(p.record_id!) ?? []), p]);
  const paymentOf = (rec: RecordRow) => {
    // The badge does not depend on the prepayment setting; only `required_now` would.
    const m = moneyOf(rec, ledgers.get(rec.id) ?? [], { prepayment: 'none', deposit_percent: 0 });
    return { price: m.price, amount_paid: m.amount_paid, balance: m.balance, status: m.status };
  };
  const earlierNoShows = (telegramId: number | null, date: string) =>
    telegramId === null ? 0 : (noShows.get(telegramId) ?? []).filter((d) => d < date).length;
  return rows.map((r) => {
    const recs = bySchedule.get(r.id) ?? [];
    const taken = recs.filter((x) => x.state === 'ACTIVE').reduce((n, x) => n + x.people_count, 0);
    return {
      ...nest(r),
      workshop_id: r.workshop_id,
      address_id: r.address_id,
      is_notified: bool(r.is_notified),
      series_id: r.series_id,
      min_people: r.min_people,
      records: recs.map((rec) => ({
        ...toRecordPublic(rec),
        earlier_no_shows: earlierNoShows(rec.telegram_id, r.date),
        customer_note: rec.telegram_id === null ? null : (notes.get(rec.telegram_id) ?? null),
        payment: paymentOf(rec),
      })),
      places_available: placesAvailable(r.capacity, taken),
    };
  });
}

/** The anonymous schedule of the mini-app: upcoming schedules and their free seats, nothing personal. */
export async function listOpenSchedules(db: Executor, now: string): Promise<ScheduleOpen[]> {
  const rows = await joined(db)
    .select((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom('records as r')
            .select((e) => e.fn.sum<number>('r.people_count').as('n'))
            .whereRef('r.schedule_id', '=', 's.id')
            .where('r.state', '=', 'ACTIVE'),
          sql<number>`0`,
        )
        .as('taken'),
    )
    .where('s.date', '>', now)
    .where('s.cancelled_at', 'is', null)
    .orderBy('s.date')
    .orderBy('s.id')
    .execute();
  return rows.map((r) => {
    const { cancelled_at: _c, cancel_reason: _r, ...open } = nest(r);
    const taken = Number(r.taken);
    return {
      ...open,
      places_available: placesAvailable(r.capacity, taken),
      people_needed: peopleNeeded(r.min_people ?? r.w_min_people, taken),
    };
  });
}

/**
 * The schedule of a record, as its booking page and the bot's messages show it. `lock`: and the
 * schedule's lock (db/lock.ts) in the same statement (PostgreSQL: its row FOR UPDATE; SQLite's write
 * transaction holds everything already).
 */
export async function getRecordSchedule(
  db: Executor,
  id: number,
  { lock = false } = {},
): Promise<RecordSchedule | undefined> {
  const locked = lock && db.getExecutor().adapter instanceof PostgresAdapter;
  const [row] = await (locked ? lockedRecordSchedule : recordSchedule)(db, id);
  return row && nest(row);
}

const recordSchedule = prepared((db: Executor, id: number) => joined(db).where('s.id', '=', id));
const lockedRecordSchedule = prepared((db: Executor, id: number) => joined(db).where('s.id', '=', id).forUpdate('s'));

export const getSchedule = (db: Executor, id: number) =>
  db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();

export interface ScheduleValues {
  date: string;
  capacity: number;
  workshop_id: number;
  address_id: number;
  /** Its own minimum of participants; null: the workshop's. */
  min_people?: number | null;
}

export const insertSchedule = (db: Executor, s: ScheduleValues & { series_id?: number | null }) =>
  db
    .insertInto('schedules')
    .values({ ...s, is_notified: flag(false), created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();

export const updateSchedule = (db: Executor, id: number, patch: Partial<ScheduleValues>) =>
  Object.keys(patch).length === 0
    ? Promise.resolve()
    : db.updateTable('schedules').set(patch).where('id', '=', id).execute();

export const setScheduleNotified = (db: Executor, id: number) =>
  db
    .updateTable('schedules')
    .set({ is_notified: flag(true) })
    .where('id', '=', id)
    .execute();

export const insertSeries = (db: Executor, rule: unknown) =>
  db
    .insertInto('schedule_series')
    .values({ rule: JSON.stringify(rule), created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();

/** A session and the later sessions of its series not cancelled, by date (only itself when it is in none). */
export async function listSeriesFrom(db: Executor, id: number): Promise<number[]> {
  const s = await getSchedule(db, id);
  if (!s) return [];
  if (s.series_id === null) return [id];
  const rows = await db
    .selectFrom('schedules')
    .select('id')
    .where('series_id', '=', s.series_id)
    .where((eb) => eb.or([eb('id', '=', id), eb.and([eb('date', '>', s.date), eb('cancelled_at', 'is', null)])]))
    .orderBy('date')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

export const setScheduleCancelled = (db: Executor, id: number, reason: string, at: string) =>
  db.updateTable('schedules').set({ cancelled_at: at, cancel_reason: reason }).where('id', '=', id).execute();

export const deleteSchedule = (db: Executor, id: number) => db.deleteFrom('schedules').where('id', '=', id).execute();

/** Schedules starting within (from, to], cancelled ones left out: the day-before digest. */
export const listSchedulesBetween = (db: Executor, from: string, to: string) =>
  db
    .selectFrom('schedules')
    .select(['id', 'date'])
    .where('date', '>', from)
    .where('date', '<=', to)
    .where('cancelled_at', 'is', null)
    .orderBy('date')
    .execute();
