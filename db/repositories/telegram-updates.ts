import type { Executor } from '../database';

/**
 * What taking a webhook update gives: `take` (this caller handles it now, its `attempt`-th try),
 * `done` (handled already, or given up after its last attempt: answer Telegram 200) or `busy`
 * (another caller is handling it right now: Telegram should send it again later).
 */
export type UpdateTake = { status: 'take'; attempt: number } | { status: 'done' } | { status: 'busy' };

/**
 * Takes a webhook update id for `leaseMs`. The first caller takes it; a later caller takes it again
 * only when it was not handled and its lease ran out (the handler failed, or its process died), until
 * `maxAttempts`. Each step is one atomic statement, so two instances never take it at once.
 */
export async function takeUpdate(
  db: Executor,
  updateId: number,
  now: Date,
  leaseMs: number,
  maxAttempts: number,
): Promise<UpdateTake> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const first = await db
    .insertInto('telegram_updates')
    .values({ update_id: updateId, received_at: at, lease_until: until, attempts: 1 })
    .onConflict((oc) => oc.column('update_id').doNothing())
    .returning('update_id')
    .executeTakeFirst();
  if (first) return { status: 'take', attempt: 1 };
  const again = await db
    .updateTable('telegram_updates')
    .set((eb) => ({ lease_until: until, attempts: eb('attempts', '+', 1) }))
    .where('update_id', '=', updateId)
    .where('handled_at', 'is', null)
    .where('lease_until', '<=', at)
    .where('attempts', '<', maxAttempts)
    .returning('attempts')
    .executeTakeFirst();
  if (again) return { status: 'take', attempt: again.attempts };
  const row = await db
    .selectFrom('telegram_updates')
    .select(['handled_at', 'attempts', 'lease_until'])
    .where('update_id', '=', updateId)
    .executeTakeFirst();
  if (!row || row.handled_at !== null || row.attempts >= maxAttempts) return { status: 'done' };
  return { status: 'busy' };
}

/** The handler finished: the update is never handled again. */
export const markUpdateHandled = (db: Executor, updateId: number, at: string) =>
  db.updateTable('telegram_updates').set({ handled_at: at }).where('update_id', '=', updateId).execute();

/** The handler failed: the next delivery of the update may take it at once. */
export const releaseUpdate = (db: Executor, updateId: number, at: string) =>
  db
    .updateTable('telegram_updates')
    .set({ lease_until: at })
    .where('update_id', '=', updateId)
    .where('handled_at', 'is', null)
    .execute();

/** Forgets the update ids taken before `before` (ISO). */
export const pruneUpdates = (db: Executor, before: string) =>
  db.deleteFrom('telegram_updates').where('received_at', '<', before).execute();
