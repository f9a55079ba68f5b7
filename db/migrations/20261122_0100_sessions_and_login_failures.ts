import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * users.token_version: bumped by a password change or reset, so every access token signed before it
 * stops working. login_failures: failed logins per email, for the per-account limit that holds
 * however many addresses an attacker rotates through.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .alterTable('users')
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('login_failures')
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_email_at_idx').on('login_failures').columns(['email', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_failures').execute();
  await db.schema.alterTable('users').dropColumn('token_version').execute();
}
