import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// The studio's settings as key → JSON value: a new setting needs no migration, a missing key reads as its default.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('business_settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('business_settings').execute();
}
