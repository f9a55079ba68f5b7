/**
 * The pace of delivery: which chat may be sent to next, and when, under Telegram's limits. Pure: it
 * is told the time (`now`, in ms) and never waits itself; the worker asks it, sends, and tells it how
 * each send ended.
 *
 * Each chat is a lane: its messages go one after another in their order, at most one per
 * `privateChatIntervalMs` in a private chat and one per `groupChatIntervalMs` in a group (negative
 * chat id). Sends start at most `perSecond` per second overall (fixed slots, and never more than that
 * in any sliding second, counting sends another instance made just before this one took over), with
 * up to `maxInFlight` awaiting Telegram's answer. Of the lanes whose chat may be sent to now, non-bulk
 * messages go first, then the one written first (the lowest id), so the lane that has waited longest
 * goes next and a chat with a backlog never delays other chats' first messages.
 */

export interface PaceLimits {
  perSecond: number;
  privateChatIntervalMs: number;
  groupChatIntervalMs: number;
  maxInFlight: number;
}

/** What waits in a lane: the pacer needs its order (id) and whether it is bulk. */
export interface Paced {
  id: number;
  bulk: boolean;
}

export type Decision<T> =
  /** Start this lane's first message now (then call start()). */
  | { send: true; chatId: number; item: T }
  /** Nothing may start before `until` (Infinity: before a send in flight finishes or more is added). */
  | { send: false; until: number; paused: boolean };

interface Lane<T> {
  items: T[];
  busy: boolean;
  /** Its started message has Telegram's answer (the lane stays busy until the outcome is recorded). */
  answered: boolean;
}

/** How long a 429 remembers recent 429s and starts: several chats limited within a second means the bot is. */
const RECENT_429_MS = 1000;
/** A 429 in a chat nothing was sent to for this long cannot be that chat's own limit. */
const OWN_LIMIT_MS = 60_000;

export class Pacer<T extends Paced> {
  private readonly lanes = new Map<number, Lane<T>>();
  /** When a send last started, per chat (kept while the lanes come and go). */
  private readonly lastStart = new Map<number, number>();
  /** Starts of the last second, oldest first (the sliding-second check). */
  private recentStarts: number[] = [];
  private nextStartAt = 0;
  private recent429: { chatId: number; at: number }[] = [];
  private sending = 0;
  /** No send starts before this: Telegram limited the whole bot. */
  pausedUntil = 0;

  constructor(private readonly limits: PaceLimits) {}

  private interval(chatId: number) {
    return chatId < 0 ? this.limits.groupChatIntervalMs : this.limits.privateChatIntervalMs;
  }

  /** Queues a message at the end of its chat's lane. */
  add(chatId: number, item: T) {
    let lane = this.lanes.get(chatId);
    if (!lane) this.lanes.set(chatId, (lane = { items: [], busy: false, answered: false }));
    lane.items.push(item);
  }

  /** Messages held, started or not. */
  get held(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.items.length;
    return n;
  }

  /** Sends awaiting Telegram's answer. */
  get inFlight(): number {
    return this.sending;
  }

  /** Every held message, started or not. */
  items(): T[] {
    return [...this.lanes.values()].flatMap((l) => l.items);
  }

  /** What may start at `now`. */
  next(now: number): Decision<T> {
    if (now < this.pausedUntil) return { send: false, until: this.pausedUntil, paused: true };
    if (this.sending >= this.limits.maxInFlight) return { send: false, until: Infinity, paused: false };
    let best: { chatId: number; item: T } | null = null;
    let readyAt = Infinity;
    for (const [chatId, lane] of this.lanes) {
      if (lane.busy || lane.items.length === 0) continue;
      const at = (this.lastStart.get(chatId) ?? -Infinity) + this.interval(chatId);
      if (at > now) {
        readyAt = Math.min(readyAt, at);
        continue;
      }
      const item = lane.items[0];
      if (
        !best ||
        Number(item.bulk) - Number(best.item.bulk) < 0 ||
        (item.bulk === best.item.bulk && item.id < best.item.id)
      )
        best = { chatId, item };
    }
    if (!best) return { send: false, until: readyAt, paused: false };
    const slotAt = Math.max(this.nextStartAt, this.windowFreeAt(now));
    if (now < slotAt) return { send: false, until: slotAt, paused: false };
    return { send: true, ...best };
  }

