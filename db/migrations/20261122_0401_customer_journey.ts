import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/** The customer's journey: reminders that ask, ratings, calendar durations, map pins, new-date
 * subscriptions and seats given to a friend. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;

  // When the record last became ACTIVE: a reminder whose moment came before is not sent.
  await db.schema.alterTable('records').addColumn('active_since', ts).execute();
  await db.schema.alterTable('records').addColumn('confirmed_at', ts).execute();
  await db.schema
    .alterTable('records')
    .addColumn('rating', 'integer', (c) => c.check(sql`rating between 1 and 5`))
    .execute();
  await db
    .updateTable('records')
    .set({ active_since: sql`created_at` })
    .where('state', '=', 'ACTIVE')
    .execute();

  await db.schema
    .alterTable('workshops')
    .addColumn('duration_minutes', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(180)
        .check(sql`duration_minutes between 1 and 1440`),
    )
    .execute();

  await db.schema.alterTable('addresses').addColumn('latitude', 'double precision').execute();
  await db.schema.alterTable('addresses').addColumn('longitude', 'double precision').execute();

  await db.schema
    .createTable('seat_gifts')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('record_id', 'integer', (c) => c.notNull().references('records.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    // Used, or revoked (the booking was cancelled or given away): the link is dead either way.
    .addColumn('used_at', ts)
    .execute();
  await db.schema.createIndex('seat_gifts_record_idx').on('seat_gifts').column('record_id').execute();

  await db.schema
    .createTable('date_subscriptions')
    .addColumn('workshop_id', 'integer', (c) => c.notNull().references('workshops.id').onDelete('cascade'))
    .addColumn('telegram_id', bigint, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('date_subscriptions_pk', ['workshop_id', 'telegram_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('date_subscriptions').execute();
  await db.schema.dropTable('seat_gifts').execute();
  for (const c of ['latitude', 'longitude']) await db.schema.alterTable('addresses').dropColumn(c).execute();
  await db.schema.alterTable('workshops').dropColumn('duration_minutes').execute();
  for (const c of ['rating', 'confirmed_at', 'active_since'])
    await db.schema.alterTable('records').dropColumn(c).execute();
}
