import { describe, expect, it } from 'vitest';
import { createSendGate } from '../../bot/delivery/send-gate';

/* The cap every bot of a platform instance shares: never more than its rate, and taken in turn. */

describe('the send gate', () => {
  it("starts a quiet bot's send next, however many another bot has waiting, and keeps to the cap", async () => {
    const gate = createSendGate(10);
    const starts: { bot: string; at: number }[] = [];
    const t0 = Date.now();
    const send = (bot: string) => gate.permit(bot).then(() => void starts.push({ bot, at: Date.now() - t0 }));
    const broadcast = Array.from({ length: 25 }, () => send('a'));
    await new Promise((r) => setTimeout(r, 20));
    const confirmation = send('b');
    await Promise.all([...broadcast, confirmation]);
    // Sends start every 100 ms: the confirmation, come after the broadcast's first, takes the turn after
    // the broadcast's second, not after the broadcast's other twenty-four.
    const b = starts.findIndex((s) => s.bot === 'b');
    expect(b).toBe(2);
    expect(starts[b].at).toBeLessThan(300);
    for (let i = 1; i < starts.length; i++) expect(starts[i].at - starts[i - 1].at).toBeGreaterThanOrEqual(95);
    for (const s of starts)
      expect(starts.filter((o) => o.at >= s.at && o.at < s.at + 1000).length).toBeLessThanOrEqual(10);
    expect(gate.waiting()).toBe(0);
  });

  it('alternates between bots that both have sends waiting', async () => {
    const gate = createSendGate(6);
    const order: string[] = [];
    // One waiting already: what comes next takes turns behind it.
    const filler = Array.from({ length: 6 }, () => gate.permit('x'));
    await Promise.all([
      ...filler,
      ...['a', 'a', 'a', 'b', 'b', 'b'].map((bot) => gate.permit(bot).then(() => void order.push(bot))),
    ]);
    expect(order).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
  });
});
