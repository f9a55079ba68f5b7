import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import type { DB } from '../../db/schema';
import { withWriteTransaction } from '../../db/lock';
import {
  anyDueNotification,
  claimDueNotifications,
  extendClaims,
  markNotificationFailed,
  markNotificationSent,
  postponeDue,
  recentSends,
  releaseClaims,
  rescheduleNotification,
  whileSender,
  type NotificationRow,
} from '../../db/repositories/notifications';
import type { Log } from '../../core/kernel/log';
import type { Clock } from './clock';

/*
 * Claims: the database side of delivery. Rows are claimed atomically with a lease (locked_until) in
 * this worker's name (claimed_by), so a row is sent by one worker at a time; a heartbeat extends the
 * lease of held rows; rows not sent are given back; a crashed worker's rows are taken again when their
 * lease runs out. The writes that finish a row are retried, since a lost one means a second send.
 *
 * On PostgreSQL one instance at a time is the bot's sender (whileSender: a session advisory lock);
 * its claims and heartbeats run on the lock's own connection, so a sender that lost the lock can
 * neither claim nor keep its leases. SQLite is one instance: it always sends.
 */

export interface Claims {
  /**
   * Runs `fn` while this worker may send for the bot, with the executor its claims run on; `led:
   * false` when another instance sends.
   */
  asSender<T>(fn: (ctl: Kysely<DB>) => Promise<T>): Promise<{ led: true; value: T } | { led: false }>;
  /** Whether a row is due and unclaimed; `urgentOnly`: one of a kind not written in bulk. */
  anyDue(ctl: Kysely<DB>, now: number, urgentOnly?: boolean): Promise<boolean>;
  claim(ctl: Kysely<DB>, now: number, limit: number): Promise<NotificationRow[]>;
  /** Extends the lease of these rows to `until`. */
  extend(ctl: Kysely<DB>, ids: number[], until: number): Promise<void>;
  /** Sends to chats since `since` (ms), by another instance before this one took over. */
  recent(ctl: Kysely<DB>, since: number): Promise<{ chatId: number; at: number }[]>;
  release(ids: number[]): Promise<void>;
  sent(row: NotificationRow, at: number): Promise<void>;
  failed(row: NotificationRow, error: string): Promise<void>;
  /** Tried again at `at`; `countAttempt: false` for a 429 (not the row's fault). */
  retry(row: NotificationRow, at: number, error: string | null, countAttempt: boolean): Promise<void>;
  /** The bot is paused until `until`: nothing pending is due before, for any instance. */
  pauseAll(until: number): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createClaims(deps: {
  database: Database;
  worker: string;
  log: Log;
  clock: Clock;
  leaseMs: number;
  perChat: number;
  bulkKinds: readonly string[];
}): Claims {
  const { database, worker, log, clock } = deps;
  const db = database.db;

  /** A write that must not be lost, or the row would be sent again after its lease. */
  async function persist(what: string, id: number, write: () => Promise<unknown>) {
    for (let i = 0; ; i++) {
      try {
        await write();
        return;
      } catch (err) {
        if (i >= 4) {
          log.error({ err, notification: id }, `outbox: could not record ${what}`);
          return;
        }
        await clock.sleep(200 * 2 ** i);
      }
    }
  }

  return {
    async asSender(fn) {
      if (database.dialect !== 'postgres') return { led: true, value: await fn(db) };
      return whileSender(db, fn);
    },
    anyDue: (ctl, now, urgentOnly) => anyDueNotification(ctl, iso(now), urgentOnly ? deps.bulkKinds : []),
    claim(ctl, now, limit) {
      const args = {
        now: iso(now),
        leaseUntil: iso(now + deps.leaseMs),
        limit,
        worker,
        perChat: deps.perChat,
        bulkKinds: deps.bulkKinds,
      };
      return database.dialect === 'postgres'
        ? claimDueNotifications(ctl, 'postgres', args)
        : withWriteTransaction(database, (trx) => claimDueNotifications(trx, 'sqlite', args));
    },
    async extend(ctl, ids, until) {
      await extendClaims(ctl, worker, ids, iso(until));
    },
    async recent(ctl, since) {
      const rows = await recentSends(ctl, iso(since), worker);
      return rows.map((r) => ({ chatId: r.chat_id, at: Date.parse(r.sent_at) }));
    },
    release: (ids) =>
      ids.length === 0 ? Promise.resolve() : persist('a release', ids[0], () => releaseClaims(db, worker, ids)),
    sent: (row, at) => persist('a delivery', row.id, () => markNotificationSent(db, row.id, worker, iso(at))),
    failed: (row, error) => persist('a failure', row.id, () => markNotificationFailed(db, row.id, worker, error)),
    retry: (row, at, error, countAttempt) =>
      persist('a retry', row.id, () => rescheduleNotification(db, row.id, worker, iso(at), error, countAttempt)),
    pauseAll: (until) => persist('a pause', 0, () => postponeDue(db, iso(until))),
  };
}
