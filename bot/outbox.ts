import { GrammyError, type Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Database } from '../db/database';
import { withWriteTransaction } from '../db/lock';
import {
  claimDueNotifications,
  markNotificationFailed,
  markNotificationSent,
  rescheduleNotification,
  type NotificationRow,
} from '../db/repositories/notifications';
import { readNotification, type Notification } from '../core/notifications';
import type { Log } from '../core/log';

/*
 * The outbox worker: delivers the notification rows that core/ writes in the
 * transaction of each change. Rows are claimed atomically with a lease (locked_until), so several
 * workers (server instances) on one database never send a row twice, and rows of a crashed
 * worker are taken again once their lease has run out. Failures are retried with exponential
 * backoff (next_attempt_at); a 429 pauses this worker for `retry_after` seconds without counting
 * an attempt; a 403 (the user blocked the bot) or a 400 (a request Telegram will never accept)
 * fails the row for good; so does running out of attempts.
 */

export interface OutboxOptions {
  /** How often the worker looks for due rows. */
  pollIntervalMs: number;
  /** Rows claimed at a time. */
  batchSize: number;
  /** How long a claim is held; must cover a batch's sends (each bounded by the API client's timeout). */
  leaseMs: number;
  /** Longest a single send may take (the Api client's timeout): a row is not started when its lease would run out before. */
  sendTimeoutMs: number;
  /** Backoff after the n-th failed attempt: min(maxDelayMs, baseDelayMs · 2^(n−1)). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** After this many failed attempts the row is failed for good. */
  maxAttempts: number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  pollIntervalMs: 1000,
  batchSize: 10,
  leaseMs: 5 * 60_000,
  sendTimeoutMs: 30_000,
  baseDelayMs: 5_000,
  maxDelayMs: 60 * 60_000,
  maxAttempts: 10,
};

export interface RenderedMessage {
  text: string;
  reply_markup?: InlineKeyboardMarkup;
}

export interface OutboxDeps {
  database: Database;
  /** A Bot API client without auto-retry: the worker does its own retries. */
  api: Pick<Api, 'sendMessage'>;
  /** Text and buttons of a notification (bot/messages.ts), at delivery time. */
  render(n: Notification): RenderedMessage;
  log: Log;
  options?: Partial<OutboxOptions>;
}

export interface Outbox {
  start(): void;
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
  /** Claims and delivers one batch of due rows; returns how many it tried to send. */
  runOnce(): Promise<number>;
  /** Delivers due rows until none is left (or a 429 pauses the worker). */
  drain(): Promise<number>;
}

export const backoffMs = (attempt: number, o: Pick<OutboxOptions, 'baseDelayMs' | 'maxDelayMs'>) =>
  Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, attempt - 1));

const describe = (err: unknown) =>
  err instanceof GrammyError
    ? `${err.error_code}: ${err.description}`
    : err instanceof Error
      ? err.message
      : String(err);

