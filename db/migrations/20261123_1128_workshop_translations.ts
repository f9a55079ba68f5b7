import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/** A workshop's title and description in English and Serbian, optional: customers see the Russian ones without them. */
const COLUMNS = ['title_en', 'title_sr', 'description_en', 'description_sr'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('workshops').addColumn(column, 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [...COLUMNS].reverse()) await db.schema.alterTable('workshops').dropColumn(column).execute();
}
