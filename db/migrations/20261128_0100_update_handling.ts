import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * A webhook update is taken for a while (lease_until), not for good: it counts as handled only once
 * its handler finished (handled_at). An update whose handling failed or whose process died is taken
 * again when Telegram sends it again, up to `attempts` times. Updates taken before this migration
 * were handled by the old rule, so they count as handled.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema.alterTable('telegram_updates').addColumn('handled_at', ts).execute();
  await db.schema.alterTable('telegram_updates').addColumn('lease_until', ts).execute();
  await db.schema
    .alterTable('telegram_updates')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.updateTable('telegram_updates').set({ handled_at: sql`received_at` }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('telegram_updates').dropColumn('attempts').execute();
  await db.schema.alterTable('telegram_updates').dropColumn('lease_until').execute();
  await db.schema.alterTable('telegram_updates').dropColumn('handled_at').execute();
}
