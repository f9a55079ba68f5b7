import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/** Check-in: whether an ACTIVE booking's party came; null until staff mark it. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('records')
    .addColumn('attendance', 'varchar(16)', (c) => c.check(sql`attendance in ('ATTENDED', 'NO_SHOW')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('records').dropColumn('attendance').execute();
}
