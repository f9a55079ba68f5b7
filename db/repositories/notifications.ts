import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import { advisoryKey, nowIso, type Dialect, type Executor } from '../database';
import { prepared } from '../prepared';
import type { DB, NotificationsTable } from '../schema';

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
  if (rows.length === 1) {
    // The usual case (a booking's message to its customer), as one statement prepared once.
    const [r] = rows;
    await enqueueOne(db, r.chat_id, r.kind, JSON.stringify(r.payload), now, r.dedupe_key ?? null);
    return;
  }
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

const enqueueOne = prepared(
  (db: Executor, chat_id: number, kind: string, payload: string, now: string, dedupe_key: string | null) =>
    db
      .insertInto('notifications')
      .values({
        chat_id,
        kind,
        payload,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        last_error: null,
        dedupe_key,
        created_at: now,
        sent_at: null,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing()),
);

export type NotificationRow = Selectable<NotificationsTable>;

export interface ClaimOptions {
  now: string;
  leaseUntil: string;
  limit: number;
  /** Who claims: only this worker extends, finishes or releases the rows. */
  worker?: string;
  /** Rows of one chat claimed at a time (the oldest due ones); a flood in one chat cannot fill a claim. */
  perChat?: number;
  /** Kinds claimed after every other due row (reminders, digests): they never delay a confirmation. */
  bulkKinds?: readonly string[];
}

/**
 * Claims up to `limit` due rows for one worker, atomically: a claimed row gets a lease
 * (`locked_until`) and its claimer (`claimed_by`); no other worker takes it before the lease runs
 * out, so a row is sent by one worker at a time, and a crashed worker's rows are retried once their
 * lease expires. A chat's messages keep their order: a row is not claimed while an earlier row of
 * its chat is still pending and either claimed or waiting for its retry. Claims are serialized
 * (SQLite: the caller's BEGIN IMMEDIATE; PostgreSQL: a transaction-level advisory lock), so two
 * claimers never both take rows of one chat.
 */
export async function claimDueNotifications(
  db: Executor,
  dialect: Dialect,
  opts: ClaimOptions,
): Promise<NotificationRow[]> {
  if (dialect === 'postgres' && !db.isTransaction)
    return db.transaction().execute((trx) => claimDueNotifications(trx, dialect, opts));
  if (dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(${advisoryKey(db, 'outbox-claim', OUTBOX_CLAIM_LOCK)})`.execute(db);
  const { now } = opts;
  const free = (eb: ExpressionBuilder<DB, 'notifications'>) =>
    eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]);
  const eligible = db
    .selectFrom('notifications as n')
    .select(['n.id', 'n.kind', sql<number>`row_number() over (partition by n.chat_id order by n.id)`.as('rn')])
    .where('n.status', '=', 'pending')
    .where('n.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('n.locked_until', 'is', null), eb('n.locked_until', '<=', now)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notifications as p')
            .select('p.id')
            .whereRef('p.chat_id', '=', 'n.chat_id')
            .whereRef('p.id', '<', 'n.id')
            .where('p.status', '=', 'pending')
            .where((eb) => eb.or([eb('p.next_attempt_at', '>', now), eb('p.locked_until', '>', now)])),
        ),
      ),
    );
  let chosen = db
    .selectFrom(eligible.as('e'))
    .select('e.id')
    .where('e.rn', '<=', opts.perChat ?? opts.limit);
  const bulk = opts.bulkKinds ?? [];
  if (bulk.length > 0)
    chosen = chosen.orderBy(
      sql`case when ${sql.ref('e.kind')} in (${sql.join(bulk.map((k) => sql.lit(k)))}) then 1 else 0 end`,
    );
  const rows = await db
    .updateTable('notifications')
    .set({ locked_until: opts.leaseUntil, claimed_by: opts.worker ?? null })
    .where('id', 'in', chosen.orderBy('e.id').limit(opts.limit))
    // Checked again on the row itself: a row finished by another worker meanwhile is not taken.
    .where('status', '=', 'pending')
    .where(free)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Whether any row is due and unclaimed (of another kind than `exceptKinds`): a plain read, so an idle
 * worker takes no write lock to find out.
 */
export async function anyDueNotification(
  db: Executor,
  now: string,
  exceptKinds: readonly string[] = [],
): Promise<boolean> {
  let q = db
    .selectFrom('notifications')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]));
  if (exceptKinds.length > 0) q = q.where('kind', 'not in', exceptKinds);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

/** Any fixed number: the key of the advisory lock that serializes outbox claims on PostgreSQL. */
const OUTBOX_CLAIM_LOCK = 7_201_326;
/** Another: held (session-level) by the one instance that sends for the whole bot on PostgreSQL. */
const OUTBOX_SENDER_LOCK = 7_201_327;

/**
 * Runs `fn` on one connection of its own while this process holds the bot's sender lock (PostgreSQL),
 * or returns `{ led: false }` at once when another instance holds it. The lock is the connection's:
 * it ends with the process (even on kill -9, when PostgreSQL closes the session) and is released when
 * `fn` returns. Whatever `fn` runs on the connection it is given fails once the lock is lost with it.
 */
export function whileSender<T>(db: Kysely<DB>, fn: (conn: Kysely<DB>) => Promise<T>) {
  return db.connection().execute(async (conn): Promise<{ led: true; value: T } | { led: false }> => {
    const { rows } = await sql<{
      got: boolean;
    }>`select pg_try_advisory_lock(${advisoryKey(conn, 'outbox-sender', OUTBOX_SENDER_LOCK)}) as got`.execute(conn);
    if (!rows[0]?.got) return { led: false };
    try {
      return { led: true, value: await fn(conn) };
    } finally {
      await sql`select pg_advisory_unlock(${advisoryKey(conn, 'outbox-sender', OUTBOX_SENDER_LOCK)})`
        .execute(conn)
        .catch(() => undefined);
    }
  });
}

/** Chats other workers sent to since `since`, and when last (what a worker that takes over paces by). */
export async function recentSends(
  db: Executor,
  since: string,
  exceptWorker: string,
): Promise<{ chat_id: number; sent_at: string }[]> {
  const rows = await db
    .selectFrom('notifications')
    .select(['chat_id', (eb) => eb.fn.max('sent_at').as('sent_at')])
    .where('status', '=', 'sent')
    .where('sent_at', '>', since)
    .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_by', '!=', exceptWorker)]))
    .groupBy('chat_id')
    .execute();
  return rows.map((r) => ({ chat_id: Number(r.chat_id), sent_at: String(r.sent_at) }));
}

/**
 * Telegram limited the whole bot: no pending row is due before `until`, whichever instance looks
 * (rows due later keep their time).
 */
export const postponeDue = (db: Executor, until: string) =>
  db
    .updateTable('notifications')
    .set({ next_attempt_at: until })
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<', until)
    .execute();

/** Heartbeat: the worker still holds these claims; returns how many rows it extended. */
export async function extendClaims(db: Executor, worker: string, ids: number[], leaseUntil: string): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db
    .updateTable('notifications')
    .set({ locked_until: leaseUntil })
    .where('id', 'in', ids)
    .where('claimed_by', '=', worker)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Gives rows back unsent (all of the worker's claims without `ids`), at once due for anyone. */
export const releaseClaims = (db: Executor, worker: string, ids?: number[]) => {
  let q = db
    .updateTable('notifications')
    .set({ locked_until: null, claimed_by: null })
    .where('claimed_by', '=', worker)
    .where('status', '=', 'pending');
  if (ids) {
    if (ids.length === 0) return Promise.resolve();
    q = q.where('id', 'in', ids);
  }
  return q.execute();
};

/**
 * Delivered: never sent again. Only the worker holding the claim may finish a row; it stays named as
 * the sender. Built once per schema (prepared): a broadcast runs it for every message.
 */
export const markNotificationSent = prepared((db: Executor, id: number, worker: string, now: string) =>
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
    .where('claimed_by', '=', worker),
);

/** Failed for good (the user blocked the bot, a bad request, or too many attempts). */
export const markNotificationFailed = (db: Executor, id: number, worker: string, error: string) =>
  db
    .updateTable('notifications')
    .set((eb) => ({
      status: 'failed',
      attempts: eb('attempts', '+', 1),
      locked_until: null,
      claimed_by: null,
      last_error: error.slice(0, 1000),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('claimed_by', '=', worker)
    .execute();

/** Tried again at `nextAttemptAt`; `countAttempt: false` for rate limits (429), which are not the row's fault. */
export const rescheduleNotification = (
  db: Executor,
  id: number,
  worker: string,
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
      claimed_by: null,
      last_error: error?.slice(0, 1000) ?? null,
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('claimed_by', '=', worker)
    .execute();

/** The outbox's backlog: rows not yet sent nor failed (due or waiting for a retry) and the age of the oldest. */
export async function outboxBacklog(db: Executor): Promise<{ pending: number; oldest_age_s: number | null }> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  const oldest = row.oldest === null ? null : Date.parse(String(row.oldest));
  return {
    pending: Number(row.pending),
    oldest_age_s: oldest === null ? null : Math.max(0, (Date.now() - oldest) / 1000),
  };
}

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
