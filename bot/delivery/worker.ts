import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import type { DB } from '../../db/schema';
import type { NotificationRow } from '../../db/repositories/notifications';
import { readNotification, type Notification, type NotificationKind } from '../../core/notify/notifications';
import type { Log } from '../../core/kernel/log';
import { systemClock, type Clock } from './clock';
import { createClaims } from './claims';
import { Pacer } from './pacer';
import {
  callsOf,
  classify,
  describeError,
  sendCalls,
  type OutboxApi,
  type OutboxCall,
  type RenderedMessage,
  type SendResult,
} from './transport';

/*
 * The outbox worker: delivers the notification rows that core/ writes in the transaction of each
 * change, as fast as Telegram allows and no faster. It claims rows (claims.ts), asks the pacer which
 * chat may be sent to next (pacer.ts), sends through the Bot API (transport.ts) and records the
 * outcome. Time comes from a Clock, so tests run the pace on a virtual one.
 *
 * Failures. A 429 delays its chat by `retry_after`; a 429 that cannot be that chat's own pauses every
 * chat, here and (through the rows' due time) in any instance. 429s are not failed attempts. Other
 * failures are retried with exponential backoff (next_attempt_at); a 403 (the user blocked the bot)
 * or a 400 (a request Telegram will never accept) fails the row for good; so does running out of
 * attempts. A chat's later rows wait for its earlier row's retry (the order is kept).
 */

export interface OutboxOptions {
  /** How often the worker looks for more due rows while it is delivering. */
  pollIntervalMs: number;
  /** How often an idle worker looks for due rows, and one that is not the sender tries to become it (default: 4 × pollIntervalMs). */
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
  /** Sends awaiting Telegram's answer at once (the write that records an answered send does not count). */
  maxInFlight: number;
  /** Backoff after the n-th failed attempt: min(maxDelayMs, baseDelayMs · 2^(n−1)). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** After this many failed attempts the row is failed for good. */
  maxAttempts: number;
  /**
   * How long the sender stays the sender with nothing to send (PostgreSQL). Then it lets the lock and
   * its connection go: a platform's studios would otherwise each hold a connection for good.
   */
  senderLingerMs: number;
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
  senderLingerMs: 30_000,
};

/** How often an idle worker looks whether this process has committed a write (a memory read, no query). */
const WRITE_CHECK_MS = 100;

/** What an instance logs when it becomes the bot's sender, and when it stops being it (PostgreSQL). */
export const SENDER_LOG = 'outbox: this instance now sends for the bot';
export const SENDER_STOPPED_LOG = 'outbox: this instance stopped sending';

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

export interface OutboxDeps {
  database: Database;
  /** A Bot API client without auto-retry: the worker does its own retries. */
  api: OutboxApi;
  /** Text and buttons (or calls) of a notification (bot/messages.ts), in the chat's language: when the row is claimed, a moment before it is sent. */
  render(n: Notification, chatId: number): RenderedMessage | Promise<RenderedMessage>;
  log: Log;
  options?: Partial<OutboxOptions>;
  /** Called after each Bot API send with its result and how long Telegram took to answer (metrics). */
  onSend?(result: SendResult, ms: number): void;
  /** A slot of the process's cap on every bot's sends together (a platform's studios), awaited before each send starts. */
  permit?(): Promise<void>;
  /** The system clock unless a test gives a virtual one. */
  clock?: Clock;
}

export interface Outbox {
  start(): void;
  /** Stops claiming, waits for the sends in flight and gives every other claimed row back. */
  stop(): Promise<void>;
  /** Claims one batch of due rows and delivers it; returns how many rows it tried to send (0 while another instance sends). */
  runOnce(): Promise<number>;
  /** Delivers due rows until none is left (rows delayed by a 429 or a retry are left for later). */
  drain(): Promise<number>;
}

export const backoffMs = (attempt: number, o: Pick<OutboxOptions, 'baseDelayMs' | 'maxDelayMs'>) =>
  Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, attempt - 1));

/** One claimed row, and how long its lease is known to last. */
interface Held {
  id: number;
  bulk: boolean;
  row: NotificationRow;
  leaseUntil: number;
  /** Rendered when claimed, so a send goes out at its slot, not after a render's database read. */
  calls: OutboxCall[];
}