export function createOutbox(deps: OutboxDeps): Outbox {
  const o: OutboxOptions = { ...DEFAULT_OUTBOX_OPTIONS, ...deps.options };
  const { database, log } = deps;
  const db = database.db;
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  /** Set by stop(): rows already claimed but not started are released for the next worker. */
  let closing = false;
  let inFlight: Promise<unknown> = Promise.resolve();
  /** Set by a 429: no sends before this time (Telegram's limit is per bot, not per chat). */
  let pausedUntil = 0;

  const iso = (ms: number) => new Date(ms).toISOString();

  async function claim(): Promise<{ rows: NotificationRow[]; lease: string; claimedAt: number }> {
    const claimedAt = Date.now();
    const lease = iso(claimedAt + o.leaseMs);
    const args = { now: iso(claimedAt), leaseUntil: lease, limit: o.batchSize };
    const rows =
      database.dialect === 'postgres'
        ? await claimDueNotifications(db, 'postgres', args)
        : await withWriteTransaction(database, (trx) => claimDueNotifications(trx, 'sqlite', args));
    return { rows, lease, claimedAt };
  }

  /** A finishing write that must not be lost, or the row would be sent again after its lease. */
  async function persist(what: string, row: NotificationRow, write: () => Promise<unknown>) {
    for (let i = 0; ; i++) {
      try {
        await write();
        return;
      } catch (err) {
        if (i >= 4) {
          log.error({ err, notification: row.id }, `outbox: could not record ${what}`);
          return;
        }
        await new Promise((r) => setTimeout(r, 200 * 2 ** i));
      }
    }
  }

  async function deliver(row: NotificationRow, lease: string): Promise<void> {
    let message: RenderedMessage;
    try {
      message = deps.render(readNotification(row.kind, row.payload));
    } catch (err) {
      log.error(
        { err, notification: row.id, kind: row.kind },
        'outbox: cannot render the notification, failed for good',
      );
      await persist('a failure', row, () => markNotificationFailed(db, row.id, lease, `render: ${describe(err)}`));
      return;
    }
    try {
      await deps.api.sendMessage(row.chat_id, message.text, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(message.reply_markup && { reply_markup: message.reply_markup }),
      });
    } catch (err) {
      await failed(row, lease, err);
      return;
    }
    await persist('a delivery', row, () => markNotificationSent(db, row.id, lease, iso(Date.now())));
  }

  async function failed(row: NotificationRow, lease: string, err: unknown) {
    const error = describe(err);
    const code = err instanceof GrammyError ? err.error_code : null;
    if (err instanceof GrammyError && code === 429) {
      const retryAfterS = err.parameters.retry_after ?? 5;
      pausedUntil = Math.max(pausedUntil, Date.now() + retryAfterS * 1000);
      log.warn({ notification: row.id, retry_after: retryAfterS }, 'outbox: rate limited by Telegram, pausing');
      await persist('a retry', row, () => rescheduleNotification(db, row.id, lease, iso(pausedUntil), error, false));
      return;
    }
    if (code === 403 || code === 400) {
      // 403: the user blocked the bot (or never started it); 400: Telegram will never accept this request.
      log.info({ notification: row.id, chat_id: row.chat_id, error }, 'outbox: undeliverable, failed for good');
      await persist('a failure', row, () => markNotificationFailed(db, row.id, lease, error));
      return;
    }
    const attempt = row.attempts + 1;
    if (attempt >= o.maxAttempts) {
      log.error({ notification: row.id, attempts: attempt, error }, 'outbox: giving up after too many attempts');
      await persist('a failure', row, () => markNotificationFailed(db, row.id, lease, error));
      return;
    }
    const delay = backoffMs(attempt, o);
    log.warn({ notification: row.id, attempt, retry_in_ms: delay, error }, 'outbox: delivery failed, will retry');
    await persist('a retry', row, () => rescheduleNotification(db, row.id, lease, iso(Date.now() + delay), error));
  }

  /** Returns how many rows it tried to send (released ones do not count, so callers do not spin on them). */
  async function runBatch(): Promise<number> {
    if (closing || Date.now() < pausedUntil) return 0;
    const { rows, lease, claimedAt } = await claim();
    let tried = 0;
    for (const row of rows) {
      const now = Date.now();
      // Not started when stopping, paused by a 429, or when the lease could expire mid-send: released for anyone.
      if (closing || now < pausedUntil || now + o.sendTimeoutMs > claimedAt + o.leaseMs) {
        await persist('a release', row, () =>
          rescheduleNotification(db, row.id, lease, iso(Math.max(now, pausedUntil)), row.last_error, false),
        );
        continue;
      }
      await deliver(row, lease);
      tried++;
    }
    return tried;
  }

  /** One batch at a time per worker. */
  function exclusive(): Promise<number> {
    const p = inFlight.then(runBatch, runBatch);
    inFlight = p.catch(() => undefined);
    return p;
  }

  async function loop() {
    timer = null;
    if (stopped) return;
    try {
      while (!stopped && (await exclusive()) > 0) {
        // keep going while there is work
      }
    } catch (err) {
      log.error({ err }, 'outbox: poll failed');
    }
    if (!stopped) timer = setTimeout(() => void loop(), Math.max(o.pollIntervalMs, pausedUntil - Date.now()));
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      closing = false;
      timer = setTimeout(() => void loop(), 0);
    },
    async stop() {
      stopped = true;
      closing = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await inFlight;
      closing = false;
    },
    runOnce: exclusive,
    async drain() {
      let total = 0;
      for (;;) {
        const n = await exclusive();
        if (n === 0) return total;
        total += n;
      }
    },
  };
}
