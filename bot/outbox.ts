import crypto from 'node:crypto';
import { GrammyError, type RawApi } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Database } from '../db/database';
import { withWriteTransaction } from '../db/lock';
import {
  anyDueNotification,
  claimDueNotifications,
  extendClaims,
  markNotificationFailed,
  markNotificationSent,
  releaseClaims,
  rescheduleNotification,
  type NotificationRow,
} from '../db/repositories/notifications';
import { readNotification, type Notification, type NotificationKind } from '../core/notify/notifications';
import type { Log } from '../core/kernel/log';

/*
 * The outbox worker: delivers the notification rows that core/ writes in the transaction of each
 * change, as fast as Telegram allows and no faster.
 *
 * Claims. Rows are claimed atomically with a lease (locked_until) in this worker's name
 * (claimed_by), so several workers (server instances) on one database never send a row at the same
 * time. A heartbeat extends the lease of held rows while the worker lives; a worker that stops
 * gracefully gives its unsent rows back at once; a crashed worker's rows are taken again when their
 * short lease runs out. Delivery is at-least-once: a row is sent twice only when the worker dies
 * between Telegram's answer and the database write that records it.
 *
 * Pace. The worker keeps Telegram's limits itself instead of provoking 429s: sends start at most
 * `perSecond` per second overall, one per `privateChatIntervalMs` in a private chat and one per
 * `groupChatIntervalMs` in a group (negative chat id); up to `maxInFlight` chats at once. Each chat
 * is a lane: its messages go one after another in their order; the lane that has waited longest
 * goes next, so a chat with a backlog (it may send once a second) never delays other chats' first
 * messages, and a claim takes at most `perChatClaim` rows of one chat. Bulk kinds (reminders,
 * digests) are claimed after everything else due, so a broadcast never delays a confirmation.
 *
 * Failures. A 429 delays its chat by `retry_after`; a 429 that cannot be that chat's own (no recent
 * message to it, or 429s in several chats at once) pauses every chat. 429s are not failed attempts.
 * Other failures are retried with exponential backoff (next_attempt_at); a 403 (the user blocked the
 * bot) or a 400 (a request Telegram will never accept) fails the row for good; so does running out
 * of attempts. A chat's later rows wait for its earlier row's retry (the order is kept).
 */

export interface OutboxOptions {
  /** How often the worker looks for more due rows while it is delivering. */
  pollIntervalMs: number;
  /** How often an idle worker looks for due rows (default: 4 × pollIntervalMs). */
  idlePollMs?: number;
  /** Rows held (claimed, not finished) at a time: about two seconds of sending. */
  batchSize: number;
  /** Rows of one chat claimed at a time. */
  perChatClaim: number;
  /** How long a claim lasts without a heartbeat: how soon a crashed worker's rows are taken again. */
  leaseMs: number;
  /** How often held claims are extended. */
  heartbeatMs: number;
  /** Longest a single send may take (the Api client's timeout): a row is not started when its lease would run out before. */
  sendTimeoutMs: number;
  /** Sends started per second, over all chats (Telegram: about 30). */
  perSecond: number;
  /** Least time between two messages to one private chat (Telegram: about one a second). */
  privateChatIntervalMs: number;
  /** Least time between two messages to one group (Telegram: 20 a minute). */
  groupChatIntervalMs: number;
  /** Sends awaiting Telegram's answer at once. */
  maxInFlight: number;
  /** Backoff after the n-th failed attempt: min(maxDelayMs, baseDelayMs · 2^(n−1)). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** After this many failed attempts the row is failed for good. */
  maxAttempts: number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  pollIntervalMs: 250,
  batchSize: 60,
  perChatClaim: 2,
  leaseMs: 30_000,
  heartbeatMs: 5_000,
  sendTimeoutMs: 15_000,
  perSecond: 28,
  privateChatIntervalMs: 1000,
  groupChatIntervalMs: 3000,
  maxInFlight: 10,
  baseDelayMs: 5_000,
  maxDelayMs: 60 * 60_000,
  maxAttempts: 10,
};

