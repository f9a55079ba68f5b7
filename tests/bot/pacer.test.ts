import { describe, expect, it } from 'vitest';
import { Pacer, type PaceLimits } from '../../bot/delivery/pacer';

/* The pacer alone: told the time, it says which chat may be sent to and when (no database, no timers). */

const TELEGRAM: PaceLimits = { perSecond: 28, privateChatIntervalMs: 1000, groupChatIntervalMs: 3000, maxInFlight: 10 };
type Item = { id: number; bulk: boolean };
let nextId = 1;
const item = (bulk = false): Item => ({ id: nextId++, bulk });

/** Sends whatever the pacer allows until `endMs`, each answered at once; returns [chat, at] in start order. */
function simulate(pacer: Pacer<Item>, endMs: number, from = 0): [number, number][] {
  const starts: [number, number][] = [];
  let now = from;
  while (now <= endMs) {
    const d = pacer.next(now);
    if (d.send) {
      pacer.start(d.chatId, now);
      pacer.finish(d.chatId);
      starts.push([d.chatId, now]);
    } else if (!Number.isFinite(d.until)) break;
    else now = d.until;
  }
  return starts;
}
const busiestSecond = (at: number[]) => Math.max(0, ...at.map((t) => at.filter((u) => u >= t && u < t + 1000).length));

describe('the pacer', () => {
  it('starts at most 28 a second overall, in fixed slots', () => {
    const pacer = new Pacer<Item>(TELEGRAM);
    for (let chat = 1; chat <= 100; chat++) pacer.add(chat, item());
    const starts = simulate(pacer, 10_000);
    expect(starts).toHaveLength(100);
    expect(busiestSecond(starts.map(([, at]) => at))).toBeLessThanOrEqual(28);
    // 100 messages take about 100/28 s, not more.
    expect(starts[99][1]).toBeLessThan(3600);
  });

  it('one message a second in a private chat, one every 3 s in a group; a chat’s messages keep their order', () => {
    const pacer = new Pacer<Item>(TELEGRAM);
    const privateItems = [item(), item(), item()];
    const groupItems = [item(), item()];
    for (const i of privateItems) pacer.add(7, i);
    for (const i of groupItems) pacer.add(-100, i);
    const order: number[] = [];
    let now = 0;
    const at = new Map<number, number[]>();
    while (order.length < 5) {
      const d = pacer.next(now);
      if (!d.send) {
        now = d.until;
        continue;
      }
      order.push(pacer.start(d.chatId, now).item.id);
      pacer.finish(d.chatId);
      at.set(d.chatId, [...(at.get(d.chatId) ?? []), now]);
    }
    expect(order.filter((id) => privateItems.some((i) => i.id === id))).toEqual(privateItems.map((i) => i.id));
    expect(at.get(7)).toEqual([0, 1000, 2000]);
    expect(at.get(-100)![1] - at.get(-100)![0]).toBe(3000);
  });

  it('the lane that waited longest goes next, bulk messages after the rest; a backlog never delays other chats', () => {
    const pacer = new Pacer<Item>(TELEGRAM);
    const reminders = [1, 2, 3].map((chat) => [chat, item(true)] as const);
    for (const [chat, i] of reminders) pacer.add(chat, i);
    for (let k = 0; k < 5; k++) pacer.add(50, item());
    const confirmation = item();
    pacer.add(60, confirmation);
    const starts = simulate(pacer, 10_000);
    // The flooded chat's first message (oldest non-bulk), the confirmation, then the reminders; the flood at 1/s.
    expect(starts.slice(0, 5).map(([chat]) => chat)).toEqual([50, 60, 1, 2, 3]);
    expect(starts.filter(([chat]) => chat === 50).map(([, at]) => at)).toEqual([0, 1000, 2000, 3000, 4000]);
  });

  it('at most 10 awaiting Telegram’s answer; a finished send frees a place', () => {
    const pacer = new Pacer<Item>(TELEGRAM);
    for (let chat = 1; chat <= 20; chat++) pacer.add(chat, item());
    let now = 0;
    for (let k = 0; k < 10; k++) {
      const d = pacer.next(now);
      if (!d.send) {
        now = d.until;
        k--;
        continue;
      }
      pacer.start(d.chatId, now);
    }
    expect(pacer.inFlight).toBe(10);
    expect(pacer.next(now + 5000)).toEqual({ send: false, until: Infinity, paused: false });
    pacer.finish(1);
    expect(pacer.next(now + 5000).send).toBe(true);
  });

  it('a 429 is the chat’s own when it was just written to; the bot’s when it cannot be (nothing sent lately, or several chats at once)', () => {
    const pacer = new Pacer<Item>(TELEGRAM);
    expect(pacer.limited(1, 3, 10_000, 9_000)).toEqual({ until: 13_000, global: false });
    expect(pacer.pausedUntil).toBe(0);
    expect(pacer.limited(2, 5, 10_500, 9_900)).toEqual({ until: 15_500, global: true });
    expect(pacer.pausedUntil).toBe(15_500);
    const fresh = new Pacer<Item>(TELEGRAM);
    expect(fresh.limited(3, 2, 0, undefined).global).toBe(true);
    fresh.add(4, item());
    expect(fresh.next(1000)).toEqual({ send: false, until: 2000, paused: true });
    expect(fresh.next(2000).send).toBe(true);
  });

  it('an instance that takes over counts what the last sender sent in the last second, and each chat’s last message', () => {
    const pacer = new Pacer<Item>(TELEGRAM);
    // The previous sender started 28 messages between 9,000 and 9,972 ms, the last one to chat 5.
    for (let k = 0; k < 28; k++) pacer.seed(100 + k, 9000 + k * 36);
    pacer.seed(5, 9990);
    pacer.add(5, item());
    pacer.add(6, item());
    const starts = simulate(pacer, 20_000, 10_000);
    // No 29th message within a second of the first seeded one, and chat 5 waits out its second.
    expect(starts[0]).toEqual([6, 10_036]);
    expect(starts[1][0]).toBe(5);
    expect(starts[1][1]).toBeGreaterThanOrEqual(10_990);
  });

  it('starts nothing before a time it is told (a sender that took over from one that may have sent unrecorded messages)', () => {
    const pacer = new Pacer<Item>(TELEGRAM);
    pacer.notBefore(11_000);
    pacer.add(1, item());
    expect(pacer.next(10_000)).toEqual({ send: false, until: 11_000, paused: false });
    expect(simulate(pacer, 20_000, 10_000)).toEqual([[1, 11_000]]);
  });
});
