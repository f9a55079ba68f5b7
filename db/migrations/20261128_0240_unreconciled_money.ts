import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Money the sweeper found unaccounted for (a paid booking cancelled by the system, paid while queued,
 * paid beyond its price, left on a deleted booking, a hold past pay_by). One row per finding, kept once
 * by its key (kind, booking, amount), so a finding is alerted once and a decided one is not found again;
 * staff decide it (credit, refund, keep with a reason), or the sweeper closes it when the money settled.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;
  await db.schema
    .createTable('unreconciled_money')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('finding_key', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('record_id', 'integer')
    .addColumn('telegram_id', bigint)
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('found_at', ts, (c) => c.notNull())
    .addColumn('decision', 'varchar(16)', (c) => c.check(sql`decision in ('credit', 'refund', 'keep', 'settled')`))
    .addColumn('reason', 'text')
    .addColumn('decided_by_user_id', 'integer')
    .addColumn('decided_at', ts)
    .execute();
  await db.schema.createIndex('unreconciled_money_open_idx').on('unreconciled_money').column('decided_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('unreconciled_money').execute();
}
