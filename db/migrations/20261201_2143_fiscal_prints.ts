import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * When a receipt was first printed from the admin: that print is the original, every later one a
 * copy, marked «ОВО НИЈЕ ФИСКАЛНИ РАЧУН».
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('fiscal_receipts')
    .addColumn('printed_at', pg ? sql`timestamptz` : sql`text`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('fiscal_receipts').dropColumn('printed_at').execute();
}
