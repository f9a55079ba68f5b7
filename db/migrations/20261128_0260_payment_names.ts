import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * Each ledger row keeps who and what it was for (the customer's name, the workshop's title, the session's
 * start) as they were when it was written, so the cash desk still names it after its booking or session
 * is gone. Rows of bookings that still exist are filled from them; earlier rows of gone bookings stay unnamed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('payments')
    .addColumn('customer_name', 'text')
    .execute();
  await db.schema.alterTable('payments').addColumn('workshop_title', 'text').execute();
  await db.schema
    .alterTable('payments')
    .addColumn('session_date', pg ? sql`timestamptz` : sql`text`)
    .execute();
  const ofRecord = (column: ReturnType<typeof sql>) =>
    sql`(select ${column} from records r join schedules s on s.id = r.schedule_id join workshops w on w.id = s.workshop_id where r.id = payments.record_id)`;
  await sql`update payments set
      customer_name = ${ofRecord(sql`case when r.last_name is null or r.last_name = '' then r.name else r.name || ' ' || r.last_name end`)},
      workshop_title = ${ofRecord(sql`w.title`)},
      session_date = ${ofRecord(sql`s.date`)}
    where record_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['customer_name', 'workshop_title', 'session_date'])
    await db.schema.alterTable('payments').dropColumn(column).execute();
}
