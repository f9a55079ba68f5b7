import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor } from '../database';
import type { MinPeopleChecksTable } from '../schema';

export type MinPeopleCheck = Selectable<MinPeopleChecksTable>;

/**
 * Upcoming sessions starting within `until`, not cancelled, with a minimum of participants (their
 * own, else their workshop's) and not checked yet; with the minimum and when they were created.
 */
export const listUncheckedWithMinimum = (db: Executor, now: string, until: string) =>
  db
    .selectFrom('schedules as s')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .leftJoin('min_people_checks as c', 'c.schedule_id', 's.id')
    .select(['s.id', 's.date', 's.created_at', sql<number>`coalesce(s.min_people, w.min_people)`.as('min_people')])
    .where('s.date', '>', now)
    .where('s.date', '<=', until)
    .where('s.cancelled_at', 'is', null)
    .where('c.schedule_id', 'is', null)
    .where(sql<boolean>`coalesce(s.min_people, w.min_people) > 0`)
    .orderBy('s.date')
    .execute();

/** A session's minimum of participants: its own, else its workshop's (0: none). */
export async function minimumOf(db: Executor, scheduleId: number): Promise<number> {
  const row = await db
    .selectFrom('schedules as s')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .select(sql<number>`coalesce(s.min_people, w.min_people)`.as('n'))
    .where('s.id', '=', scheduleId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** People on the session's ACTIVE bookings. */
export async function activePeople(db: Executor, scheduleId: number): Promise<number> {
  const row = await db
    .selectFrom('records')
    .select(sql<number | string | null>`sum(people_count)`.as('n'))
    .where('schedule_id', '=', scheduleId)
    .where('state', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export const getMinPeopleCheck = (db: Executor, scheduleId: number) =>
  db.selectFrom('min_people_checks').selectAll().where('schedule_id', '=', scheduleId).executeTakeFirst();

export const insertMinPeopleCheck = (db: Executor, row: Insertable<MinPeopleChecksTable>) =>
  db.insertInto('min_people_checks').values(row).execute();

export const updateMinPeopleCheck = (
  db: Executor,
  scheduleId: number,
  patch: Partial<Pick<MinPeopleCheck, 'status' | 'decided_by_user_id' | 'decided_by_name' | 'decided_at'>>,
) => db.updateTable('min_people_checks').set(patch).where('schedule_id', '=', scheduleId).execute();

/** Checks where staff were asked and nobody answered by `decide_by`. */
export const listUnansweredChecks = (db: Executor, now: string) =>
  db
    .selectFrom('min_people_checks')
    .select('schedule_id')
    .where('status', '=', 'asked')
    .where('decide_by', '<=', now)
    .orderBy('decide_by')
    .execute();

/** Staff who may decide about a session (owners and managers) with a linked Telegram account. */
export const listDeciders = (db: Executor) =>
  db
    .selectFrom('users')
    .select(['id as user_id', 'telegram_id as chat_id'])
    .where('telegram_id', 'is not', null)
    .where('is_active', '=', 1)
    .where((eb) => eb.or([eb('is_superuser', '=', 1), eb('role', 'in', ['owner', 'manager'])]))
    .orderBy('id')
    .execute() as Promise<{ user_id: number; chat_id: number }[]>;
