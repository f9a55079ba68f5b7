import type { Selectable } from 'kysely';
import { nowIso, type Dialect, type Executor } from '../database';
import type { NotificationsTable } from '../schema';

export interface OutboxRow {
  chat_id: number;
  kind: string;
  payload: object;
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

export type NotificationRow = Selectable<NotificationsTable>;

/**
 * Claims up to `limit` due rows for one worker, atomically: a claimed row gets a lease
 * (`locked_until`) and no other worker takes it before the lease runs out, so a row is sent by
 * one worker at a time, and a crashed worker's rows are retried once their lease expires.
 * PostgreSQL: FOR UPDATE SKIP LOCKED lets concurrent workers take disjoint rows without waiting;
 * SQLite: the UPDATE runs inside BEGIN IMMEDIATE (the caller's write transaction), which
 * serializes claimers.
 */
export async function claimDueNotifications(
  db: Executor,
  dialect: Dialect,
  opts: { now: string; leaseUntil: string; limit: number },
) {
  const due = db
    .selectFrom('notifications')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', opts.now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', opts.now)]))
    .orderBy('id')
    .limit(opts.limit);
  const rows = await db
    .updateTable('notifications')
    .set({ locked_until: opts.leaseUntil })
    .where('id', 'in', dialect === 'postgres' ? due.forUpdate().skipLocked() : due)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** Delivered: never sent again. Only the holder of the lease may finish a row. */
export const markNotificationSent = (db: Executor, id: number, lease: string, now: string) =>
  db
    .updateTable('notifications')
    .set((eb) => ({
      status: 'sent',
      sent_at: now,
      attempts: eb('attempts', '+', 1),
      locked_until: null,
      last_error: null,
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('locked_until', '=', lease)
    .execute();

/** Failed for good (the user blocked the bot, a bad request, or too many attempts). */
export const markNotificationFailed = (db: Executor, id: number, lease: string, error: string) =>
  db
    .updateTable('notifications')
    .set((eb) => ({
      status: 'failed',
      attempts: eb('attempts', '+', 1),
      locked_until: null,
      last_error: error.slice(0, 1000),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('locked_until', '=', lease)
    .execute();

/** Tried again at `nextAttemptAt`; `countAttempt: false` for rate limits (429), which are not the row's fault. */
export const rescheduleNotification = (
  db: Executor,
  id: number,
  lease: string,
  nextAttemptAt: string,
  error: string | null,
  countAttempt = true,
) =>
  db
    .updateTable('notifications')
    .set((eb) => ({
      attempts: countAttempt ? eb('attempts', '+', 1) : eb.ref('attempts'),
      next_attempt_at: nextAttemptAt,
      locked_until: null,
      last_error: error?.slice(0, 1000) ?? null,
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('locked_until', '=', lease)
    .execute();

/** Rows of one chat, oldest first (tests and diagnostics). */
export const listNotifications = (db: Executor, filter: { chat_id?: number; kind?: string } = {}) => {
  let q = db.selectFrom('notifications').selectAll().orderBy('id');
  if (filter.chat_id !== undefined) q = q.where('chat_id', '=', filter.chat_id);
  if (filter.kind !== undefined) q = q.where('kind', '=', filter.kind);
  return q.execute();
};

/** Which of these dedupe keys already have a row. */
export async function existingDedupeKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('notifications').select('dedupe_key').where('dedupe_key', 'in', keys).execute();
  return new Set(rows.map((r) => r.dedupe_key!));
}
