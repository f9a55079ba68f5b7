import { createLogger, listen, loadConfigOrExit, openDatabase } from './startup';
import { API_PREFIX, buildApp } from './app';
import { WEBHOOK_PATH } from './routes/telegram';
import type { Lifecycle, TelegramGateway } from './routes/deps';
import { ensureFirstSuperuser } from '../core/staff/users';
import { createScheduler, jobs } from '../core/jobs/scheduler';
import { createFiscalSender } from '../core/jobs/fiscal-sender';
import { createLpfr } from '../core/fiscal/lpfr';
import type { Telegram } from '../bot/runtime';
import { webhookSecretCheck } from '../bot/webhook-secret';

// The only file that wires real things together and listens.
// A bad configuration, an unreachable database or a busy port: one line per problem and exit 1 (startup.ts).
/** How long after listening the periodic jobs, the fiscal sender and the bot begin (below). */
const BACKGROUND_AFTER_LISTEN_MS = 1000;
const config = loadConfigOrExit();
const log = await createLogger(config);
// PLATFORM=true: many studios, each a whole single-studio server behind the platform's front (platform/).
if (config.platform.enabled) await (await import('../platform/main')).runPlatform(config, log);
else await runStudio();

/** One studio: this deployment is that studio's server. */
async function runStudio() {
  const database = await openDatabase(config);

  // Prometheus metrics only with METRICS_TOKEN (prom-client is then not even loaded: a faster start).
  const metrics = config.metricsToken ? (await import('./metrics')).createMetrics(database) : null;
  // The bot (webhook or polling) and the outbox worker that delivers notifications; none without BOT_TOKEN
  // (grammY is then not even loaded). Loaded after the server listens (its modules and grammY are ~10% of
  // the start-up's work): the routes reach it meanwhile through botAfterListen.
  const telegram = config.botToken
    ? botAfterListen(config.webhookSecret, async () =>
        (await import('../bot/runtime')).createTelegram({
          config,
          database,
          log,
          webhookPath: API_PREFIX + WEBHOOK_PATH,
          options: { onSend: metrics?.onSend },
        }),
      )
    : null;
  // The periodic jobs (the day-before digest, …): they only write rows, so they run with or without a bot.
  const scheduler = createScheduler({
    jobs: jobs(database, { timezone: config.businessTimezone }),
    log,
    tickMs: config.schedulerTickMs,
    onJob: metrics?.onJob,
  });
  // The fiscal outbox's sender: receipts to the studio's PFR while the fiscal mode is lpfr. The mode is a
  // setting an owner may switch at any time, so it always runs; in other modes it finds nothing due.
  const fiscal = createFiscalSender({
    database,
    log,
    pin: config.fiscalPfrPin,
    portFor: (url) => createLpfr({ url, timeoutMs: config.fiscalPfrTimeoutMs }),
    options: { timeoutMs: config.fiscalPfrTimeoutMs },
  });
  // Started before the app is built: on a new database the password hash runs on another thread meanwhile.
  const firstUser = ensureFirstSuperuser(database, {
    email: config.firstSuperuser,
    password: config.firstSuperuserPassword,
  });
  const lifecycle: Lifecycle = { draining: false };
  const app = await buildApp({ config, database, logger: log, telegram, metrics, lifecycle });

  const first = await firstUser;
  if (first) {
    const pw = first.generated
      ? `password: ${first.password}  (generated: shown this once, keep it)`
      : 'password: from FIRST_SUPERUSER_PASSWORD';
    console.log(`\nFirst superuser created: ${first.email}\n${pw}\n`);
  }

  // Graceful shutdown. At once: readiness answers 503 (a load balancer sends new requests elsewhere),
  // the jobs stop and the outbox finishes its sends in flight and gives its other claims back. The
  // server keeps answering for SHUTDOWN_DRAIN_S (until the load balancer has noticed), then stops
  // accepting, lets in-flight requests finish, and closes the database (onClose). The fiscal sender
  // stores the answer of a receipt in flight before it stops.
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      lifecycle.draining = true;
      app.log.info({ signal, drain_ms: config.shutdownDrainMs }, 'shutting down');
      const drained = new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      Promise.all([scheduler.stop(), telegram?.stop(), fiscal.stop(), drained])
        .then(() => app.close())
        .then(
          () => process.exit(0),
          (err: unknown) => {
            app.log.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }

  await listen(app, config);

  // What runs beside the requests begins a moment later: the periodic jobs and the fiscal sender (their
  // first round is synchronous work on SQLite) and the bot (grammY and its modules load, then Telegram's
  // set-up and the outbox worker) would hold up the first requests, a load balancer's readiness probe among
  // them. A request that needs the bot meanwhile loads it. A shutdown before then starts none of them.
  setTimeout(() => {
    if (closing) return;
    scheduler.start();
    fiscal.start();
    telegram?.start().catch((err: unknown) => {
      app.log.fatal({ err }, 'telegram: the bot could not start');
      process.exit(1);
    });
  }, BACKGROUND_AFTER_LISTEN_MS);
  if (!telegram)
    app.log.warn(
      'BOT_TOKEN is not set: the Telegram bot is off; notifications stay in the outbox undelivered until a token is configured',
    );
}

/**
 * The bot as the routes and this file use it, before it is loaded and after: the webhook's secret is
 * checked at once, every other call waits for `load` (started by the first call or by start()).
 */
function botAfterListen(
  webhookSecret: string,
  load: () => Promise<Telegram>,
): TelegramGateway & Pick<Telegram, 'start' | 'stop'> {
  let loading: Promise<Telegram> | undefined;
  const bot = () => (loading ??= load());
  return {
    verifySecret: webhookSecretCheck(webhookSecret),
    handleUpdate: async (update) => (await bot()).handleUpdate(update),
    username: async () => (await bot()).username(),
    createInvoiceLink: async (params) => (await bot()).createInvoiceLink(params),
    savePreparedInlineMessage: async (userId, result) => (await bot()).savePreparedInlineMessage(userId, result),
    start: async () => (await bot()).start(),
    // Never loaded: nothing to stop.
    stop: async () => (loading ? (await loading).stop() : undefined),
  };
}
