import type { FastifyBaseLogger } from 'fastify';
import { createScheduler, jobs } from '../core/jobs/scheduler';
import { anyDueNotification } from '../db/repositories/notifications';
import type { PlatformStore } from './store';
import type { StudioHost } from './host';

/*
 * The studios' periodic jobs without visiting every studio at every tick: the platform store's `wakes`
 * says when each studio is next due, and a tick takes only the studios due (an index on due_at). A
 * studio in use has its jobs every tick, one nobody uses every PLATFORM_IDLE_WAKE_S. Each instance
 * claims a studio's wake before running it (an update that only one instance's condition matches), so
 * two instances never run one studio's jobs at once. Jobs run on the studio's database alone; its bot is
 * opened only when they left something to deliver.
 */

export interface Waker {
  start(): void;
  stop(): Promise<void>;
  /** One tick: the studios due at `now` (as many as half a tick has time for); answers how many ran. */
  runDue(now?: Date): Promise<number>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createWaker(deps: {
  store: PlatformStore;
  host: StudioHost;
  log: FastifyBaseLogger;
  tickMs: number;
  idleWakeMs: number;
  /** Studios read from the due index at a time (a tick reads again while it has time). */
  batch?: number;
}): Waker {
  const { store, host, log, tickMs, idleWakeMs } = deps;
  const batch = deps.batch ?? 50;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<unknown> = Promise.resolve();

  async function runStudio(studioId: number, slug: string, now: Date) {
    const outcome = await host.withDatabase(slug, async (database, timezone) => {
      await createScheduler({ jobs: jobs(database, { timezone }), log: log.child({ studio: slug }) }).runOnce(now);
      return anyDueNotification(database.db, now.toISOString());
    });
    // Something to send: the studio's bot and outbox worker open (and stay while it is recently used).
    if (outcome === true) await host.open(slug);
    const busy = host.live().some((c) => c.studio.id === studioId && now.getTime() - c.usedAt < idleWakeMs);
    await store.db
      .updateTable('wakes')
      // An idle studio's next wake drifts by up to a tenth either way, so studios created together (or
      // woken together after a pause) spread over the period instead of coming due in one burst.
      .set({ due_at: iso(now.getTime() + (busy ? tickMs : Math.round(idleWakeMs * (0.9 + 0.2 * Math.random())))) })
      .where('studio_id', '=', studioId)
      .execute();
  }

  async function runDue(now = new Date()) {
    // Studios this instance served requests for lately are due every tick.
    const busy = host
      .live()
      .filter((c) => now.getTime() - c.usedAt < idleWakeMs)
      .map((c) => c.studio.id);
    if (busy.length > 0)
      await store.db
        .updateTable('wakes')
        .set({ due_at: iso(now.getTime()) })
        .where('studio_id', 'in', busy)
        .where('due_at', '>', iso(now.getTime() + tickMs))
        .execute();
    // Batch after batch, oldest due first, for up to half a tick: a backlog (a thousand studios due
    // after a deploy) is worked off at once, and what is left is the first of the next tick.
    const started = performance.now();
    let ran = 0;
    for (;;) {
      const due = await store.db
        .selectFrom('wakes')
        .innerJoin('studios', 'studios.id', 'wakes.studio_id')
        .select(['wakes.studio_id', 'wakes.due_at', 'studios.slug'])
        .where('wakes.due_at', '<=', now.toISOString())
        .where('studios.status', '=', 'active')
        .orderBy('wakes.due_at')
        .limit(batch)
        .execute();
      for (const w of due) {
        // The claim: pushed past this run, only while it is still due (another instance's claim moved it on).
        const claimed = await store.db
          .updateTable('wakes')
          .set({ due_at: iso(now.getTime() + Math.max(tickMs, 60_000)) })
          .where('studio_id', '=', w.studio_id)
          .where('due_at', '<=', now.toISOString())
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) continue;
        try {
          await runStudio(w.studio_id, w.slug, now);
          ran++;
        } catch (err) {
          log.error({ err, studio: w.slug }, 'platform: studio jobs failed');
        }
      }
      if (due.length < batch || performance.now() - started > tickMs / 2) break;
    }
    return ran;
  }

  const tick = () => {
    current = current.then(() => runDue()).catch((err: unknown) => log.error({ err }, 'platform: wake tick failed'));
  };

  return {
    start() {
      if (timer) return;
      tick();
      timer = setInterval(tick, tickMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await current;
    },
    runDue,
  };
}
