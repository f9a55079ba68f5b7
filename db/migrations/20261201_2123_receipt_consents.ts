import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * customer_consents: a Telegram customer's answer to a question asked once (kind `e_receipts`: send
 * them their fiscal receipts in Telegram); `given` null while asked and not yet answered.
 * fiscal_buyer_asks: the refund receipts whose buyer's ID was asked of the customer (or that had
 * nobody to ask), so each is asked once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;
  const bool = pg ? sql`boolean` : sql`integer`;
  await db.schema
    .createTable('customer_consents')
    .addColumn('telegram_id', bigint, (c) => c.notNull())
    .addColumn('kind', 'varchar(24)', (c) => c.notNull().check(sql`kind in ('e_receipts')`))
    .addColumn('given', bool)
    .addColumn('asked_at', ts, (c) => c.notNull())
    .addColumn('answered_at', ts)
    .addPrimaryKeyConstraint('customer_consents_pk', ['telegram_id', 'kind'])
    .execute();
  await db.schema
    .createTable('fiscal_buyer_asks')
    .addColumn('receipt_id', 'integer', (c) => c.primaryKey())
    .addColumn('asked', bool, (c) => c.notNull())
    .addColumn('at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fiscal_buyer_asks').execute();
  await db.schema.dropTable('customer_consents').execute();
}
