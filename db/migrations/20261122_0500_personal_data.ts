import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Personal data with a lifecycle: a booking records when its customer consented and to which
 * version of the privacy text, and when its personal values were erased (by the customer's
 * /forget or by retention), so retention finds what is left to erase without scanning everything.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema.alterTable('records').addColumn('consent_at', ts).execute();
  await db.schema.alterTable('records').addColumn('consent_version', 'varchar(64)').execute();
  // Set once the allergy and comment are erased, then once everything personal is.
  await db.schema.alterTable('records').addColumn('health_erased_at', ts).execute();
  await db.schema.alterTable('records').addColumn('anonymised_at', ts).execute();
  await db.schema.createIndex('notifications_sent_idx').on('notifications').columns(['status', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notifications_sent_idx').execute();
  for (const c of ['anonymised_at', 'health_erased_at', 'consent_version', 'consent_at'])
    await db.schema.alterTable('records').dropColumn(c).execute();
}
