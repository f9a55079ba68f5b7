import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * A session staff cancel stays in history: when it was cancelled and the reason its customers were
 * told. A cancelled session is offered to nobody and counts in no fill rate.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('schedules')
    .addColumn('cancelled_at', pg ? sql`timestamptz` : sql`text`)
    .execute();
  await db.schema.alterTable('schedules').addColumn('cancel_reason', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['cancel_reason', 'cancelled_at']) await db.schema.alterTable('schedules').dropColumn(c).execute();
}
