import type { SendResult } from '../bot/outbox';

/*
 * Telegram's 429s per studio, counted by this instance from its studios' outbox sends (the outbox
 * stores none), for the platform owner's view of each bot's health. Kept for 24 hours.
 */

const DAY_MS = 86_400_000;
/** At most this many per studio (a bot limited for hours would otherwise grow without end). */
const MAX = 10_000;

export interface SendStats {
  /** One send of a studio's outbox and its result. */
  record(studioId: number, result: SendResult, at?: number): void;
  rateLimited(studioId: number, since: number): number;
}

export function createSendStats(): SendStats {
  const limited = new Map<number, number[]>();
  return {
    record(studioId, result, at = Date.now()) {
      if (result !== '429') return;
      const list = (limited.get(studioId) ?? []).filter((t) => t > at - DAY_MS);
      list.push(at);
      limited.set(studioId, list.length > MAX ? list.slice(-MAX) : list);
    },
    rateLimited: (studioId, since) => (limited.get(studioId) ?? []).filter((t) => t >= since).length,
  };
}
