import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;
  const bigint = pg ? sql`bigint` : sql`integer`;
  const falseValue = pg ? sql`false` : sql`0`;
  const trueValue = pg ? sql`true` : sql`1`;
  const id = (t: CreateTableBuilder<string>) =>
    pg
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable('users'))
    .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('hashed_password', 'text', (c) => c.notNull())
    .addColumn('full_name', 'varchar(255)')
    .addColumn('is_active', bool, (c) => c.notNull().defaultTo(trueValue))
    .addColumn('is_superuser', bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('telegram_id', bigint)
    .addColumn('telegram_login', 'varchar(64)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('workshops'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(3500)
        .check(sql`price >= 0`),
    )
    .execute();

  await id(db.schema.createTable('addresses'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('map_link', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .execute();

  await id(db.schema.createTable('schedules'))
    .addColumn('date', ts, (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().check(sql`capacity >= 0`))
    // RESTRICT: a workshop or address with sessions cannot vanish from under their history.
    .addColumn('workshop_id', 'integer', (c) => c.notNull().references('workshops.id').onDelete('restrict'))
    .addColumn('address_id', 'integer', (c) => c.notNull().references('addresses.id').onDelete('restrict'))
    .addColumn('is_notified', bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_date_idx').on('schedules').column('date').execute();

  await id(db.schema.createTable('records'))
    .addColumn('schedule_id', 'integer', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull().check(sql`state in ('ACTIVE', 'QUEUED', 'CANCELLED')`))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(100)')
    .addColumn('people_count', 'integer', (c) => c.notNull().check(sql`people_count between 1 and 8`))
    .addColumn('telegram_login', 'varchar(64)')
    .addColumn('telegram_id', bigint)
    .addColumn('comment', 'text')
    .addColumn('has_allergy', bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('allergy_type', 'text')
    .addColumn('source', 'varchar(32)')
    .addColumn('is_first_time', bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('cancel_reason', 'text')
    .addColumn('queued_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('records_schedule_state_idx').on('records').columns(['schedule_id', 'state']).execute();
  await db.schema.createIndex('records_telegram_idx').on('records').column('telegram_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('user_apply', bool, (c) => c.notNull().defaultTo(trueValue))
    .addColumn('user_cancel', bool, (c) => c.notNull().defaultTo(trueValue))
    .addColumn('scheduled_1d', bool, (c) => c.notNull().defaultTo(trueValue))
    .execute();

  for (const table of ['password_resets', 'telegram_links']) {
    await db.schema
      .createTable(table)
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addColumn('used_at', ts)
      .execute();
  }

  await id(db.schema.createTable('notifications'))
    .addColumn('chat_id', bigint, (c) => c.notNull())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('locked_until', ts)
    .addColumn('last_error', 'text')
    .addColumn('dedupe_key', 'varchar(128)', (c) => c.unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('sent_at', ts)
    .execute();
  await db.schema
    .createIndex('notifications_due_idx')
    .on('notifications')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('bot_sessions')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'bot_sessions',
    'notifications',
    'telegram_links',
    'password_resets',
    'settings',
    'records',
    'schedules',
    'addresses',
    'workshops',
    'users',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
