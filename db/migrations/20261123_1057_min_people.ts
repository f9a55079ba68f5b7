import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Minimum participants: a workshop's minimum (0: none) and a session's own, which overrides it when
 * set. At the decision time each session with a minimum is checked once: the check's row is claimed
 * first (its key is the session), so however many instances run the job, one decides; the row then
 * keeps what happened (enough people, asked staff until `decide_by`, cancelled, kept) and who decided.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .alterTable('workshops')
    .addColumn('min_people', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('schedules').addColumn('min_people', 'integer').execute();
  await db.schema
    .createTable('min_people_checks')
    .addColumn('schedule_id', 'integer', (c) => c.primaryKey().references('schedules.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('people', 'integer', (c) => c.notNull())
    .addColumn('min_people', 'integer', (c) => c.notNull())
    .addColumn('default_action', 'text')
    .addColumn('decide_by', time)
    .addColumn('decided_by_user_id', 'integer')
    .addColumn('decided_by_name', 'text')
    .addColumn('decided_at', time)
    .addColumn('checked_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('min_people_checks_due_idx').on('min_people_checks').columns(['status', 'decide_by']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('min_people_checks_due_idx').execute();
  await db.schema.dropTable('min_people_checks').execute();
  await db.schema.alterTable('schedules').dropColumn('min_people').execute();
  await db.schema.alterTable('workshops').dropColumn('min_people').execute();
}
