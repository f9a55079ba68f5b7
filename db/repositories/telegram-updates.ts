import type { Executor } from '../database';

/**
 * Takes a webhook update id: true for the first caller, false for every later one (Telegram
 * sending it again, to this or another instance). Atomic on both databases (the primary key).
 */
export async function takeUpdate(db: Executor, updateId: number, at: string): Promise<boolean> {
  const rows = await db
    .insertInto('telegram_updates')
    .values({ update_id: updateId, received_at: at })
    .onConflict((oc) => oc.column('update_id').doNothing())
    .returning('update_id')
    .execute();
  return rows.length === 1;
}

/** Forgets the update ids taken before `before` (ISO). */
export const pruneUpdates = (db: Executor, before: string) =>
  db.deleteFrom('telegram_updates').where('received_at', '<', before).execute();
