import type { Database } from '../../db/database';
import { enqueueDueDigests } from './digest';
import { enqueueDueReminders } from '../journey/reminders';
import { enqueueAfterClassThanks } from '../journey/after-class';

/** The business's zone when none is given (BUSINESS_TIMEZONE's default). */
const DEFAULT_TIMEZONE = 'Europe/Belgrade';
import { runRetention } from '../privacy/personal-data';
import { pruneSharedState } from './shared-state';
import { cancelExpiredHolds, cancelPassedQueue } from '../payments/hold';
import { sweepUnreconciled } from '../payments/reconcile';
import { remindExpiringCertificates, settleExpiredCertificates } from '../certificates/expiry';
import { runMinPeopleRule } from '../schedules/min-people';
import type { Log } from '../kernel/log';
import { moneyCheckJob } from './money-check';
import { askForBuyerIds } from '../receipts/buyer-id';
import { deliverStartedSessions } from './fiscal-delivery';

/**
 * The periodic jobs: one timer, every job in turn at each tick. A job must be idempotent (it runs
 * on every instance, after restarts, and again at the next tick): it writes what is due at `now`
 * and nothing twice.
 */
export interface Job {
  name: string;
  /** Returns how many things it did, for the log. */
  run(now: Date): Promise<number>;
}

export interface Scheduler {
  start(): void;
  /** Stops the timer and waits for the tick in progress. */
  stop(): Promise<void>;
  /** One tick at `now`: every job, in order; a failing job does not stop the others. */
  runOnce(now?: Date): Promise<Record<string, number>>;
}

export const DEFAULT_TICK_MS = 60_000;

/** The product's jobs. */
export const jobs = (database: Database, opts: { timezone?: string } = {}): Job[] => [
  { name: 'payment-holds', run: (now) => cancelExpiredHolds(database, now) },
  { name: 'passed-queue', run: (now) => cancelPassedQueue(database, now) },
  // After the hold and queue jobs, so what they settle is not reported as stuck.
  { name: 'unreconciled-money', run: (now) => sweepUnreconciled(database, now) },
  // Before the digest, so a session cancelled for too few people gets no digest.
  { name: 'min-people', run: (now) => runMinPeopleRule(database, now) },
  // After the queue and the minimum: a started session's bookings that are still ACTIVE were delivered.
  { name: 'fiscal-delivery', run: (now) => deliverStartedSessions(database, now) },
  { name: 'digest', run: (now) => enqueueDueDigests(database, now) },
  { name: 'reminders', run: (now) => enqueueDueReminders(database, now) },
  {
    name: 'after-class',
    run: (now) => enqueueAfterClassThanks(database, opts.timezone ?? DEFAULT_TIMEZONE, now),
  },
  // Expired balances are written off (and reported) before any reminder could name them.
  { name: 'certificate-expiry', run: (now) => settleExpiredCertificates(database, now) },
  { name: 'certificate-reminders', run: (now) => remindExpiringCertificates(database, now) },
  // A refund receipt waiting for the buyer's ID: its customer is asked once, in Telegram.
  { name: 'fiscal-buyer-ids', run: () => askForBuyerIds(database) },
  { name: 'retention', run: (now) => runRetention(database, now) },
  { name: 'shared-state', run: (now) => pruneSharedState(database, now) },
  // Last, at a quiet hour: the money invariants over the whole ledger, each break told to staff once.
  { name: 'money-check', run: moneyCheckJob(database, opts.timezone ?? DEFAULT_TIMEZONE) },
];

export function createScheduler(deps: {
  jobs: Job[];
  log: Log;
  tickMs?: number;
  /** Told each job run and whether it failed (metrics). */
  onJob?: (job: string, ok: boolean) => void;
}): Scheduler {
  const tickMs = deps.tickMs ?? DEFAULT_TICK_MS;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<unknown> = Promise.resolve();

  async function runOnce(now = new Date()) {
    const done: Record<string, number> = {};
    for (const job of deps.jobs) {
      try {
        done[job.name] = await job.run(now);
        if (done[job.name] > 0) deps.log.info({ job: job.name, done: done[job.name] }, 'scheduler: job done');
        deps.onJob?.(job.name, true);
      } catch (err) {
        deps.log.error({ err, job: job.name }, 'scheduler: job failed');
        deps.onJob?.(job.name, false);
      }
    }
    return done;
  }

  const tick = () => {
    current = current.then(() => runOnce());
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
    runOnce,
  };
}
