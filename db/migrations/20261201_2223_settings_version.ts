import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * The settings' version row (db/repositories/business-settings.ts): every write of the settings gives it
 * a new value, so a process reads the settings again only when it changed. Each database starts with its
 * own, so no two databases ever share one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('business_settings')
    .values({ key: '~version', value: randomUUID() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('business_settings').where('key', '=', '~version').execute();
}
