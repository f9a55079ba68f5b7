import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Staff roles instead of the single flag: owner (everything; is_superuser stays and means owner),
 * manager (everything but users and business settings), host (the day's sessions at the door).
 * Superusers become owners, everyone else a manager.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'varchar(16)', (c) =>
      c.notNull().defaultTo('manager').check(sql`role in ('owner', 'manager', 'host')`),
    )
    .execute();
  await db
    .updateTable('users')
    .set({ role: 'owner' })
    .where(sql<boolean>`is_superuser = true`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('role').execute();
}
