import type { Clock } from '../../bot/delivery/clock';

/**
 * A virtual clock for the delivery worker: it stands still except when everything that waits on it is
 * asleep and no real I/O it was told of (`hold`) is under way; then it jumps to the earliest wake-up.
 * So seconds of Telegram's pace pass in the milliseconds the real work (database, HTTP to the fake Bot
 * API) takes, and a slow machine makes the test slower, never the pace different. It starts at the real
 * time: rows written before are due. Give the same clock to the fake Bot API (startFakeTelegram's
 * `clock`), so it judges the limits on the same time.
 */
export interface VirtualClock extends Clock {
  /**
   * A test's own wait: it ends when the clock gets there, but moves the clock only together with the
   * worker's sleeps (the clock never jumps while the worker is busy with the database).
   */
  wait(ms: number): Promise<void>;
  /** Time stands still until `p` settles (a send awaiting the fake's answer). */
  hold<T>(p: Promise<T>): Promise<T>;
  /** Time stands still until the returned function is called (a test writing several rows at once). */
  freeze(): () => void;
}

export function virtualClock(start = Date.now()): VirtualClock {
  let offset = 0;
  let held = 0;
  let checking = false;
  const sleepers = new Set<{ at: number; resolve: () => void; passive?: boolean }>();
  const now = () => start + offset;

  /** Wakes whoever is due; jumps ahead when everyone is asleep (checked twice, so pending callbacks run first). */
  function kick() {
    if (checking) return;
    checking = true;
    setImmediate(() =>
      setImmediate(() => {
        checking = false;
        if (sleepers.size === 0) return;
        const t = now();
        const earliest = Math.min(...[...sleepers].map((s) => s.at));
        const workerAsleep = [...sleepers].some((s) => !s.passive);
        if (held === 0 && workerAsleep && earliest > t) offset += earliest - t;
        const at = now();
        for (const s of sleepers)
          if (s.at <= at) {
            sleepers.delete(s);
            s.resolve();
          }
        if (held === 0 && [...sleepers].some((s) => !s.passive)) kick();
      }),
    );
  }

  const release = () => {
    held--;
    kick();
  };

  return {
    now,
    sleep(ms, signal) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const sleeper = {
          at: now() + Math.max(0, ms),
          resolve: () => {
            signal?.removeEventListener('abort', abort);
            resolve();
          },
        };
        const abort = () => {
          sleepers.delete(sleeper);
          sleeper.resolve();
          kick();
        };
        signal?.addEventListener('abort', abort, { once: true });
        sleepers.add(sleeper);
        kick();
      });
    },
    wait(ms) {
      return new Promise<void>((resolve) => {
        sleepers.add({ at: now() + Math.max(0, ms), resolve, passive: true });
        kick();
      });
    },
    hold(p) {
      held++;
      return p.finally(release);
    },
    freeze() {
      held++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        release();
      };
    },
  };
}
