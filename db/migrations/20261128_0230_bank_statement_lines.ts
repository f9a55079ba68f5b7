import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * The credit lines of bank statements staff import. Each line is kept once by its key (the bank's
 * transaction id, else a hash of its date, amount, reference and payer), so a statement imported twice,
 * or twice at once, records nothing twice. A line matched by its IPS reference points at the ledger row
 * it became; an unmatched one waits for staff to attach it to a booking or dismiss it with a reason.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('bank_statement_lines')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('line_key', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('booked_on', 'varchar(10)', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('payer', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) =>
      c.notNull().check(sql`status in ('matched', 'unmatched', 'attached', 'dismissed')`),
    )
    .addColumn('record_id', 'integer')
    .addColumn('certificate_id', 'integer')
    .addColumn('payment_id', 'integer')
    .addColumn('dismiss_reason', 'text')
    .addColumn('imported_by_user_id', 'integer')
    .addColumn('imported_at', ts, (c) => c.notNull())
    .addColumn('resolved_by_user_id', 'integer')
    .addColumn('resolved_at', ts)
    .execute();
  await db.schema.createIndex('bank_statement_lines_status_idx').on('bank_statement_lines').column('status').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bank_statement_lines').execute();
}
