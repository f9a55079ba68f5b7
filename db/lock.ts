import { sql } from 'kysely';
import type { Database, Executor } from './database';

/**
 * Runs `fn` in one transaction that first takes the schedule's lock, so every change to a
 * schedule's bookings is serialized. SQLite: BEGIN IMMEDIATE takes the database's write lock
 * up front (no upgrade deadlocks between processes); PostgreSQL: SELECT … FOR UPDATE on the
 * schedule row, so different schedules still book in parallel.
 */
export async function withScheduleLock<T>(
  database: Database,
  scheduleId: number,
  fn: (trx: Executor) => Promise<T>,
): Promise<T> {
  if (database.dialect === 'postgres') {
    const result = await database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('schedules').select('id').where('id', '=', scheduleId).forUpdate().execute();
      return fn(trx);
    });
    database.writes++;
    return result;
  }
  return withWriteTransaction(database, fn);
}

/** A write transaction that needs no schedule lock (SQLite: still BEGIN IMMEDIATE). */
export async function withWriteTransaction<T>(database: Database, fn: (trx: Executor) => Promise<T>): Promise<T> {
  if (database.dialect === 'postgres') {
    const result = await database.db.transaction().execute(fn);
    database.writes++;
    return result;
  }
  // Kysely's SQLite driver holds its single connection for the whole callback.
  return database.db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      database.writes++;
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}