/** What became of one send. */
type Outcome = 'sent' | 'finished' | 'retry' | 'limited';

export function createOutbox(deps: OutboxDeps): Outbox {
  const o: OutboxOptions = { ...DEFAULT_OUTBOX_OPTIONS, ...deps.options };
  const { database, log } = deps;
  const clock = deps.clock ?? systemClock;
  const idlePollMs = o.idlePollMs ?? o.pollIntervalMs * 4;
  /** This worker's name on its claims: a restarted process is another worker. */
  const worker = `${process.pid}-${crypto.randomUUID()}`;
  const bulk = new Set<string>(BULK_KINDS);
  const claims = createClaims({
    database,
    worker,
    log,
    clock,
    leaseMs: o.leaseMs,
    perChat: o.perChatClaim,
    bulkKinds: BULK_KINDS,
  });
  const pacer = new Pacer<Held>(o);
  const sending = new Set<Promise<void>>();

  let stopped = true;
  /** Set by stop(): nothing new starts; held rows are given back. */
  let closing = false;
  let loopDone: Promise<void> = Promise.resolve();
  let exclusiveTail: Promise<unknown> = Promise.resolve();
  /** While this worker's loop is the bot's sender: what its claims run on (PostgreSQL: the lock's connection). */
  let leading: Kysely<DB> | null = null;
  let nextHeartbeatAt = 0;

  const naps = new Set<AbortController>();
  /** Sleeps `ms`, or less when a send finishes or stop() is called. */
  async function nap(ms: number) {
    const ac = new AbortController();
    naps.add(ac);
    try {
      await clock.sleep(Math.max(0, ms), ac.signal);
    } finally {
      naps.delete(ac);
    }
  }
  const wake = () => naps.forEach((ac) => ac.abort());
  const idsOf = (held: Held[]) => held.map((h) => h.row.id);

  async function claim(ctl: Kysely<DB>, now: number): Promise<number> {
    const limit = o.batchSize - pacer.held;
    if (limit <= 0) return 0;
    // With half a batch or more in hand, more is claimed only for a message someone waits for (not a
    // broadcast's): a claim is the outbox's costliest query, and a row or two at every poll made a
    // broadcast cost one claim for every few messages.
    if (!(await claims.anyDue(ctl, now, pacer.held >= o.batchSize / 2))) return 0;
    const rows = await claims.claim(ctl, now, limit);
    const rendered = await Promise.all(rows.map(render));
    for (const [i, row] of rows.entries()) {
      const calls = rendered[i];
      if (calls)
        pacer.add(Number(row.chat_id), {
          id: row.id,
          bulk: bulk.has(row.kind),
          row,
          leaseUntil: now + o.leaseMs,
          calls,
        });
    }
    if (rows.length > 0 && nextHeartbeatAt === 0) nextHeartbeatAt = now + o.heartbeatMs;
    return rows.length;
  }

  async function heartbeat(ctl: Kysely<DB>) {
    const started = clock.now();
    nextHeartbeatAt = started + o.heartbeatMs;
    const held = pacer.items();
    try {
      await claims.extend(ctl, idsOf(held), started + o.leaseMs);
      for (const h of held) h.leaseUntil = started + o.leaseMs;
    } catch (err) {
      // Not extended: rows whose lease runs short are not started (see pump) and go back to the pool.
      log.warn({ err }, 'outbox: could not extend the claims');
    }
  }

  /**
   * The calls of a claimed row; null when there are none now. A payload that cannot be read never will
   * be: failed for good. Rendering itself reads the studio's database, whose failure (a dropped
   * connection, a busy file) passes: the row is tried again later, as a failed send is.
   */
  async function render(row: NotificationRow): Promise<OutboxCall[] | null> {
    let notification: ReturnType<typeof readNotification>;
    try {
      notification = readNotification(row.kind, row.payload);
    } catch (err) {
      log.error({ err, notification: row.id, kind: row.kind }, 'outbox: unreadable notification, failed for good');
      await claims.failed(row, `payload: ${describeError(err)}`);
      return null;
    }
    try {
      return callsOf(await deps.render(notification, Number(row.chat_id)));
    } catch (err) {
      await retryLater(row, `render: ${describeError(err)}`);
      return null;
    }
  }

  /** `answered`: Telegram has answered (the write that records the outcome is still to come). */
  async function deliver(
    { row, calls }: Held,
    previousStart: number | undefined,
    answered: () => void,
  ): Promise<Outcome> {
    try {
      await sendCalls(deps.api, Number(row.chat_id), calls, deps.onSend);
    } catch (err) {
      answered();
      return failed(row, err, previousStart);
    }
    answered();
    await claims.sent(row, clock.now());
    return 'sent';
  }

  async function failed(row: NotificationRow, err: unknown, previousStart: number | undefined): Promise<Outcome> {
    const failure = classify(err);
    const chatId = Number(row.chat_id);
    if (failure.kind === 'limited') {
      const { until, global } = pacer.limited(chatId, failure.retryAfterS, clock.now(), previousStart);
      log.warn(
        { chat_id: chatId, retry_after: failure.retryAfterS, scope: global ? 'bot' : 'chat' },
        global
          ? 'outbox: rate limited by Telegram, pausing every chat'
          : 'outbox: rate limited in one chat, pausing it',
      );
      await claims.retry(row, until, row.last_error, false);
      if (global) await claims.pauseAll(until);
      return 'limited';
    }
    if (failure.kind === 'undeliverable') {
      log.info(
        { notification: row.id, chat_id: chatId, error: failure.error },
        'outbox: undeliverable, failed for good',
      );
      await claims.failed(row, failure.error);
      return 'finished';
    }
    return retryLater(row, failure.error);
  }

  /** Tried again after a backoff that grows with each attempt; failed for good after the last. */
  async function retryLater(row: NotificationRow, error: string): Promise<Outcome> {
    const attempt = row.attempts + 1;
    if (attempt >= o.maxAttempts) {
      log.error({ notification: row.id, attempts: attempt, error }, 'outbox: giving up after too many attempts');
      await claims.failed(row, error);
      return 'finished';
    }
    const delay = backoffMs(attempt, o);
    log.warn({ notification: row.id, attempt, retry_in_ms: delay, error }, 'outbox: delivery failed, will retry');
    await claims.retry(row, clock.now() + delay, error, true);
    return 'retry';
  }

  /** Starts the chat's first held row; its lane is busy until the outcome is recorded. */
  function startSend(chatId: number, now: number) {
    const { item, previousStart } = pacer.start(chatId, now);
    const work = (async () => {
      let outcome: Outcome = 'finished';
      try {
        outcome = await deliver(item, previousStart, () => {
          pacer.answered(chatId);
          wake();
        });
      } catch (err) {
        log.error({ err, notification: item.id }, 'outbox: delivery crashed');
      }
      pacer.finish(chatId);
      // A retry or a 429 keeps the row pending in the database: the chat's later rows wait behind it.
      if (outcome === 'retry' || outcome === 'limited') await claims.release(idsOf(pacer.takeWaiting(chatId)));
    })();
    const p = (clock.hold ? clock.hold(work) : work).finally(() => {
      sending.delete(p);
      wake();
    });
    sending.add(p);
  }

  /**
   * Delivers held rows at Telegram's pace, claiming through `ctl`. With `refill`, claims more every
   * poll interval and returns once nothing is held and nothing is due; without, delivers one claim.
   */
  async function pump(refill: boolean, ctl: Kysely<DB>): Promise<number> {
    let tried = 0;
    let nextClaimAt = 0;
    let claimedOnce = false;
    /** A slot of the process's cap taken for the next send (it is paced from when it starts). */
    let permitted = !deps.permit;
    try {
      for (;;) {
        if (closing) break;
        let now = clock.now();
        if (pacer.held > 0 && now >= nextHeartbeatAt) await heartbeat(ctl);
        if ((refill || !claimedOnce) && now >= nextClaimAt) {
          claimedOnce = true;
          nextClaimAt = now + o.pollIntervalMs;
          const n = await claim(ctl, now);
          now = clock.now();
          if (n === 0 && pacer.held === 0 && sending.size === 0) break;
        } else if (pacer.held === 0 && sending.size === 0 && !refill) break;
        const next = pacer.next(now);
        // A global 429: every held row goes back (finally, below); the loop waits out the pause.
        if (!next.send && next.paused) break;
        if (next.send) {
          // A lease that could run out mid-send (heartbeats failing): the chat's rows go back to the pool.
          if (next.item.leaseUntil - now < o.sendTimeoutMs) await claims.release(idsOf(pacer.takeWaiting(next.chatId)));
          else if (!permitted) {
            await deps.permit!();
            permitted = true;
          } else {
            startSend(next.chatId, now);
            tried++;
            permitted = !deps.permit;
          }
          continue;
        }
        // Nothing can start before this, or before a send in flight finishes (nap wakes up then).
        const wakeAt = Math.min(
          next.until,
          refill || !claimedOnce ? nextClaimAt : Infinity,
          pacer.held > 0 ? nextHeartbeatAt : Infinity,
        );
        await nap(Number.isFinite(wakeAt) ? wakeAt - now : o.pollIntervalMs);
      }
    } finally {
      await Promise.all(sending);
      // Whatever is held and unsent goes back, due at once for any worker.
      await claims.release(idsOf(pacer.takeAllWaiting()));
      nextHeartbeatAt = 0;
    }
    return tried;
  }

  /** Runs `fn` as the bot's sender when this worker may be one; PostgreSQL: first learns what the last sender sent. */
  function asSender<T>(fn: (ctl: Kysely<DB>) => Promise<T>) {
    return claims.asSender(async (ctl) => {
      if (database.dialect === 'postgres') {
        const now = clock.now();
        const since = now - Math.max(o.groupChatIntervalMs, o.privateChatIntervalMs, 1000);
        const recent = await claims.recent(ctl, since);
        for (const s of recent) pacer.seed(s.chatId, Math.min(s.at, now));
        // Another instance was sending a moment ago: it may have died with sends Telegram answered but
        // nobody recorded, so this one starts once the second they could fall in is over.
        if (recent.some((s) => now - s.at < 1000)) pacer.notBefore(now + 1000);
      }
      return fn(ctl);
    });
  }

  /** One pump at a time per worker, as the sender (nothing when another instance sends). */
  function exclusive(refill: boolean): Promise<number> {
    const run = async () => {
      if (leading) return pump(refill, leading);
      const r = await asSender((ctl) => pump(refill, ctl));
      return r.led ? r.value : 0;
    };
    const p = exclusiveTail.then(run, run);
    exclusiveTail = p.catch(() => undefined);
    return p;
  }

  /**
   * Becomes the sender once something is due and no other instance is, and stays it while there is
   * work and senderLingerMs after (or until stopped, or its lock is lost).
   */
  async function loop() {
    while (!stopped) {
      try {
        // Asked through the pool first: an idle worker holds neither the lock nor a connection.
        const due = database.dialect !== 'postgres' || (await claims.anyDue(database.db, clock.now()));
        const r = due
          ? await asSender(async (ctl) => {
              if (database.dialect === 'postgres') log.info({ worker }, SENDER_LOG);
              leading = ctl;
              let busyAt = clock.now();
              try {
                while (!stopped) {
                  if ((await exclusive(true)) > 0 || pacer.pausedUntil > clock.now()) busyAt = clock.now();
                  // A global 429 keeps it the sender, so no other instance sends meanwhile.
                  else if (clock.now() - busyAt >= o.senderLingerMs) break;
                  const pause = pacer.pausedUntil - clock.now();
                  if (!stopped) await (pause > idlePollMs ? nap(pause) : idle());
                }
              } finally {
                leading = null;
              }
            })
          : { led: false };
        if (r.led && database.dialect === 'postgres') log.info({ worker }, SENDER_STOPPED_LOG);
      } catch (err) {
        log.error({ err }, 'outbox: poll failed');
      }
      if (!stopped) await idle();
    }
  }

  /**
   * Sleeps idlePollMs, or less: until a write is committed on this database in this process, which is
   * most likely a booking whose confirmation has just been written (no need to wait for the poll).
   */
  async function idle() {
    const seen = database.writes;
    const until = clock.now() + idlePollMs;
    while (!stopped && database.writes === seen && clock.now() < until)
      await nap(Math.min(WRITE_CHECK_MS, until - clock.now()));
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
