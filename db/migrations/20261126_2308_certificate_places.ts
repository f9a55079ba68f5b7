import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Certificates for "N places on any workshop": a certificate is of kind `amount` (RSD, as before) or
 * `places` (how many people it pays for, `places`; `amount` is then what the buyer paid). Each entry of
 * a places certificate's ledger records the change of places (`places`) beside the RSD value it
 * covered (`amount`, for the cash desk); an amount certificate's entries leave `places` null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('certificates')
    .addColumn('kind', 'varchar(8)', (c) => c.notNull().defaultTo('amount').check(sql`kind in ('amount', 'places')`))
    .execute();
  await db.schema
    .alterTable('certificates')
    .addColumn('places', 'integer', (c) => c.check(sql`places is null or places between 1 and 20`))
    .execute();
  await db.schema.alterTable('certificate_entries').addColumn('places', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('certificate_entries').dropColumn('places').execute();
  await db.schema.alterTable('certificates').dropColumn('places').execute();
  await db.schema.alterTable('certificates').dropColumn('kind').execute();
}
