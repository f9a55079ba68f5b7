import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { createDb, type Database } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { ensureFirstSuperuser } from '../../core/staff/users';
import { createScheduler, jobs, type Scheduler } from '../../core/jobs/scheduler';
import type { Mailer } from '../../server/email';
import { API_PREFIX } from '../../server/app';
import { WEBHOOK_PATH } from '../../server/routes/telegram';
import { freshDatabaseUrl } from './db';
import { TEST_BOT_TOKEN } from './telegram';
import { FAKE_BOT } from './fake-telegram';
import { createTelegram, type Telegram, type TelegramOptions } from '../../bot/runtime';
import { createMetrics, type Metrics } from '../../server/metrics';

const SILENT_LOG = { info() {}, warn() {}, error() {}, debug() {} };

export const SUPERUSER = { email: 'admin@example.com', password: 'superuser-password-1' };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  superuser: typeof SUPERUSER;
  /** The bot and its outbox worker, as main.ts wires them (null without BOT_TOKEN). */
  telegram: Telegram | null;
  /** Prometheus metrics (null without METRICS_TOKEN). */
  metrics: Metrics | null;
  /** The periodic jobs, run by hand with runOnce(). */
  scheduler: Scheduler;
  /** Bearer header of a logged-in user. */
  auth(email?: string, password?: string): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

/** The whole server on a fresh, migrated database (SQLite file, or PostgreSQL with TEST_DATABASE_URL). */
export async function buildTestApp(
  opts: {
    env?: Record<string, string>;
    /** Fields of the loaded configuration replaced (those no variable sets, e.g. `basePath`). */
    config?: Partial<Config>;
    mailer?: Mailer;
    rateLimits?: { login?: number; passwordRecovery?: number; customerWrites?: number };
    timeouts?: AppDeps['timeouts'];
    /** Set `draining` to stop as on SIGTERM. */
    lifecycle?: AppDeps['lifecycle'];
    /** Reuse this database (a "restart" on the same data); the caller drops it, close() does not. */
    databaseUrl?: string;
    /** Telegram runtime options over the tests' own (e.g. `botInfo: undefined` to make the bot call getMe). */
    telegram?: TelegramOptions;
    /** The platform's side of the studio (its name, zone and login links); none: a single studio. */
    studio?: AppDeps['studio'];
  } = {},
): Promise<TestApp> {
  const fresh = opts.databaseUrl ? { url: opts.databaseUrl, drop: async () => {} } : await freshDatabaseUrl();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-data-'));
  const loaded = loadConfig(
    {
      DATABASE_URL: fresh.url,
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      FIRST_SUPERUSER: SUPERUSER.email,
      FIRST_SUPERUSER_PASSWORD: SUPERUSER.password,
      BOT_TOKEN: TEST_BOT_TOKEN,
      // Telegram is unreachable from tests: without a fake Bot API, calls are refused at once (port 9).
      TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...opts.env,
    },
    { dotenv: false },
  );
  const config: Config = { ...loaded, ...opts.config };
  const database = createDb(config.databaseUrl);
  await migrateToLatest(database.db);
  await ensureFirstSuperuser(database, { email: config.firstSuperuser, password: config.firstSuperuserPassword });
  // As main.ts wires them: metrics only with METRICS_TOKEN.
  const metrics = config.metricsToken ? createMetrics(database) : null;
  // The bot knows who it is (no getMe), and its Bot API is a local fake or, by default, a closed port: tests never reach Telegram.
  const telegram = config.botToken
    ? createTelegram({
        config,
        database,
        log: SILENT_LOG,
        webhookPath: API_PREFIX + WEBHOOK_PATH,
        // Feature tests do not wait out Telegram's per-chat pace (a second between two messages to one
        // chat); the outbox's own tests (tests/bot/outbox*.test.ts) run it at Telegram's pace.
        options: {
          botInfo: FAKE_BOT,
          outbox: { privateChatIntervalMs: 0, groupChatIntervalMs: 0 },
          onSend: metrics?.onSend,
          ...opts.telegram,
        },
      })
    : null;
  const app = await buildApp({
    config,
    database,
    mailer: opts.mailer,
    rateLimits: { login: 10_000, passwordRecovery: 10_000, customerWrites: 10_000, ...opts.rateLimits },
    timeouts: opts.timeouts,
    telegram,
    metrics,
    lifecycle: opts.lifecycle,
    studio: opts.studio,
  });
  await app.ready();

  const auth = async (email = SUPERUSER.email, password = SUPERUSER.password) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/login/access-token',
      payload: new URLSearchParams({ username: email, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.body}`);
    return { authorization: `Bearer ${res.json().access_token}` };
  };

  return {
    app,
    database,
    config,
    superuser: SUPERUSER,
    telegram,
    metrics,
    scheduler: createScheduler({
      jobs: jobs(database, { timezone: config.businessTimezone }),
      log: SILENT_LOG,
      onJob: metrics?.onJob,
    }),
    auth,
    async close() {
      await telegram?.stop();
      await app.close();
      await fresh.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
