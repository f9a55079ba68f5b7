import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Gift certificates. A certificate's balance is the sum of its own ledger (certificate_entries, only
 * appended: sale +, redemption −, return +, expiry and void −); the money paid for it is a row of
 * the studio's payments ledger without a booking (payment_id), so the cash desk counts the sale and a
 * Telegram charge id is recorded once. A booking paid from a certificate remembers it
 * (records.certificate_id) and its payments rows of method certificate say how much.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('certificates')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('code', 'varchar(12)', (c) => c.notNull().unique())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('buyer_name', 'text')
    .addColumn('buyer_telegram_id', bigint)
    .addColumn('recipient_name', 'text')
    .addColumn('greeting', 'text')
    .addColumn('recipient_telegram_id', bigint)
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer')
    .addColumn('paid_at', ts)
    .addColumn('pay_method', 'varchar(16)', (c) =>
      c.check(sql`pay_method is null or pay_method in ('cash', 'card', 'bank_transfer', 'telegram')`),
    )
    .addColumn('payment_id', 'integer')
    .addColumn('voided_at', ts)
    .addColumn('void_reason', 'text')
    .addColumn('reminded_at', ts)
    .addColumn('expired_at', ts)
    .execute();
  await db.schema.createIndex('certificates_expires_idx').on('certificates').column('expires_at').execute();
  await db.schema.createIndex('certificates_buyer_idx').on('certificates').column('buyer_telegram_id').execute();
  await db.schema.createIndex('certificates_recipient_idx').on('certificates').column('recipient_telegram_id').execute();

  await db.schema
    .createTable('certificate_entries')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('certificate_id', 'integer', (c) => c.notNull().references('certificates.id'))
    .addColumn('kind', 'varchar(16)', (c) =>
      c.notNull().check(sql`kind in ('sale', 'redemption', 'return', 'expiry', 'void')`),
    )
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('record_id', 'integer')
    .addColumn('payment_id', 'integer')
    .addColumn('note', 'text')
    .addColumn('recorded_by_kind', 'varchar(16)', (c) =>
      c.notNull().check(sql`recorded_by_kind in ('staff', 'customer', 'system')`),
    )
    .addColumn('recorded_by_user_id', 'integer')
    .addColumn('at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('certificate_entries_certificate_idx')
    .on('certificate_entries')
    .column('certificate_id')
    .execute();
  await db.schema.createIndex('certificate_entries_at_idx').on('certificate_entries').column('at').execute();
  await db.schema.createIndex('certificate_entries_record_idx').on('certificate_entries').column('record_id').execute();

  await db.schema.alterTable('records').addColumn('certificate_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('records').dropColumn('certificate_id').execute();
  await db.schema.dropTable('certificate_entries').execute();
  await db.schema.dropTable('certificates').execute();
}
