import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Money the studio owes back to someone it no longer knows: the studio credit of a customer who erased
 * their data left them as a ledger row (payment_id) and is owed here until staff record the refund.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('owed_refunds')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('payment_id', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(16)', (c) => c.notNull().check(sql`reason in ('erasure')`))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('refunded_at', ts)
    .addColumn('refund_payment_id', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('owed_refunds').execute();
}
