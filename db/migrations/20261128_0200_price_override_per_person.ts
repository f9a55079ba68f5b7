import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * A staff price is per person from now on, so it follows the party. An override set before was the
 * booking's total: one that divides by the party becomes that per-person price; one that does not
 * stays a total, with the party it was set for (price_override_party), so no booking's price moves
 * now and a later party change scales it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('records').addColumn('price_override_party', 'integer').execute();
  await db
    .updateTable('records')
    .set({ price_override_party: sql`people_count` })
    .where('price_override', 'is not', null)
    .where(sql<boolean>`price_override % people_count <> 0`)
    .execute();
  await db
    .updateTable('records')
    .set({ price_override: sql`price_override / people_count` })
    .where('price_override', 'is not', null)
    .where('price_override_party', 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('records')
    .set({ price_override: sql`price_override * people_count` })
    .where('price_override', 'is not', null)
    .where('price_override_party', 'is', null)
    .execute();
  await db.schema.alterTable('records').dropColumn('price_override_party').execute();
}
