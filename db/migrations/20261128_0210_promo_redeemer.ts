import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Who redeemed a booking's promo code: the Telegram customer it was booked for, kept when the seat is
 * given to a friend, so "once per customer" and "first visit only" count the redeemer. Bookings made
 * before were not given away unless the log says so; their owner is the best guess.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('records')
    .addColumn('promo_telegram_id', pg ? sql`bigint` : sql`integer`)
    .execute();
  await db
    .updateTable('records')
    .set({ promo_telegram_id: sql`telegram_id` })
    .where('promo_code_id', 'is not', null)
    .execute();
  await db.schema.createIndex('records_promo_telegram_idx').on('records').column('promo_telegram_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('records_promo_telegram_idx').execute();
  await db.schema.alterTable('records').dropColumn('promo_telegram_id').execute();
}
