import { loadConfig } from './config';
import { buildApp } from './app';
import { createDb } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { ensureFirstSuperuser } from './services/bootstrap';

// The only file that wires real things together and listens.
const config = loadConfig();
const database = createDb(config.databaseUrl);
await migrateToLatest(database.db);

const app = await buildApp({
  config,
  database,
  logger: { level: config.logLevel, redact: ['req.headers.authorization'] },
});

const first = await ensureFirstSuperuser(database, config);
if (first) {
  const pw = first.generated ? `password: ${first.password}  (generated: shown this once, keep it)` : 'password: from FIRST_SUPERUSER_PASSWORD';
  console.log(`\nFirst superuser created: ${first.email}\n${pw}\n`);
}

// Graceful shutdown: stop accepting, let in-flight requests finish, then close the database (onClose).
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });
console.log(`Listening on http://${config.host}:${config.port} (public URL ${config.publicUrl}): admin /, mini-app /apply, API docs /docs`);

// The bot (webhook or polling), the notification outbox worker and the day-before digest job.
if (app.telegram) await app.telegram.start();
else app.log.warn('BOT_TOKEN is not set: the Telegram bot is off; notifications stay in the outbox undelivered until a token is configured');
