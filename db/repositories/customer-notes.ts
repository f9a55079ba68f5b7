import { nowIso, type Executor } from '../database';

/** Staff's notes about customers, by Telegram id. */

export const getCustomerNote = (db: Executor, telegramId: number) =>
  db.selectFrom('customer_notes').selectAll().where('telegram_id', '=', telegramId).executeTakeFirst();

/** The notes of these customers, by Telegram id (customers without one are absent). */
export async function notesOf(db: Executor, telegramIds: (number | null)[]): Promise<Map<number, string>> {
  const ids = [...new Set(telegramIds.filter((x): x is number => x !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('customer_notes')
    .select(['telegram_id', 'note'])
    .where('telegram_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [Number(r.telegram_id), r.note]));
}

export async function saveCustomerNote(db: Executor, telegramId: number, note: string, userId: number | null) {
  const values = { note, updated_by: userId, updated_at: nowIso() };
  return db
    .insertInto('customer_notes')
    .values({ telegram_id: telegramId, ...values })
    .onConflict((oc) => oc.column('telegram_id').doUpdateSet(values))
    .returning('id')
    .executeTakeFirstOrThrow();
}

export const deleteCustomerNote = (db: Executor, telegramId: number) =>
  db.deleteFrom('customer_notes').where('telegram_id', '=', telegramId).executeTakeFirst();

/** Notes of customers with no booking of a session since `before`: retention deletes them with the rest. */
export const deleteNotesInactiveSince = (db: Executor, before: string) =>
  db
    .deleteFrom('customer_notes')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('records as r')
            .innerJoin('schedules as s', 's.id', 'r.schedule_id')
            .select('r.id')
            .whereRef('r.telegram_id', '=', 'customer_notes.telegram_id')
            .where('s.date', '>=', before),
        ),
      ),
    )
    .executeTakeFirst();
