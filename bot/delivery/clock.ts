/**
 * Where the delivery worker gets the time and waits: the system clock in production; tests give it a
 * virtual clock, so that seconds of Telegram's pace pass in milliseconds.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * A virtual clock stands still until `work` settles (a send and the write that records it take no
   * virtual time); the system clock has no need of it.
   */
  hold?<T>(work: Promise<T>): Promise<T>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    }),
};
