import type { Executor } from '../database';

/** Failed logins of an email since `since` (ISO). */
export async function countLoginFailures(db: Executor, email: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('email', '=', email.toLowerCase())
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records a failed login; rows older than `forgetBefore` (of any email) are dropped on the way. */
export async function recordLoginFailure(db: Executor, email: string, at: string, forgetBefore: string) {
  await db.deleteFrom('login_failures').where('at', '<', forgetBefore).execute();
  await db.insertInto('login_failures').values({ email: email.toLowerCase(), at }).execute();
}

/** A successful login forgets the email's failures. */
export const clearLoginFailures = (db: Executor, email: string) =>
  db.deleteFrom('login_failures').where('email', '=', email.toLowerCase()).execute();
