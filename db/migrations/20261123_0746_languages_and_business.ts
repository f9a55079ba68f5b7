import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * customer_languages: per Telegram user, the language_code Telegram last gave and the language they
 * chose with /language (that one wins). business_connections: the studio's Telegram Business
 * connections (the bot answers in the studio's own account). business_chats: per business chat, when
 * staff last wrote and when the bot last answered there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;
  const bool = pg ? sql`boolean` : sql`integer`;
  await db.schema
    .createTable('customer_languages')
    .addColumn('telegram_id', bigint, (c) => c.primaryKey())
    .addColumn('telegram_code', 'varchar(35)')
    .addColumn('chosen', 'varchar(8)')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('business_connections')
    .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('user_id', bigint, (c) => c.notNull())
    .addColumn('user_chat_id', bigint, (c) => c.notNull())
    .addColumn('can_reply', bool, (c) => c.notNull())
    .addColumn('is_enabled', bool, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('business_chats')
    .addColumn('connection_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('chat_id', bigint, (c) => c.notNull())
    .addColumn('staff_wrote_at', ts)
    .addColumn('answered_at', ts)
    .addPrimaryKeyConstraint('business_chats_pk', ['connection_id', 'chat_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('business_chats').execute();
  await db.schema.dropTable('business_connections').execute();
  await db.schema.dropTable('customer_languages').execute();
}
