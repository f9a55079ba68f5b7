import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database';
import { outboxBacklog } from '../db/repositories/notifications';
import { countRecordsByState } from '../db/repositories/health';

/** What one Bot API send of the outbox came to. */
export type SendResult = 'ok' | '429' | 'failed';

/**
 * This instance's Prometheus metrics (GET /metrics). The outbox and booking figures are read from
 * the database at each scrape, so every instance reports the same totals for them; sends, HTTP
 * requests and job runs are this instance's own.
 */
export interface Metrics {
  registry: Registry;
  /** The outbox worker's observer: each send's result and Telegram's answer time. */
  onSend(result: SendResult, ms: number): void;
  /** The scheduler's observer: each job run and whether it failed. */
  onJob(job: string, ok: boolean): void;
  /** One answered HTTP request: its route pattern (not the URL, so ids do not multiply the series). */
  onRequest(method: string, route: string, status: number, ms: number): void;
  /** Reads the database figures; called before each scrape. */
  refresh(): Promise<void>;
}

const STATES = ['ACTIVE', 'QUEUED', 'CANCELLED'];

export function createMetrics(database: Database): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const pending = new Gauge({
    name: 'outbox_pending_messages',
    help: 'Notifications in the outbox not yet sent nor failed for good',
    registers,
  });
  const oldest = new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending notification (0 when none is pending)',
    registers,
  });
  const sends = new Counter({
    name: 'telegram_sends_total',
    help: 'Bot API sends of the outbox by result: ok, 429 (rate limited by Telegram), failed',
    labelNames: ['result'],
    registers,
  });
  const sendSeconds = new Histogram({
    name: 'telegram_send_duration_seconds',
    help: "Telegram's answer time to one outbox send",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const httpSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request durations by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const bookings = new Gauge({
    name: 'bookings',
    help: 'Bookings by state, over every session',
    labelNames: ['state'],
    registers,
  });
  const jobRuns = new Counter({
    name: 'scheduler_job_runs_total',
    help: 'Runs of each periodic job',
    labelNames: ['job'],
    registers,
  });
  const jobFailures = new Counter({
    name: 'scheduler_job_failures_total',
    help: 'Failed runs of each periodic job',
    labelNames: ['job'],
    registers,
  });
  // Every label value appears from the start, so a rate() over them is defined before the first event.
  for (const result of ['ok', '429', 'failed']) sends.inc({ result }, 0);

  return {
    registry,
    onSend(result, ms) {
      sends.inc({ result });
      sendSeconds.observe(ms / 1000);
    },
    onJob(job, ok) {
      jobRuns.inc({ job });
      jobFailures.inc({ job }, ok ? 0 : 1);
    },
    onRequest(method, route, status, ms) {
      httpSeconds.observe({ method, route, status: String(status) }, ms / 1000);
    },
    async refresh() {
      const [backlog, states] = await Promise.all([outboxBacklog(database.db), countRecordsByState(database.db)]);
      pending.set(backlog.pending);
      oldest.set(backlog.oldest_age_s ?? 0);
      for (const state of STATES) bookings.set({ state }, states[state] ?? 0);
    },
  };
}
