import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Staff's note about a customer (a Telegram user), one per customer. It is personal data: the export
 * shows it, erasure and retention delete it. The log names the row by its id, never the text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('customer_notes')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('telegram_id', pg ? sql`bigint` : sql`integer`, (c) => c.notNull().unique())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer')
    .addColumn('updated_at', pg ? sql`timestamptz` : sql`text`, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('customer_notes').execute();
}
