/**
 * Benchmarks of the server as deployed (`node dist/server/main.js`, compiled), in `npm run bench`:
 * - start: from spawning it to its first readiness answer, beside plain `node -e 0` (goals: START_GOALS;
 *   a miss is printed loudly and fails the bench);
 * - storm (PostgreSQL): 1,000 concurrent bookings of one 8-seat session through one instance and
 *   through three behind a round-robin client.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error plain JavaScript without declarations (it must run before anything is compiled)
import { ensureServer } from '../scripts/build-server.js';
import { createDb } from '../db/database';
import { freshDatabaseUrl } from '../tests/helpers/db';
import { bookingPayload, inDays } from '../tests/helpers/factories';
import { freePort, ROOT, startServerProcess, type ServerProcess } from '../tests/helpers/server-process';
import { initDataFor, TEST_BOT_TOKEN } from '../tests/helpers/telegram';

export interface Row {
  what: string;
  measured: string;
  budget: string;
  ok: boolean;
}

const MAIN = ['dist/server/main.js'];

async function compiled() {
  await ensureServer();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere). */
function cpuTimeMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

/** Milliseconds from spawning `args` until `ready()` (or its exit, when none), and its CPU time by then. */
async function timeToReady(args: string[], env: NodeJS.ProcessEnv, ready?: () => Promise<boolean>) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  if (!ready) {
    await exited;
    return { ms: performance.now() - started, cpu: NaN };
  }
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}`);
    if (await ready().catch(() => false)) break;
    if (performance.now() - started > 30_000) throw new Error(`${args.join(' ')}: not ready in 30 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = performance.now() - started;
  const cpu = cpuTimeMs(child.pid);
  child.kill('SIGTERM');
  await exited;
  return { ms, cpu };
}

/** The goals of the start: readiness within this, and within this many times plain `node -e 0` in the same run. */
export const START_GOALS = { ms: 500, timesPlainNode: 10 };

/**
 * The compiled server on a fresh SQLite file (NODE_ENV=production, no bot) until readiness answers 200,
 * each run beside plain `node -e 0`; the first pair warms the file cache, the next five are measured.
 */
export async function startBench(): Promise<Row[]> {
  await compiled();
  const runs: Array<{ ms: number; cpu: number }> = [];
  const plain: number[] = [];
  const loadBefore = os.loadavg();
  const start = async (dir: string) => {
    const port = await freePort();
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123',
      DATABASE_URL: `sqlite:${dir}/app.db`,
      DATA_DIR: dir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DIST_DIR: path.resolve(ROOT, 'dist'),
    };
    return timeToReady(MAIN, env, () => fetch(`http://127.0.0.1:${port}/api/v1/utils/ready`).then((r) => r.ok));
  };
  for (let i = 0; i < 6; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-start-'));
    const run = await start(dir);
    const node = (await timeToReady(['-e', '0'], { PATH: process.env.PATH })).ms;
    fs.rmSync(dir, { recursive: true, force: true });
    if (i > 0) {
      runs.push(run);
      plain.push(node);
    }
  }
  // A restart: the database of the first start, migrated and with its superuser (a deploy's usual case).
  const kept = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-restart-'));
  await start(kept);
  const restarts: number[] = [];
  for (let i = 0; i < 5; i++) restarts.push((await start(kept)).ms);
  fs.rmSync(kept, { recursive: true, force: true });
  const ms = median(runs.map((r) => r.ms));
  const cpu = median(runs.map((r) => r.cpu));
  const node = median(plain);
  const ratio = ms / node;
  const load = [loadBefore, os.loadavg()].map((l) => l.map((x) => x.toFixed(2)).join(' ')).join(' → ');
  const ok = ms < START_GOALS.ms && ratio <= START_GOALS.timesPlainNode;
  if (!ok)
    console.error(
      `\n!!! START GOAL MISSED: readiness in ${ms.toFixed(0)} ms = ${ratio.toFixed(1)} × plain node ` +
        `(goal < ${START_GOALS.ms} ms and ≤ ${START_GOALS.timesPlainNode} ×), load average ${load} on ${os.cpus().length} cores !!!\n`,
    );
  return [
    {
      what: 'Start: node dist/server/main.js to readiness (fresh SQLite, production), vs plain node -e 0 (median of 5)',
      measured:
        `${ms.toFixed(0)} ms vs ${node.toFixed(0)} ms = ${ratio.toFixed(1)} × plain node ` +
        `(runs ${runs.map((r) => r.ms.toFixed(0)).join(', ')} vs ${plain.map((p) => p.toFixed(0)).join(', ')}; ` +
        `load average ${load} on ${os.cpus().length} cores)`,
      budget: `< ${START_GOALS.ms} ms and ≤ ${START_GOALS.timesPlainNode} × plain node`,
      ok,
    },
    {
      what: 'Start on an existing database (a restart): node dist/server/main.js to readiness (median of 5)',
      measured: `${median(restarts).toFixed(0)} ms = ${(median(restarts) / node).toFixed(1)} × plain node (runs ${restarts.map((r) => r.toFixed(0)).join(', ')})`,
      budget: `< ${START_GOALS.ms} ms and ≤ ${START_GOALS.timesPlainNode} × plain node`,
      ok: median(restarts) < START_GOALS.ms && median(restarts) / node <= START_GOALS.timesPlainNode,
    },
    // Wall time depends on what else runs; the CPU the server used does not, and bounds it on an idle machine.
    {
      what: 'Start: CPU time the server used until readiness (user + system)',
      measured: `${cpu} ms (runs ${runs.map((r) => r.cpu).join(', ')})`,
      budget: `< ${START_GOALS.ms} ms`,
      ok: cpu < START_GOALS.ms,
    },
  ];
}

