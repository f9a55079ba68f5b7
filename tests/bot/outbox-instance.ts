/**
 * One "server instance" of the outbox for the two-instances test: a separate process (as two
 * servers on one database are), with its own database connection, draining the outbox through
 * the fake Bot API. Configured by the environment like the server; prints {"sent": n}. With
 * OUTBOX_SERVE=1 it runs the worker like a server does, until killed; OUTBOX_OPTIONS (JSON) tunes it.
 * Run: node --import tsx tests/bot/outbox-instance.ts
 */
import { Api } from 'grammy';
import { loadConfig } from '../../server/config';
import { createDb } from '../../db/database';
import { createOutbox, type OutboxOptions } from '../../bot/outbox';
import { renderContext } from '../../bot/context';
import { renderNotification } from '../../bot/messages';

const config = loadConfig(undefined, { dotenv: false });
const database = createDb(config.databaseUrl);
const api = new Api(config.botToken!, { apiRoot: config.telegramApiRoot });
const rc = renderContext(config);
let sent = 0;
const log = { debug() {}, info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };
const outbox = createOutbox({
  database,
  log,
  options: { batchSize: 3, ...(JSON.parse(process.env.OUTBOX_OPTIONS ?? '{}') as Partial<OutboxOptions>) },
  render: (n) => renderNotification(n, rc),
  api: {
    sendVenue: api.raw.sendVenue,
    sendLocation: api.raw.sendLocation,
    sendDocument: api.raw.sendDocument,
    sendPhoto: api.raw.sendPhoto,
    sendInvoice: api.raw.sendInvoice,
    sendMessage: (args, signal) => {
      sent++;
      return api.raw.sendMessage(args, signal);
    },
  },
});
// Start together with the other instance: say "ready", wait for "go" on stdin.
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
if (process.env.OUTBOX_SERVE === '1') {
  // A running server's worker: delivers until killed (the crash test kills it mid-delivery), or
  // stopped by SIGTERM as server/main.ts stops it.
  outbox.start();
  process.once('SIGTERM', () => {
    void outbox
      .stop()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
} else {
  // Two pollers at once in this instance too, like the worker's loop overlapping a manual drain.
  await Promise.all([outbox.drain(), outbox.drain()]);
  await database.close();
  process.stdout.write(JSON.stringify({ sent }) + '\n');
  process.exit(0);
}