/**
 * Kinds written in bulk and not awaited by anyone at that moment (reminders, digests, the morning-after
 * thanks, new dates for subscribers): claimed after the rest. A changed or deleted session, though sent
 * to every participant, is news to act on and goes with the rest.
 */
export const BULK_KINDS: readonly NotificationKind[] = [
  'schedule.reminder',
  'staff.digest',
  'record.thanks',
  'workshop.new_dates',
];

/** A Bot API call of a notification; `chat_id` comes from the row. */
export type OutboxCall = {
  [M in OutboxMethod]: { method: M; params: Omit<Parameters<RawApi[M]>[0], 'chat_id'> };
}[OutboxMethod];
export type OutboxMethod = 'sendMessage' | 'sendVenue' | 'sendLocation' | 'sendDocument' | 'sendPhoto';

/**
 * What bot/messages.ts renders: a text message (HTML, no link previews), or any calls, sent in order
 * (a row with several calls is retried as a whole, so keep the calls that may fail last).
 */
type RenderedPart = { text: string; reply_markup?: InlineKeyboardMarkup } | OutboxCall;
export type RenderedMessage = RenderedPart | RenderedPart[];

export interface OutboxDeps {
  database: Database;
  /** A Bot API client without auto-retry: the worker does its own retries. */
  api: Pick<RawApi, OutboxMethod>;
  /** Text and buttons (or calls) of a notification (bot/messages.ts), at delivery time. */
  render(n: Notification): RenderedMessage;
  log: Log;
  options?: Partial<OutboxOptions>;
  /** Called after each Bot API send with its result and how long Telegram took to answer (metrics). */
  onSend?(result: SendResult, ms: number): void;
}

/** What one Bot API send came to: delivered, rate limited by Telegram, or any other failure. */
export type SendResult = 'ok' | '429' | 'failed';

