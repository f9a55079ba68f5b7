import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Recurring sessions: a series is created at once (weekly on chosen weekdays at one time) and each of
 * its sessions remembers it, so staff can change "this and the following" together. Deleting a
 * series' sessions leaves the series row (it holds nothing but the rule).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('schedule_series')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('created_at', pg ? sql`timestamptz` : sql`text`, (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('schedules')
    .addColumn('series_id', 'integer', (c) => c.references('schedule_series.id'))
    .execute();
  await db.schema.createIndex('schedules_series_idx').on('schedules').columns(['series_id', 'date']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('schedules_series_idx').execute();
  await db.schema.alterTable('schedules').dropColumn('series_id').execute();
  await db.schema.dropTable('schedule_series').execute();
}
