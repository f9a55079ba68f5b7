import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * A booking staff made for a customer without the customer's agreement to pay from their studio credit
 * never spends it (not when made, promoted or restored). Bookings before this spent it, as they did.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('records')
    .addColumn('credit_declined', pg ? sql`boolean` : sql`integer`, (c) => c.notNull().defaultTo(pg ? false : 0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('records').dropColumn('credit_declined').execute();
}
