import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * A session's seats taken (the sum of its ACTIVE bookings' people, read by every booking under the
 * session's lock) come from the index alone: it carries people_count beside (schedule_id, state), so no
 * booking row is read. It replaces the index on (schedule_id, state), which it serves as well.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('records_schedule_state_people_idx')
    .on('records')
    .columns(['schedule_id', 'state', 'people_count'])
    .execute();
  await db.schema.dropIndex('records_schedule_state_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('records_schedule_state_idx').on('records').columns(['schedule_id', 'state']).execute();
  await db.schema.dropIndex('records_schedule_state_people_idx').execute();
}
