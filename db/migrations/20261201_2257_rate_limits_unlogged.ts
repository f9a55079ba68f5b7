import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * PostgreSQL: the rate limits' windows are not written ahead, so counting a request waits for no disk
 * flush (every customer's booking counts one). A crash forgets the windows (at most a minute of counts),
 * which lets a client start its limit again once: nothing is lost that a restart of one instance on
 * SQLite would not forget as well.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table rate_limits set unlogged`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table rate_limits set logged`.execute(db);
}
