import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_BOT_TOKEN } from './telegram';

/**
 * Real server processes (server/main.ts, as deployed) on one database, for tests and benchmarks of
 * several instances: each on its own port, its log kept to read what it did (e.g. whether it is the
 * outbox's sender). The database must be migrated first (instances starting together would race).
 */
export interface ServerInstance {
  url: string;
  pid: number;
  /** Its log so far (JSON lines). */
  log(): string;
  /** Whether it became the outbox's sender (on PostgreSQL one instance at a time is). */
  isSender(): boolean;
  kill(): Promise<void>;
  /** SIGTERM, as an orchestrator stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export const SENDER_LOG = 'outbox: this instance now sends for the bot';

export async function startServerInstances(
  count: number,
  opts: { databaseUrl: string; telegramApiRoot: string; env?: Record<string, string> },
): Promise<ServerInstance[]> {
  return Promise.all(Array.from({ length: count }, () => startServerInstance(opts)));
}

async function startServerInstance(opts: {
  databaseUrl: string;
  telegramApiRoot: string;
  env?: Record<string, string>;
}): Promise<ServerInstance> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-instance-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      // JSON log lines, as deployed (pino-pretty would cost the instances CPU the benchmark measures).
      NODE_ENV: 'production',
      DATABASE_URL: opts.databaseUrl,
      DATA_DIR: dir,
      DIST_DIR: dir,
      // A free port, chosen by the system; the instance says which in its log.
      PORT: '0',
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      FIRST_SUPERUSER: 'admin@example.com',
      FIRST_SUPERUSER_PASSWORD: 'superuser-password-1',
      BOT_TOKEN: TEST_BOT_TOKEN,
      TELEGRAM_API_ROOT: opts.telegramApiRoot,
      PUBLIC_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'info',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  let url = '';
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server instance exited ${child.exitCode}:\n${out}`);
    url ||= /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? '';
    const up = await (url ? fetch(`${url}/api/v1/utils/health-check/`) : Promise.reject(new Error('no port yet'))).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server instance not up in 30 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const done = async () => {
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return {
    url,
    pid: child.pid!,
    log: () => out,
    isSender: () => out.includes(SENDER_LOG),
    async kill() {
      child.kill('SIGKILL');
      await done();
    },
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      await done();
      return code;
    },
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
