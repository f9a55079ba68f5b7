import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Money. A booking's price is fixed when it is made (unit_price: the workshop's price then; staff may
 * override the total with a reason) and pay_by is the end of its seat hold. payments is the ledger,
 * only ever appended: a correction is a new row. Its record_id has no foreign key on purpose: the
 * studio's books keep a row after its booking or session is deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;

  await db.schema
    .alterTable('records')
    .addColumn('unit_price', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('records').addColumn('price_override', 'integer').execute();
  await db.schema.alterTable('records').addColumn('price_override_reason', 'text').execute();
  await db.schema.alterTable('records').addColumn('pay_by', ts).execute();
  // Bookings made before prices were fixed take the workshop's price of today.
  await db
    .updateTable('records')
    .set({
      unit_price: sql`(select w.price from schedules s join workshops w on w.id = s.workshop_id where s.id = records.schedule_id)`,
    })
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('record_id', 'integer')
    .addColumn('telegram_id', bigint)
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('method', 'varchar(16)', (c) =>
      c.notNull().check(sql`method in ('cash', 'card', 'bank_transfer', 'telegram', 'credit', 'certificate')`),
    )
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind in ('payment', 'refund', 'adjustment')`))
    .addColumn('recorded_by_kind', 'varchar(16)', (c) =>
      c.notNull().check(sql`recorded_by_kind in ('staff', 'customer', 'system')`),
    )
    .addColumn('recorded_by_user_id', 'integer')
    .addColumn('telegram_payment_charge_id', 'varchar(255)', (c) => c.unique())
    .addColumn('provider_payment_charge_id', 'varchar(255)')
    .addColumn('note', 'text')
    .addColumn('at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_record_idx').on('payments').column('record_id').execute();
  await db.schema.createIndex('payments_telegram_idx').on('payments').column('telegram_id').execute();
  await db.schema.createIndex('payments_at_idx').on('payments').column('at').execute();
  await db.schema.createIndex('records_pay_by_idx').on('records').column('pay_by').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('records_pay_by_idx').execute();
  await db.schema.dropTable('payments').execute();
  for (const c of ['pay_by', 'price_override_reason', 'price_override', 'unit_price'])
    await db.schema.alterTable('records').dropColumn(c).execute();
}
