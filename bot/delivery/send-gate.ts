/*
 * A cap on the Bot API sends of every bot of a process together (a platform's studios): at most
 * `perSecond` sends start a second, evenly, taken in turn from each bot that has one waiting, so a studio's
 * broadcast never queues ahead of another studio's confirmation. Each bot's own pace (Telegram's 30/s
 * per bot, 1/s per chat) stays its outbox's.
 */

export interface SendGate {
  /**
   * Resolves when `bot` may start a send, taking turns with the other bots waiting. The outbox takes
   * its permit before it starts a send and paces from then, so a send held here never bunches with
   * the next ones into more than Telegram allows.
   */
  permit(bot: string): Promise<void>;
  /** Sends waiting now, for metrics and tests. */
  waiting(): number;
}

export function createSendGate(perSecond: number): SendGate {
  const queues = new Map<string, (() => void)[]>();
  const turn: string[] = [];
  let timer: NodeJS.Timeout | null = null;
  // A token bucket, not a window a second: sends start evenly through the second (a window's starts
  // came all at once, and a quiet bot arriving after them waited for the next second). At most 20 ms
  // of sends start together, so a late timer loses little of the rate.
  const burst = Math.max(1, Math.floor(perSecond / 50));
  let tokens = burst;
  let refilledAt = Date.now();

  function pump() {
    timer = null;
    const now = Date.now();
    tokens = Math.min(burst, tokens + ((now - refilledAt) * perSecond) / 1000);
    refilledAt = now;
    while (tokens >= 1 && turn.length > 0) {
      const bot = turn.shift()!;
      const queue = queues.get(bot)!;
      queue.shift()!();
      tokens--;
      if (queue.length > 0) turn.push(bot);
      else queues.delete(bot);
    }
    if (turn.length > 0) timer = setTimeout(pump, Math.ceil(((1 - tokens) * 1000) / perSecond));
  }

  return {
    permit(bot) {
      return new Promise((resolve) => {
        const queue = queues.get(bot);
        if (queue) queue.push(resolve);
        else {
          queues.set(bot, [resolve]);
          turn.push(bot);
        }
        if (!timer) pump();
      });
    },
    waiting: () => [...queues.values()].reduce((n, q) => n + q.length, 0),
  };
}
