import { nowIso, type Executor } from '../database';

export interface OutboxRow {
  chat_id: number;
  kind: string;
  payload: unknown;
  /** Rows with the same key are written once at most. */
  dedupe_key?: string;
}

/** Writes outbox rows; call it inside the transaction of the change that causes them. */
export async function enqueueNotifications(db: Executor, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  const now = nowIso();
  await db
    .insertInto('notifications')
    .values(
      rows.map((r) => ({
        chat_id: r.chat_id,
        kind: r.kind,
        payload: JSON.stringify(r.payload),
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        last_error: null,
        dedupe_key: r.dedupe_key ?? null,
        created_at: now,
        sent_at: null,
      })),
    )
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}