  /** When the sliding second has room for one more start. */
  private windowFreeAt(now: number): number {
    this.recentStarts = this.recentStarts.filter((t) => now - t < 1000);
    const over = this.recentStarts.length - this.limits.perSecond;
    return over < 0 ? -Infinity : this.recentStarts[over] + 1000;
  }

  /**
   * The lane's first message starts now; returns it and when the chat's previous send started.
   * The lane is busy (nothing else of this chat starts) until finish().
   */
  start(chatId: number, now: number): { item: T; previousStart: number | undefined } {
    const lane = this.lanes.get(chatId);
    if (!lane || lane.busy || lane.items.length === 0) throw new Error(`pacer: nothing to start in chat ${chatId}`);
    const previousStart = this.lastStart.get(chatId);
    lane.busy = true;
    lane.answered = false;
    this.sending++;
    this.lastStart.set(chatId, now);
    this.recentStarts.push(now);
    // Fixed slots: a send that starts a little late (timers) does not push every later slot back.
    const slot = 1000 / this.limits.perSecond;
    this.nextStartAt = Math.max(this.nextStartAt + slot, now + slot / 2);
    this.prune(now);
    return { item: lane.items[0], previousStart };
  }

  /** Telegram answered the lane's started message: it no longer counts as in flight. */
  answered(chatId: number) {
    const lane = this.lanes.get(chatId);
    if (!lane?.busy || lane.answered) return;
    lane.answered = true;
    this.sending--;
  }

  /** The lane's started message is done with (sent, failed or given back); the lane is free again. */
  finish(chatId: number) {
    const lane = this.lanes.get(chatId);
    if (!lane?.busy) return;
    this.answered(chatId);
    lane.items.shift();
    lane.busy = false;
    if (lane.items.length === 0) this.lanes.delete(chatId);
  }

  /** Removes and returns the lane's messages that have not started (to give them back). */
  takeWaiting(chatId: number): T[] {
    const lane = this.lanes.get(chatId);
    if (!lane) return [];
    const taken = lane.items.splice(lane.busy ? 1 : 0);
    if (lane.items.length === 0) this.lanes.delete(chatId);
    return taken;
  }

  /** Removes and returns every message that has not started. */
  takeAllWaiting(): T[] {
    return [...this.lanes.keys()].flatMap((chatId) => this.takeWaiting(chatId));
  }

  /** A send that another instance made (at takeover): counts for its chat's pace and the overall second. */
  seed(chatId: number, at: number) {
    if (at > (this.lastStart.get(chatId) ?? -Infinity)) this.lastStart.set(chatId, at);
    this.recentStarts.push(at);
    this.recentStarts.sort((a, b) => a - b);
  }

  /** No send starts before `at` (an instance that takes over from one that may have sent unrecorded messages). */
  notBefore(at: number) {
    this.nextStartAt = Math.max(this.nextStartAt, at);
  }

  /**
   * A 429 with `retryAfterS`: this chat's own limit, or the bot's when it cannot be the chat's (nothing
   * was sent to it lately, or several chats got one at once); the bot's pauses every lane.
   */
  limited(chatId: number, retryAfterS: number, now: number, previousStart: number | undefined) {
    this.recent429 = this.recent429.filter((r) => now - r.at < RECENT_429_MS);
    this.recent429.push({ chatId, at: now });
    const global =
      previousStart === undefined ||
      now - previousStart > OWN_LIMIT_MS ||
      new Set(this.recent429.map((r) => r.chatId)).size > 1;
    const until = now + retryAfterS * 1000;
    if (global) this.pausedUntil = Math.max(this.pausedUntil, until);
    return { until, global };
  }

  /** Forgets per-chat start times too old to matter. */
  private prune(now: number) {
    if (this.lastStart.size < 10_000) return;
    const keep = Math.max(this.limits.groupChatIntervalMs, this.limits.privateChatIntervalMs);
    for (const [chatId, at] of this.lastStart) if (now - at > keep) this.lastStart.delete(chatId);
  }
}
