import { sql } from 'kysely';
import type { Executor } from '../database';

/** Resolves when the database answers a query. */
export const ping = async (db: Executor): Promise<void> => {
  await sql`select 1`.execute(db);
};

/** How many bookings are in each state (ACTIVE, QUEUED, CANCELLED), over every session. */
export async function countRecordsByState(db: Executor): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('records')
    .select((eb) => ['state', eb.fn.countAll<number | string>().as('n')])
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}
