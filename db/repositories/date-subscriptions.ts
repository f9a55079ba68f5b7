import { sql, type Expression } from 'kysely';
import type { Executor } from '../database';

export const subscribeToDates = (db: Executor, workshopId: number, telegramId: number, at: string) =>
  db
    .insertInto('date_subscriptions')
    .values({ workshop_id: workshopId, telegram_id: telegramId, created_at: at })
    .onConflict((oc) => oc.columns(['workshop_id', 'telegram_id']).doNothing())
    .execute();

export const unsubscribeFromDates = (db: Executor, workshopId: number, telegramId: number) =>
  db
    .deleteFrom('date_subscriptions')
    .where('workshop_id', '=', workshopId)
    .where('telegram_id', '=', telegramId)
    .execute();

/** Removes and returns the workshop's subscribers (each is told once). */
export async function takeDateSubscribers(db: Executor, workshopId: number): Promise<number[]> {
  const rows = await db
    .deleteFrom('date_subscriptions')
    .where('workshop_id', '=', workshopId)
    .returning('telegram_id')
    .execute();
  return rows.map((r) => r.telegram_id);
}

export const listSubscribedWorkshopIds = async (db: Executor, telegramId: number) =>
  (await db.selectFrom('date_subscriptions').select('workshop_id').where('telegram_id', '=', telegramId).execute()).map(
    (r) => r.workshop_id,
  );

/** A workshop's upcoming sessions with a free seat. */
const freeDates = (db: Executor, workshopId: number | Expression<number>, now: string) =>
  db
    .selectFrom('schedules as s')
    .select('s.id')
    .where('s.workshop_id', '=', workshopId)
    .where('s.date', '>', now)
    .where('s.cancelled_at', 'is', null)
    .where((eb) =>
      eb(
        's.capacity',
        '>',
        eb.fn.coalesce(
          eb
            .selectFrom('records as r')
            .select((e) => e.fn.sum<number>('r.people_count').as('n'))
            .whereRef('r.schedule_id', '=', 's.id')
            .where('r.state', '=', 'ACTIVE'),
          sql<number>`0`,
        ),
      ),
    );

/**
 * Workshops that have been scheduled at least once but have no upcoming session with a free seat:
 * the ones a customer can ask to be told about.
 */
export const listWorkshopsWithoutFreeDates = (db: Executor, now: string) =>
  db
    .selectFrom('workshops as w')
    .select(['w.id', 'w.title'])
    .where((eb) => eb.exists(eb.selectFrom('schedules as s').select('s.id').whereRef('s.workshop_id', '=', 'w.id')))
    .where((eb) => eb.not(eb.exists(freeDates(db, eb.ref('w.id'), now))))
    .orderBy('w.title')
    .execute();

export const hasFreeDate = async (db: Executor, workshopId: number, now: string) =>
  (await freeDates(db, workshopId, now).executeTakeFirst()) !== undefined;