/** 1,000 concurrent bookings of one 8-seat session, sent round-robin to `count` instances on a new database. */
async function storm(count: number) {
  const fresh = await freshDatabaseUrl();
  const servers: ServerProcess[] = [];
  const database = createDb(fresh.url);
  try {
    for (let i = 0; i < count; i++) {
      servers.push(
        await startServerProcess(
          {
            NODE_ENV: 'production',
            DATABASE_URL: fresh.url,
            SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123',
            FIRST_SUPERUSER_PASSWORD: 'superuser-password-1',
            BOT_TOKEN: TEST_BOT_TOKEN,
            TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
            DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wb-storm-')),
            DIST_DIR: '/nonexistent',
            LOG_LEVEL: 'warn',
          },
          { command: [process.execPath, ...MAIN] },
        ),
      );
    }
    const base = `${servers[0].url}/api/v1`;
    const login = await fetch(`${base}/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'admin@example.com', password: 'superuser-password-1' }),
    });
    const staff = { authorization: `Bearer ${(await login.json()).access_token}`, 'content-type': 'application/json' };
    const post = async (url: string, body: unknown) =>
      (await fetch(`${base}${url}`, { method: 'POST', headers: staff, body: JSON.stringify(body) })).json();
    const w = await post('/workshops/', { title: 'Паста', price: 3500 });
    const a = await post('/address/', { title: 'Адрес', map_link: 'https://m' });
    const s = await post('/schedule/', { date: inDays(3), capacity: 8, workshop_id: w.id, address_id: a.id });
    const body = JSON.stringify(bookingPayload(s.id));
    const headers = Array.from({ length: 1000 }, (_, i) => ({
      authorization: `tma ${initDataFor({ id: 900_000 + i })}`,
      'content-type': 'application/json',
    }));
    const started = performance.now();
    const statuses = await Promise.all(
      headers.map((h, i) =>
        fetch(`${servers[i % count].url}/api/v1/records/`, { method: 'POST', headers: h, body }).then(
          (r) => r.status,
          (err: Error) => `${err.message}: ${String((err.cause as Error | undefined)?.message ?? '')}`,
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const rows = await database.db
      .selectFrom('records')
      .select(['state', 'people_count'])
      .where('schedule_id', '=', s.id)
      .execute();
    return {
      perSecond: 1000 / seconds,
      taken: rows.filter((r) => r.state === 'ACTIVE').reduce((n, r) => n + r.people_count, 0),
      queued: rows.filter((r) => r.state === 'QUEUED').length,
      failed: statuses.filter((c) => c !== 201).length,
      why: [...new Set(statuses.filter((c) => c !== 201))].join('; '),
    };
  } finally {
    for (const s of servers) s.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await database.close();
    await fresh.drop();
  }
}

/** The booking storm through one and through three instances on PostgreSQL. */
export async function stormInstancesBench(): Promise<Row[]> {
  await compiled();
  const one = await storm(1);
  const three = await storm(3);
  const fine = (r: typeof one) => r.taken === 8 && r.queued === 992 && r.failed === 0;
  return [
    {
      what: 'Booking storm through 1 vs 3 instances (node dist/server/main.js, one PostgreSQL, round-robin client)',
      measured:
        `1: ${one.perSecond.toFixed(0)} bookings/s, 3: ${three.perSecond.toFixed(0)} bookings/s = ${(three.perSecond / one.perSecond).toFixed(2)} × ` +
        `(seats taken ${one.taken} / ${three.taken}, queued ${one.queued} / ${three.queued}, refused ${one.failed} / ${three.failed})` +
        [one.why, three.why]
          .filter(Boolean)
          .map((w) => ` ${w}`)
          .join(';'),
      budget: '0 overbooking: 8 taken, 992 queued, none refused, each way',
      ok: fine(one) && fine(three),
    },
  ];
}
