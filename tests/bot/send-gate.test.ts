import { describe, expect, it } from 'vitest';
import { createSendGate } from '../../bot/delivery/send-gate';

/* The cap every bot of a platform instance shares: never more than its rate, and taken in turn. */

describe('the send gate', () => {
  it("starts a quiet bot's send next, however many another bot has waiting, and keeps to the cap", async () => {
    const gate = createSendGate(10);
    const starts: { bot: string; at: number }[] = [];
    const t0 = Date.now();
    const send = (bot: string) => gate.run(bot, async () => void starts.push({ bot, at: Date.now() - t0 }));
    const broadcast = Array.from({ length: 25 }, () => send('a'));
    await new Promise((r) => setTimeout(r, 20));
    const confirmation = send('b');
    await Promise.all([...broadcast, confirmation]);
    // The first second's ten went to the broadcast before the confirmation came; it takes its turn among
    // the first two of the next second, not after the broadcast's fifteen left.
    const b = starts.findIndex((s) => s.bot === 'b');
    expect(b).toBe(11);
    expect(starts[b].at).toBeLessThan(1_200);
    for (const s of starts)
      expect(starts.filter((o) => o.at >= s.at && o.at < s.at + 1000).length).toBeLessThanOrEqual(10);
    expect(gate.waiting()).toBe(0);
  });

  it('alternates between bots that both have sends waiting', async () => {
    const gate = createSendGate(6);
    const order: string[] = [];
    // This second is taken: what comes next waits for the next one.
    const filler = Array.from({ length: 6 }, () => gate.run('x', async () => {}));
    await Promise.all([
      ...filler,
      ...['a', 'a', 'a', 'b', 'b', 'b'].map((bot) => gate.run(bot, async () => void order.push(bot))),
    ]);
    expect(order).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('passes a failed send on to its caller', async () => {
    const gate = createSendGate(5);
    await expect(gate.run('a', () => Promise.reject(new Error('429')))).rejects.toThrow('429');
  });
});
