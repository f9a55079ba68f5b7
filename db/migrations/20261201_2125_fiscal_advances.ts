import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Where the money of each advance receipt is now (fiscal_advances), so a delivery closes exactly what
 * was advanced for it and a refund names the advance it returns: a row per part of an advance held by a
 * booking, a customer's studio credit, a gift certificate or a refund owed to an erased customer (+),
 * or leaving it (−: moved on, closed at delivery, paid back). And each receipt's payment parts
 * (fiscal_receipts.parts), fixed when it is written: the body's `payment` list.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;
  await db.schema.alterTable('fiscal_receipts').addColumn('parts', 'text').execute();
  await db.schema
    .createTable('fiscal_advances')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('advance_id', 'integer', (c) => c.notNull().references('fiscal_receipts.id'))
    .addColumn('holder', 'varchar(12)', (c) =>
      c.notNull().check(sql`holder in ('record', 'credit', 'certificate', 'owed')`),
    )
    .addColumn('holder_id', bigint, (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('payment_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('receipt_id', 'integer', (c) => c.references('fiscal_receipts.id'))
    .addColumn('payment_id', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fiscal_advances_holder_idx').on('fiscal_advances').columns(['holder', 'holder_id']).execute();
  await db.schema.createIndex('fiscal_advances_receipt_idx').on('fiscal_advances').column('receipt_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fiscal_advances').execute();
  await db.schema.alterTable('fiscal_receipts').dropColumn('parts').execute();
}