export interface Outbox {
  start(): void;
  /** Stops claiming, waits for the sends in flight and gives every other claimed row back. */
  stop(): Promise<void>;
  /** Claims one batch of due rows and delivers it; returns how many rows it tried to send. */
  runOnce(): Promise<number>;
  /** Delivers due rows until none is left (rows delayed by a 429 or a retry are left for later). */
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

/** The calls of a rendered notification, addressed to the row's chat. */
export function callsOf(message: RenderedMessage): OutboxCall[] {
  return (Array.isArray(message) ? message : [message]).map((part) =>
    'method' in part
      ? part
      : {
          method: 'sendMessage',
          params: {
            text: part.text,
            parse_mode: 'HTML',
            link_preview_options: { is_disabled: true },
            ...(part.reply_markup && { reply_markup: part.reply_markup }),
          },
        },
  );
}

function send(api: OutboxDeps['api'], chat_id: number, call: OutboxCall): Promise<unknown> {
  switch (call.method) {
    case 'sendMessage':
      return api.sendMessage({ chat_id, ...call.params });
    case 'sendVenue':
      return api.sendVenue({ chat_id, ...call.params });
    case 'sendLocation':
      return api.sendLocation({ chat_id, ...call.params });
    case 'sendDocument':
      return api.sendDocument({ chat_id, ...call.params });
    case 'sendPhoto':
      return api.sendPhoto({ chat_id, ...call.params });
  }
}

/** One claimed row and how long its lease is known to last. */
interface Held {
  row: NotificationRow;
  leaseUntil: number;
}

/** A chat's claimed rows, oldest first; one send at a time. */
interface Lane {
  chatId: number;
  rows: Held[];
  busy: boolean;
}

/** What became of one send. */
type Outcome = 'sent' | 'finished' | 'retry' | 'limited';

export function createOutbox(deps: OutboxDeps): Outbox {
  const o: OutboxOptions = { ...DEFAULT_OUTBOX_OPTIONS, ...deps.options };
  const { database, log } = deps;
  const db = database.db;
  /** This worker's name on its claims: a restarted process is another worker. */
  const worker = `${process.pid}-${crypto.randomUUID()}`;
  const bulk = new Set<string>(BULK_KINDS);

  let stopped = true;
  /** Set by stop(): nothing new starts; held rows are given back. */
  let closing = false;
  let loopDone: Promise<void> = Promise.resolve();
  let exclusiveTail: Promise<unknown> = Promise.resolve();

  const lanes = new Map<number, Lane>();
  const sending = new Set<Promise<void>>();
  /** When a send last started, per chat (kept across claims, for the per-chat pace). */
  const lastStart = new Map<number, number>();
  /** No send starts before this (the overall pace), nor before pausedUntil (a global 429). */
  let nextStartAt = 0;
  let pausedUntil = 0;
  /** Recent 429s: several chats limited at once means the bot is. */
  let recent429: { chatId: number; at: number }[] = [];
  let nextHeartbeatAt = 0;

  const iso = (ms: number) => new Date(ms).toISOString();
  const held = () => [...lanes.values()].reduce((n, l) => n + l.rows.length, 0);
  const intervalOf = (chatId: number) => (chatId < 0 ? o.groupChatIntervalMs : o.privateChatIntervalMs);

  const sleepers = new Set<() => void>();
  /** Sleeps `ms`, or less when a send finishes or stop() is called. */
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      sleepers.add(done);
    });
  const wake = () => [...sleepers].forEach((done) => done());

  async function claim(): Promise<number> {
    const limit = o.batchSize - held();
    if (limit <= 0) return 0;
    const now = Date.now();
    if (!(await anyDueNotification(db, iso(now)))) return 0;
    const args = {
      now: iso(now),
      leaseUntil: iso(now + o.leaseMs),
      limit,
      worker,
      perChat: o.perChatClaim,
      bulkKinds: BULK_KINDS,
    };
    const rows =
      database.dialect === 'postgres'
        ? await claimDueNotifications(db, 'postgres', args)
        : await withWriteTransaction(database, (trx) => claimDueNotifications(trx, 'sqlite', args));
    for (const row of rows) {
      const chatId = Number(row.chat_id);
      let lane = lanes.get(chatId);
      if (!lane) lanes.set(chatId, (lane = { chatId, rows: [], busy: false }));
      lane.rows.push({ row, leaseUntil: now + o.leaseMs });
    }
    if (rows.length > 0 && nextHeartbeatAt === 0) nextHeartbeatAt = now + o.heartbeatMs;
    return rows.length;
  }

  async function heartbeat() {
    const started = Date.now();
    nextHeartbeatAt = started + o.heartbeatMs;
    try {
      const ids = [...lanes.values()].flatMap((l) => l.rows.map((h) => h.row.id));
      await extendClaims(db, worker, ids, iso(started + o.leaseMs));
      for (const lane of lanes.values()) for (const h of lane.rows) h.leaseUntil = started + o.leaseMs;
    } catch (err) {
      // Not extended: rows whose lease runs short are not started (see canStart) and go back to the pool.
      log.warn({ err }, 'outbox: could not extend the claims');
    }
  }

  /** A finishing write that must not be lost, or the row would be sent again after its lease. */
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
        await new Promise((r) => setTimeout(r, 200 * 2 ** i));
      }
    }
  }

  /** Gives a lane's rows back (all of them, or those after the first). */
  async function releaseLane(lane: Lane, from = 0) {
    const ids = lane.rows.slice(from).map((h) => h.row.id);
    lane.rows.length = from;
    await persist('a release', ids[0] ?? 0, () => releaseClaims(db, worker, ids));
  }

  /** Tells the observer how a send ended and how long it took; never lets the observer break delivery. */
  async function observed(p: Promise<unknown>) {
    const started = performance.now();
    let result: SendResult = 'ok';
    try {
      return await p;
    } catch (err) {
      result = err instanceof GrammyError && err.error_code === 429 ? '429' : 'failed';
      throw err;
    } finally {
      try {
        deps.onSend?.(result, performance.now() - started);
      } catch (err) {
        log.warn({ err }, 'outbox: the send observer failed');
      }
    }
  }

  /** A 429: this chat's limit, or the bot's (no recent message to this chat, or 429s in several chats). */
  function limited(chatId: number, retryAfterS: number, previousStart: number | undefined) {
    const now = Date.now();
    recent429 = recent429.filter((r) => now - r.at < 1000);
    recent429.push({ chatId, at: now });
    const global =
      previousStart === undefined || now - previousStart > 60_000 || new Set(recent429.map((r) => r.chatId)).size > 1;
    const until = now + retryAfterS * 1000;
    if (global) pausedUntil = Math.max(pausedUntil, until);
    log.warn(
      { chat_id: chatId, retry_after: retryAfterS, scope: global ? 'bot' : 'chat' },
      global ? 'outbox: rate limited by Telegram, pausing every chat' : 'outbox: rate limited in one chat, pausing it',
    );
    return until;
  }

  async function deliver(row: NotificationRow, previousStart: number | undefined): Promise<Outcome> {
    const chatId = Number(row.chat_id);
    let calls: OutboxCall[];
    try {
      calls = callsOf(deps.render(readNotification(row.kind, row.payload)));
    } catch (err) {
      log.error(
        { err, notification: row.id, kind: row.kind },
        'outbox: cannot render the notification, failed for good',
      );
      await persist('a failure', row.id, () => markNotificationFailed(db, row.id, worker, `render: ${describe(err)}`));
      return 'finished';
    }
    try {
      for (const call of calls) await observed(send(deps.api, chatId, call));
    } catch (err) {
      return failed(row, err, previousStart);
    }
    await persist('a delivery', row.id, () => markNotificationSent(db, row.id, worker, iso(Date.now())));
    return 'sent';
  }

  async function failed(row: NotificationRow, err: unknown, previousStart: number | undefined): Promise<Outcome> {
    const error = describe(err);
    const code = err instanceof GrammyError ? err.error_code : null;
    if (err instanceof GrammyError && code === 429) {
      const until = limited(Number(row.chat_id), err.parameters.retry_after ?? 5, previousStart);
      await persist('a retry', row.id, () =>
        rescheduleNotification(db, row.id, worker, iso(until), row.last_error, false),
      );
      return 'limited';
    }
    if (code === 403 || code === 400) {
      // 403: the user blocked the bot (or never started it); 400: Telegram will never accept this request.
      log.info({ notification: row.id, chat_id: row.chat_id, error }, 'outbox: undeliverable, failed for good');
      await persist('a failure', row.id, () => markNotificationFailed(db, row.id, worker, error));
      return 'finished';
    }
    const attempt = row.attempts + 1;
    if (attempt >= o.maxAttempts) {
      log.error({ notification: row.id, attempts: attempt, error }, 'outbox: giving up after too many attempts');
      await persist('a failure', row.id, () => markNotificationFailed(db, row.id, worker, error));
      return 'finished';
    }
    const delay = backoffMs(attempt, o);
    log.warn({ notification: row.id, attempt, retry_in_ms: delay, error }, 'outbox: delivery failed, will retry');
    await persist('a retry', row.id, () => rescheduleNotification(db, row.id, worker, iso(Date.now() + delay), error));
    return 'retry';
  }

  /** Starts the lane's first row; the lane is busy until its outcome is recorded. */
  function startSend(lane: Lane, now: number) {
    const { row } = lane.rows[0];
    const previousStart = lastStart.get(lane.chatId);
    lane.busy = true;
    lastStart.set(lane.chatId, now);
    // Fixed slots: a send that starts a little late (timers) does not push every later slot back.
    const slot = 1000 / o.perSecond;
    nextStartAt = Math.max(nextStartAt + slot, now + slot / 2);
    const p = deliver(row, previousStart)
      .then(async (outcome) => {
        lane.rows.shift();
        // A retry or a 429 keeps the row pending in the database: the chat's later rows wait behind it.
        if (outcome === 'retry' || outcome === 'limited') await releaseLane(lane);
      })
      .catch((err: unknown) => log.error({ err, notification: row.id }, 'outbox: delivery crashed'))
      .finally(() => {
        lane.busy = false;
        if (lane.rows.length === 0) lanes.delete(lane.chatId);
        sending.delete(p);
        wake();
      });
    sending.add(p);
  }

  /** The lane to send next: free, its chat's pace allows it, non-bulk first, then the oldest row. */
  function nextLane(now: number): { lane: Lane | null; readyAt: number } {
    let best: Lane | null = null;
    let readyAt = Infinity;
    const rank = (l: Lane) => [bulk.has(l.rows[0].row.kind) ? 1 : 0, l.rows[0].row.id];
    for (const lane of lanes.values()) {
      if (lane.busy || lane.rows.length === 0) continue;
      const at = (lastStart.get(lane.chatId) ?? -Infinity) + intervalOf(lane.chatId);
      if (at > now) {
        readyAt = Math.min(readyAt, at);
        continue;
      }
      if (!best) best = lane;
      else {
        const [bb, bi] = rank(best);
        const [lb, li] = rank(lane);
        if (lb < bb || (lb === bb && li < bi)) best = lane;
      }
    }
    return { lane: best, readyAt };
  }

  /** Forgets per-chat start times too old to matter. */
  function pruneLastStart(now: number) {
    if (lastStart.size < 10_000) return;
    for (const [chatId, at] of lastStart) if (now - at > o.groupChatIntervalMs) lastStart.delete(chatId);
  }

  /**
   * Delivers held rows at Telegram's pace. With `refill`, claims more every poll interval and
   * returns once nothing is held and nothing is due; without, delivers one claim.
   */
  async function pump(refill: boolean): Promise<number> {
    let tried = 0;
    let nextClaimAt = 0;
    let claimedOnce = false;
    try {
      for (;;) {
        if (closing) break;
        let now = Date.now();
        if (held() > 0 && now >= nextHeartbeatAt) await heartbeat();
        if ((refill || !claimedOnce) && now >= nextClaimAt) {
          claimedOnce = true;
          nextClaimAt = now + o.pollIntervalMs;
          const n = await claim();
          now = Date.now();
          if (n === 0 && held() === 0 && sending.size === 0) break;
        } else if (held() === 0 && sending.size === 0 && !refill) break;
        // A global 429: every held row goes back (finally, below); loop() sleeps until the pause ends.
        if (now < pausedUntil) break;
        const { lane, readyAt } = nextLane(now);
        const canStart = sending.size < o.maxInFlight && now >= nextStartAt;
        if (lane && canStart) {
          const h = lane.rows[0];
          // A lease that could run out mid-send (heartbeats failing): the chat's rows go back to the pool.
          if (h.leaseUntil - now < o.sendTimeoutMs) await releaseLane(lane);
          else {
            startSend(lane, now);
            tried++;
          }
          if (lane.rows.length === 0 && !lane.busy) lanes.delete(lane.chatId);
          continue;
        }
        pruneLastStart(now);
        // With every send slot taken, only a finishing send (nap wakes up then) can let the next one start.
        const full = sending.size >= o.maxInFlight;
        const wakeAt = Math.min(
          full ? Infinity : lane ? nextStartAt : readyAt,
          refill || !claimedOnce ? nextClaimAt : Infinity,
          held() > 0 ? nextHeartbeatAt : Infinity,
        );
        // Nothing can start before wakeAt, or before a send in flight finishes (nap wakes up then).
        await nap(Number.isFinite(wakeAt) ? wakeAt - now : o.pollIntervalMs);
      }
    } finally {
      await Promise.all(sending);
      // Whatever is held and unsent goes back, due at once for any worker.
      const ids = [...lanes.values()].flatMap((l) => l.rows.map((h) => h.row.id));
      if (ids.length > 0) await persist('a release', ids[0], () => releaseClaims(db, worker, ids));
      lanes.clear();
      nextHeartbeatAt = 0;
    }
    return tried;
  }

  /** One pump at a time per worker. */
  function exclusive(refill: boolean): Promise<number> {
    const run = () => pump(refill);
    const p = exclusiveTail.then(run, run);
    exclusiveTail = p.catch(() => undefined);
    return p;
  }

  async function loop() {
    while (!stopped) {
      try {
        await exclusive(true);
      } catch (err) {
        log.error({ err }, 'outbox: poll failed');
      }
      if (!stopped) await nap(Math.max(o.idlePollMs ?? o.pollIntervalMs * 4, pausedUntil - Date.now()));
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      closing = false;
      loopDone = loop();
    },
    async stop() {
      stopped = true;
      closing = true;
      wake();
      await loopDone;
      await exclusiveTail;
      closing = false;
    },
    runOnce: () => exclusive(false),
    drain: () => exclusive(true),
  };
}
