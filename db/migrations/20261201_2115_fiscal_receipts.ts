import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Fiscal receipts (Serbian e-fiscalization): the fiscal outbox and the receipts it got. A row is
 * written in the transaction of the ledger row (or the delivery) it fiscalizes, kept once by its key,
 * and sent to the PFR with its own RequestId until the PFR answers; the PFR's answer (invoice number,
 * verification URL and QR, journal) is kept on the row. In manual mode staff type the number.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;
  await db.schema
    .createTable('fiscal_receipts')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('receipt_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(24)', (c) => c.notNull())
    .addColumn('invoice_type', 'varchar(12)', (c) =>
      c.notNull().check(sql`invoice_type in ('Normal', 'Advance', 'Copy', 'Training', 'Proforma')`),
    )
    .addColumn('transaction_type', 'varchar(8)', (c) => c.notNull().check(sql`transaction_type in ('Sale', 'Refund')`))
    .addColumn('payment_id', 'integer')
    .addColumn('record_id', 'integer')
    .addColumn('certificate_id', 'integer')
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('payment_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('covers', 'text')
    .addColumn('esir_time', ts, (c) => c.notNull())
    .addColumn('referent_receipt_id', 'integer')
    .addColumn('buyer_id', 'varchar(40)')
    .addColumn('request_id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('request', 'text')
    .addColumn('mode', 'varchar(8)', (c) => c.notNull().check(sql`mode in ('lpfr', 'manual')`))
    .addColumn('training', bool, (c) => c.notNull().defaultTo(pg ? sql`false` : 0))
    .addColumn('state', 'varchar(12)', (c) =>
      c.notNull().check(sql`state in ('waiting', 'needs_buyer', 'issued', 'refused')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('locked_until', ts)
    .addColumn('last_error', 'text')
    .addColumn('invoice_number', 'varchar(64)')
    .addColumn('invoice_counter', 'varchar(32)')
    .addColumn('sdc_time', ts)
    .addColumn('verification_url', 'text')
    .addColumn('verification_qr', 'text')
    .addColumn('journal', 'text')
    .addColumn('total_amount', 'integer')
    .addColumn('issued_by_user_id', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('issued_at', ts)
    .execute();
  await db.schema.createIndex('fiscal_receipts_due_idx').on('fiscal_receipts').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('fiscal_receipts_payment_idx').on('fiscal_receipts').column('payment_id').execute();
  await db.schema.createIndex('fiscal_receipts_record_idx').on('fiscal_receipts').column('record_id').execute();
  await db.schema.createIndex('fiscal_receipts_issued_idx').on('fiscal_receipts').column('issued_at').execute();
  // The sender's view of the PFR, one row: the current state (PIN required, unreachable) since when,
  // and whether staff were told of it and of anything in this outage (until the PFR answers again),
  // so the instances alert once together.
  await db.schema
    .createTable('fiscal_health')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('state', 'varchar(16)', (c) => c.notNull().check(sql`state in ('ok', 'pin_required', 'unreachable')`))
    .addColumn('since', ts)
    .addColumn('alerted', bool, (c) => c.notNull().defaultTo(pg ? sql`false` : 0))
    .addColumn('outage_alerted', bool, (c) => c.notNull().defaultTo(pg ? sql`false` : 0))
    .addColumn('last_error', 'text')
    // The configured PIN: when an instance last entered it, and whether the PFR refused it in this
    // outage (then no instance enters it again before the outage ends: wrong PINs lock the card).
    .addColumn('pin_attempt_at', ts)
    .addColumn('pin_refused', bool, (c) => c.notNull().defaultTo(pg ? sql`false` : 0))
    .addColumn('updated_at', ts)
    .execute();
  await db
    .insertInto('fiscal_health')
    .values({ id: 1, state: 'ok', alerted: pg ? false : 0, outage_alerted: pg ? false : 0, pin_refused: pg ? false : 0 })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fiscal_health').execute();
  await db.schema.dropTable('fiscal_receipts').execute();
}
