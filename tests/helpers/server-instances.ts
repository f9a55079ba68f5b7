import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_BOT_TOKEN } from './telegram';
import { startServerProcess } from './server-process';
import { SENDER_LOG, SENDER_STOPPED_LOG } from '../../bot/outbox';

/**
 * Real server processes (server/main.ts through startServerProcess) on one database with the bot on,
 * for the tests and benchmarks of several instances' delivery: each on its own port, its log kept to
 * read what it did (whether it is the outbox's sender). The database must be migrated first
 * (instances starting together would race).
 */
export interface ServerInstance {
  url: string;
  pid: number;
  /** Its log so far (JSON lines). */
  log(): string;
  /** Whether it is the outbox's sender now, by its log (on PostgreSQL one instance at a time is). */
  isSender(): boolean;
  kill(): Promise<void>;
  /** SIGTERM, as an orchestrator stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function startServerInstances(
  count: number,
  opts: { databaseUrl: string; telegramApiRoot: string; env?: Record<string, string> },
): Promise<ServerInstance[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServerInstance(opts)));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((r) => (r.status === 'fulfilled' ? r.value.kill() : undefined)));
    throw failed.reason;
  }
  return started.map((r) => (r as PromiseFulfilledResult<ServerInstance>).value);
}

async function startServerInstance(opts: {
  databaseUrl: string;
  telegramApiRoot: string;
  env?: Record<string, string>;
}): Promise<ServerInstance> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-instance-'));
  const p = await startServerProcess({
    // JSON log lines, as deployed (pino-pretty would cost the instances CPU the benchmark measures).
    NODE_ENV: 'production',
    DATABASE_URL: opts.databaseUrl,
    DATA_DIR: dir,
    DIST_DIR: dir,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    FIRST_SUPERUSER: 'admin@example.com',
    FIRST_SUPERUSER_PASSWORD: 'superuser-password-1',
    BOT_TOKEN: TEST_BOT_TOKEN,
    TELEGRAM_API_ROOT: opts.telegramApiRoot,
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'info',
    ...opts.env,
  }).catch((err: unknown) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  const ended = async (signal: NodeJS.Signals) => {
    p.kill(signal);
    const code = await p.exited;
    fs.rmSync(dir, { recursive: true, force: true });
    return code;
  };
  return {
    url: p.url,
    pid: p.child.pid!,
    log: p.output,
    isSender: () => p.output().lastIndexOf(SENDER_LOG) > p.output().lastIndexOf(SENDER_STOPPED_LOG),
    async kill() {
      await ended('SIGKILL');
    },
    stop: () => ended('SIGTERM'),
  };
}

/** The instance that sends for the bot now: the last one that logged taking over and is still running. */
export async function waitForSender(instances: ServerInstance[], timeoutMs = 10_000): Promise<ServerInstance> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const senders = instances.filter((i) => i.isSender());
    if (senders.length === 1) return senders[0];
    if (senders.length > 1) throw new Error(`${senders.length} instances say they send for the bot`);
    if (Date.now() > deadline) throw new Error('no instance became the sender');
    await new Promise((r) => setTimeout(r, 50));
  }
}
