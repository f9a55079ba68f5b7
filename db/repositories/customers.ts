import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../database';
import { notesOf } from './customer-notes';

/** `%q%` for LIKE, with the user's own % and _ taken literally. */
const containing = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Telegram users who booked, whose name, last name or login contains `q` (any case, Cyrillic too). */
function matching(db: Executor, q: string | undefined) {
  let base = db.selectFrom('records as r').where('r.telegram_id', 'is not', null);
  if (q) {
    const like = containing(q);
    const has = (col: string): Expression<SqlBool> => sql<SqlBool>`lower(${sql.ref(col)}) like ${like} escape '\\'`;
    base = base.where((eb) => eb.or([has('r.name'), has('r.last_name'), has('r.telegram_login')]));
  }
  return base;
}

/** One row per customer (newest booking first): counts over all their bookings. */
export async function listCustomers(
  db: Executor,
  q: string | undefined,
  page: { skip: number; limit: number },
  now: string,
) {
  // The page's customers first (by their latest matching booking), then the counts of those only.
  const [pageIds, total] = await Promise.all([
    matching(db, q)
      .select('r.telegram_id')
      .groupBy('r.telegram_id')
      .orderBy((eb) => eb.fn.max('r.id'), 'desc')
      .offset(page.skip)
      .limit(page.limit)
      .execute(),
    matching(db, q)
      .select((eb) => eb.fn.count<number | string>('r.telegram_id').distinct().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const ids = pageIds.flatMap((r) => (r.telegram_id === null ? [] : [r.telegram_id]));
  const rows = ids.length === 0 ? [] : await aggregate(joined(db).where('r.telegram_id', 'in', ids), now).execute();
  const order = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => (order.get(Number(a.telegram_id)) ?? 0) - (order.get(Number(b.telegram_id)) ?? 0));
  return { rows: await withNames(db, rows), count: Number(total.n) };
}

export async function getCustomer(db: Executor, telegramId: number, now: string) {
  const rows = await aggregate(joined(db).where('r.telegram_id', '=', telegramId), now).execute();
  return (await withNames(db, rows))[0];
}

type Joined = ReturnType<typeof joined>;
const joined = (db: Executor) => db.selectFrom('records as r').innerJoin('schedules as s', 's.id', 'r.schedule_id');

const aggregate = (q: Joined, now: string) =>
  q
    .select((eb) => [
      'r.telegram_id',
      eb.fn.countAll<number | string>().as('bookings'),
      sql<number | string>`sum(case when r.state = 'ACTIVE' and r.attendance = 'ATTENDED' then 1 else 0 end)`.as(
        'attended',
      ),
      sql<number | string>`sum(case when r.state = 'ACTIVE' and r.attendance = 'NO_SHOW' then 1 else 0 end)`.as(
        'no_shows',
      ),
      sql<number | string>`sum(case when r.state = 'CANCELLED' then 1 else 0 end)`.as('cancellations'),
      sql<
        string | null
      >`max(case when r.state = 'ACTIVE' and s.date <= ${now} and (r.attendance is null or r.attendance = 'ATTENDED') then s.date end)`.as(
        'last_visit',
      ),
      eb.fn.max('r.id').as('last_id'),
    ])
    .groupBy('r.telegram_id');

type Aggregated = Awaited<ReturnType<ReturnType<typeof aggregate>['execute']>>[number];

/** Adds each customer's name as on their latest booking, and every allergy they have mentioned. */
async function withNames(db: Executor, rows: Aggregated[]) {
  if (rows.length === 0) return [];
  const telegramIds = rows.flatMap((r) => (r.telegram_id === null ? [] : [r.telegram_id]));
  const [latest, allergies, notes] = await Promise.all([
    db
      .selectFrom('records')
      .select(['id', 'name', 'last_name', 'telegram_login'])
      .where(
        'id',
        'in',
        rows.map((r) => Number(r.last_id)),
      )
      .execute(),
    db
      .selectFrom('records')
      .select(['telegram_id', 'allergy_type'])
      .distinct()
      .where('telegram_id', 'in', telegramIds)
      .where('allergy_type', 'is not', null)
      .where('allergy_type', '!=', '')
      .execute(),
    notesOf(db, telegramIds),
  ]);
  const byId = new Map(latest.map((r) => [r.id, r]));
  return rows.map((r) => {
    const named = byId.get(Number(r.last_id));
    return {
      telegram_id: Number(r.telegram_id),
      telegram_login: named?.telegram_login ?? null,
      name: named?.name ?? '',
      last_name: named?.last_name ?? null,
      bookings: Number(r.bookings),
      attended: Number(r.attended),
      no_shows: Number(r.no_shows),
      cancellations: Number(r.cancellations),
      last_visit: r.last_visit,
      allergies: allergies.filter((a) => a.telegram_id === r.telegram_id).map((a) => a.allergy_type ?? ''),
      note: notes.get(Number(r.telegram_id)) ?? null,
    };
  });
}

/** A customer's bookings, latest session first. */
export const listCustomerBookings = (db: Executor, telegramId: number) =>
  db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .select([
      'r.id',
      'r.schedule_id',
      's.date',
      'w.title as workshop_title',
      'r.state',
      'r.people_count',
      'r.attendance',
      'r.cancel_reason',
    ])
    .where('r.telegram_id', '=', telegramId)
    .orderBy('s.date', 'desc')
    .orderBy('r.id', 'desc')
    .limit(500)
    .execute();
