import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * State that several server instances share. rate_limits: one fixed window per key (a route and a
 * client address, or a Telegram user), times in epoch milliseconds. telegram_updates: the webhook
 * update ids already taken, so an update Telegram sends again is handled once whichever instance
 * gets it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('window_start', bigint, (c) => c.notNull())
    .addColumn('window_ms', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('telegram_updates')
    .addColumn('update_id', bigint, (c) => c.primaryKey())
    .addColumn('received_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('telegram_updates_received_at_idx').on('telegram_updates').column('received_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('telegram_updates').execute();
  await db.schema.dropTable('rate_limits').execute();
}
