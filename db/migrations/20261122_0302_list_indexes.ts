import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/** The paged lists: sessions of one workshop by date; the audit log by actor is rare and left out. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('schedules_workshop_date_idx').on('schedules').columns(['workshop_id', 'date']).execute();
  await db.schema.createIndex('records_attendance_idx').on('records').columns(['telegram_id', 'attendance']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('records_attendance_idx').execute();
  await db.schema.dropIndex('schedules_workshop_date_idx').execute();
}
