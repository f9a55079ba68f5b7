import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * A certificate bought in Telegram is named in its invoice by a random token, not its id: the invoice
 * link is made before the certificate is written (so no write lock is held while Telegram answers),
 * and the payment finds the certificate by the token. Certificates bought before keep `cert:<id>`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('certificates').addColumn('invoice_token', 'varchar(32)').execute();
  await db.schema
    .createIndex('certificates_invoice_token_key')
    .on('certificates')
    .column('invoice_token')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('certificates_invoice_token_key').execute();
  await db.schema.alterTable('certificates').dropColumn('invoice_token').execute();
}
