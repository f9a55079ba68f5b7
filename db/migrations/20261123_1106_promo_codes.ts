import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Promo codes. A code is stored in its one spelling (upper case), unique. A booking made with one
 * keeps the code's id and the discount it got (a part of its price, not a payment): price =
 * unit_price × people − discount. A code is valid from starts_at until ends_at (excluded; the owner
 * picks days, stored as the studio's midnights). Codes are switched off, never deleted, so bookings keep naming them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;
  const falseValue = pg ? sql`false` : sql`0`;
  const trueValue = pg ? sql`true` : sql`1`;

  await db.schema
    .createTable('promo_codes')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind in ('percent', 'fixed')`))
    .addColumn('value', 'integer', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('starts_at', ts)
    .addColumn('ends_at', ts)
    .addColumn('max_uses', 'integer')
    .addColumn('once_per_customer', bool, (c) => c.notNull().defaultTo(trueValue))
    .addColumn('first_time_only', bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('is_active', bool, (c) => c.notNull().defaultTo(trueValue))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('promo_code_workshops')
    .addColumn('promo_code_id', 'integer', (c) => c.notNull().references('promo_codes.id').onDelete('cascade'))
    .addColumn('workshop_id', 'integer', (c) => c.notNull().references('workshops.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('promo_code_workshops_pk', ['promo_code_id', 'workshop_id'])
    .execute();
  await db.schema.alterTable('records').addColumn('promo_code_id', 'integer').execute();
  await db.schema
    .alterTable('records')
    .addColumn('discount', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('records_promo_code_idx').on('records').columns(['promo_code_id', 'state']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('records_promo_code_idx').execute();
  await db.schema.alterTable('records').dropColumn('discount').execute();
  await db.schema.alterTable('records').dropColumn('promo_code_id').execute();
  await db.schema.dropTable('promo_code_workshops').execute();
  await db.schema.dropTable('promo_codes').execute();
}
