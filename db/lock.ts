import { sql } from 'kysely';
import type { Database, Executor } from './database';

/**
 * Runs `fn` in one transaction that first takes the schedule's lock, so every change to a
 * schedule's bookings is serialized. SQLite: BEGIN IMMEDIATE takes the database's write lock
 * up front (no upgrade deadlocks between processes); PostgreSQL: SELECT … FOR UPDATE on the
 * schedule row, so different schedules still book in parallel.
 */
export function withScheduleLock<T>(
  database: Database,
  scheduleId: number,
  fn: (trx: Executor) => Promise<T>,
): Promise<T> {
  return withLocks(database, { scheduleIds: [scheduleId] }, fn);
}

/** What a transaction locks first: Telegram customers (their bookings and their erasure) and schedules. */
export interface LockKeys {
  telegramIds?: (number | null)[];
  scheduleIds?: number[];
}

/**
 * One transaction that first takes every lock in `keys`, always customers before schedules and each
 * kind in ascending order, so two transactions never wait for each other in a circle. A customer's
 * lock serialises what they book with their erasure: a booking made while /forget runs waits for it
 * and is then a new booking, never an orphan. PostgreSQL: a transaction advisory lock per customer and
 * SELECT … FOR UPDATE per schedule; SQLite: BEGIN IMMEDIATE, which serialises every write already.
 * Rows a command learns of only inside come after these, in this order: a promo code's row (FOR UPDATE,
 * while a booking counts its uses), then a gift certificate's.
 */
export async function withLocks<T>(database: Database, keys: LockKeys, fn: (trx: Executor) => Promise<T>): Promise<T> {
  if (database.dialect !== 'postgres') return withWriteTransaction(database, fn);
  const ascending = <N extends number>(xs: (N | null)[] = []) =>
    [...new Set(xs.filter((x): x is N => x !== null))].sort((a, b) => a - b);
  const result = await database.db.transaction().execute(async (trx) => {
    for (const id of ascending(keys.telegramIds))
      await sql`select pg_advisory_xact_lock(hashtextextended(${`customer:${id}`}, 0))`.execute(trx);
    const scheduleIds = ascending(keys.scheduleIds);
    if (scheduleIds.length > 0)
      await trx.selectFrom('schedules').select('id').where('id', 'in', scheduleIds).orderBy('id').forUpdate().execute();
    return fn(trx);
  });
  database.writes++;
  return result;
}

/** SQLite's write transactions: a connection inside BEGIN IMMEDIATE, which Kysely does not know for one. */
const sqliteTransactions = new WeakSet<Executor>();

/** Whether `db` runs inside a transaction (what it reads stays true until that transaction writes it). */
export const inTransaction = (db: Executor): boolean => db.isTransaction || sqliteTransactions.has(db);

/**
 * SQLite's write transactions begin in the event loop's check phase, in the order they were asked for,
 * after the poll phase has read every request that was ready. better-sqlite3 answers at once, so a
 * booking used to run whole inside the socket callback that read it, each request's parsing, booking and
 * answer interleaved with the next one's. Read first and then booked back to back, the same bookings
 * cost 0.86–0.93 ms of CPU each instead of 1.4–1.5 (bench: 1,400–1,500 bookings/s instead of 850–1,000).
 */
class Turns {
  private waiting: Array<() => void> = [];

  /** Resolves when this transaction may begin. */
  take(): Promise<void> {
    return new Promise((resolve) => {
      if (this.waiting.push(resolve) === 1)
        setImmediate(() => {
          const ready = this.waiting;
          this.waiting = [];
          for (const begin of ready) begin();
        });
    });
  }
}
const turns = new WeakMap<Database, Turns>();

/** A write transaction that needs no schedule lock (SQLite: still BEGIN IMMEDIATE). */
export async function withWriteTransaction<T>(database: Database, fn: (trx: Executor) => Promise<T>): Promise<T> {
  if (database.dialect === 'postgres') {
    const result = await database.db.transaction().execute(fn);
    database.writes++;
    return result;
  }
  let t = turns.get(database);
  if (!t) turns.set(database, (t = new Turns()));
  await t.take();
  // Kysely's SQLite driver holds its single connection for the whole callback.
  return database.db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    sqliteTransactions.add(conn);
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

/**
 * Locks more schedules inside a transaction that already holds a customer's lock (their erasure learns
 * which sessions they booked only under that lock). PostgreSQL: SELECT … FOR UPDATE in ascending order;
 * SQLite: the transaction's BEGIN IMMEDIATE already holds everything.
 */
export async function lockSchedules(database: Database, trx: Executor, scheduleIds: number[]): Promise<void> {
  if (database.dialect !== 'postgres' || scheduleIds.length === 0) return;
  const ids = [...new Set(scheduleIds)].sort((a, b) => a - b);
  await trx.selectFrom('schedules').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}
