/**
 * Benchmarks of the server as deployed (`node dist/server/main.js`, compiled), in `npm run bench`:
 * - start: from spawning it to its first readiness answer, beside plain `node -e 0` (goals: START_GOALS;
 *   a miss is printed loudly and fails the bench);
 * - instances (PostgreSQL): 1,000 bookings spread over 50 sessions through one instance and through
 *   three, round-robin, with the CPU a booking costs and the rate this machine's cores allow at most;
 * - storm (PostgreSQL): 1,000 concurrent bookings of one 8-seat session through one instance and
 *   through three behind a round-robin client (serialized on the session's row lock by design).
 * PostgreSQL: TEST_DATABASE_URL, else BENCH_POSTGRES_URL, else the local default server.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
// @ts-expect-error plain JavaScript without declarations (it must run before anything is compiled)
import { ensureServer } from '../scripts/build-server.js';
import { createDb } from '../db/database';
import { bookingPayload, inDays } from '../tests/helpers/factories';
import { freePort, ROOT, startServerProcess, type ServerProcess } from '../tests/helpers/server-process';
import { initDataFor, TEST_BOT_TOKEN } from '../tests/helpers/telegram';
import { cpuBetween, cpuTimeMs, staffApi, uptime } from './booking-rate';

const POSTGRES_URL =
  process.env.TEST_DATABASE_URL ??
  process.env.BENCH_POSTGRES_URL ??
  'postgres://postgres:postgres@127.0.0.1:5432/postgres';

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

// ---------------------------------------------------------------------------------------------------
// Several instances on one PostgreSQL database.

const PASSWORD = 'superuser-password-1';

/** A new, empty PostgreSQL database (the first instance migrates it), dropped afterwards. */
async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `wb_bench_${crypto.randomBytes(6).toString('hex')}`;
  const admin = async (query: string) => {
    const c = new pg.Client({ connectionString: POSTGRES_URL });
    await c.connect();
    await c.query(query).finally(() => c.end());
  };
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

async function postgresReachable(): Promise<string | null> {
  const c = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** A failing row, said loudly, when PostgreSQL cannot be reached; null when it can. */
async function notMeasured(what: string, budget: string): Promise<Row[] | null> {
  const unreachable = await postgresReachable();
  if (!unreachable) return null;
  loud(`${what} not measured: ${POSTGRES_URL.replace(/:[^:@/]+@/, ':***@')}: ${unreachable}`);
  return [
    {
      what: `${what} (PostgreSQL)`,
      measured: `not measured: ${unreachable} (set BENCH_POSTGRES_URL)`,
      budget,
      ok: false,
    },
  ];
}

/**
 * `count` compiled server processes on database `url`, started one after the other (the first migrates)
 * into `servers`, so the caller stops those that started when a later one does not.
 */
async function startInstances(servers: ServerProcess[], count: number, url: string) {
  for (let i = 0; i < count; i++)
    servers.push(
      await startServerProcess(
        {
          NODE_ENV: 'production',
          DATABASE_URL: url,
          SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123',
          FIRST_SUPERUSER_PASSWORD: PASSWORD,
          BOT_TOKEN: TEST_BOT_TOKEN,
          // The outbox's messages go nowhere (refused at once).
          TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
          DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wb-instances-')),
          DIST_DIR: '/nonexistent',
          LOG_LEVEL: 'warn',
        },
        { command: [process.execPath, ...MAIN] },
      ),
    );
}

async function stopInstances(servers: ServerProcess[]) {
  for (const s of servers) s.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
}

/** Errors of requests in the servers' output (not the bot's calls to the closed Bot API port). */
const requestErrors = (servers: ServerProcess[]) =>
  servers.flatMap((s) => s.output().split('\n')).filter((l) => /"level":(50|60)/.test(l) && l.includes('"reqId"'));

/**
 * CPU time (ms) of the PostgreSQL processes a run makes work, by pid: the backends serving database
 * `url` and the cluster's WAL writer, checkpointer and background writer (shared with whatever else uses
 * this server, so an upper bound). /proc: PostgreSQL must run on this machine (an empty map otherwise).
 */
async function postgresCpu(url: string): Promise<Map<number, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>(
      `select pid from pg_stat_activity where pid <> pg_backend_pid()
         and (datname = current_database() or backend_type in ('walwriter', 'checkpointer', 'background writer'))`,
    );
    return new Map(rows.map((r) => [r.pid, cpuTimeMs(r.pid)] as const).filter(([, ms]) => !Number.isNaN(ms)));
  } finally {
    await c.end();
  }
}

/**
 * POSTs each of `requests` to /api/v1/records/ from `clients` concurrent keep-alive clients, the n-th
 * to instance n % urls.length; the count of each status (or connection error).
 */
async function drive(urls: string[], clients: number, requests: Array<{ authorization: string; body: string }>) {
  const agents = urls.map(() => new http.Agent({ keepAlive: true, maxSockets: clients }));
  const statuses = new Map<number | string, number>();
  const post = (n: number) =>
    new Promise<number | string>((resolve) => {
      const { authorization, body } = requests[n];
      const req = http.request(
        `${urls[n % urls.length]}/api/v1/records/`,
        {
          method: 'POST',
          agent: agents[n % urls.length],
          headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
      );
      req.on('error', (err) => resolve(err.message));
      req.end(body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < requests.length) {
        const status = await post(next++);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const a of agents) a.destroy();
  return { seconds, statuses };
}

const SPREAD = { sessions: 50, capacity: 50, bookings: 1000, clients: 50, warmUpPerInstance: 100 };

/**
 * Bookings spread over 50 sessions of 50 seats through `count` instances on a new database: a warm-up
 * of 100 bookings per instance (each instance compiles its hot code), then 1,000 bookings by 1,000
 * customers from 50 clients, round-robin; the rate, and the CPU of the servers, of PostgreSQL (its
 * processes' /proc times) and of this client, each per booking.
 */
async function spread(count: number) {
  const fresh = await freshPostgres();
  const servers: ServerProcess[] = [];
  const database = createDb(fresh.url);
  try {
    await startInstances(servers, count, fresh.url);
    const post = await staffApi(servers[0].url);
    const workshop = await post('/workshops/', { title: 'Паста', price: 3500 });
    const address = await post('/address/', { title: 'Адрес', map_link: 'https://m' });
    const sessions: number[] = [];
    for (let i = 0; i < SPREAD.sessions; i++) {
      const date = inDays(3 + Math.floor(i / 5), 10 + (i % 5) * 2);
      const s = await post('/schedule/', {
        date,
        capacity: SPREAD.capacity,
        workshop_id: workshop.id,
        address_id: address.id,
      });
      sessions.push(s.id);
    }
    // Each customer signed before the runs: the client's work is not the servers'.
    const customers = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        authorization: `tma ${initDataFor({ id: from + i, username: `spread${from + i}` })}`,
        body: JSON.stringify(bookingPayload(sessions[(from + i) % SPREAD.sessions])),
      }));
    const warmUp = await drive(
      servers.map((s) => s.url),
      SPREAD.clients,
      customers(600_000, SPREAD.warmUpPerInstance * count),
    );
    const measured = customers(700_000, SPREAD.bookings);
    const load = uptime();
    const serversBefore = servers.map((s) => cpuTimeMs(s.child.pid));
    const postgresBefore = await postgresCpu(fresh.url);
    const clientBefore = process.cpuUsage();
    const run = await drive(
      servers.map((s) => s.url),
      SPREAD.clients,
      measured,
    );
    const client = process.cpuUsage(clientBefore);
    const postgres = cpuBetween(postgresBefore, await postgresCpu(fresh.url)) / SPREAD.bookings;
    const server = servers.reduce((n, s, i) => n + cpuTimeMs(s.child.pid) - serversBefore[i], 0) / SPREAD.bookings;

    const checks: string[] = [];
    const describe = (statuses: Map<number | string, number>) => [...statuses].map(([s, n]) => `${n}× ${s}`).join(', ');
    for (const [what, r] of [
      ['warm-up', warmUp],
      ['run', run],
    ] as const)
      if ([...r.statuses.keys()].some((s) => s !== 201)) checks.push(`${what}: ${describe(r.statuses)}`);
    const rows = await database.db.selectFrom('records').select(['schedule_id', 'state', 'people_count']).execute();
    const created = (warmUp.statuses.get(201) ?? 0) + (run.statuses.get(201) ?? 0);
    if (rows.length !== created) checks.push(`${rows.length} bookings stored for ${created} answers 201`);
    const seats = new Map<number, number>();
    for (const r of rows)
      if (r.state === 'ACTIVE') seats.set(r.schedule_id, (seats.get(r.schedule_id) ?? 0) + r.people_count);
    const over = [...seats.values()].filter((n) => n > SPREAD.capacity).length;
    if (over) checks.push(`${over} sessions over their capacity`);
    if (rows.some((r) => r.state !== 'ACTIVE')) checks.push('bookings queued although seats were left');
    const errors = requestErrors(servers);
    if (errors.length) checks.push(`${errors.length} errors in the servers' logs, first: ${errors[0].slice(0, 300)}`);
    return {
      rate: SPREAD.bookings / run.seconds,
      cpu: { server, postgres, client: (client.user + client.system) / 1000 / SPREAD.bookings },
      checks,
      load: load.replace(/^.*load/, 'load'),
    };
  } finally {
    await stopInstances(servers);
    await database.close();
    await fresh.drop();
  }
}

function loud(message: string) {
  console.error(`\n!!!!!!!! GOAL MISSED: ${message} !!!!!!!!\n`);
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

/**
 * The spread run through 1 and through 3 instances, alternating (BENCH_INSTANCE_ROUNDS rounds, 2 by
 * default) so a change of the machine's load weighs on both; the goal: 3 book ≥ 2× one. What bounds it
 * is reported beside: with C cores and t ms of CPU a booking (servers + PostgreSQL), no number of
 * instances books more than C × 1000 / t a second.
 */
export async function instancesBench(): Promise<Row[]> {
  const unreachable = await notMeasured('Bookings over 50 sessions through 1 vs 3 instances', '≥ 2× one instance');
  if (unreachable) return unreachable;
  await compiled();
  const rounds = Number(process.env.BENCH_INSTANCE_ROUNDS ?? 2);
  const runs: Record<1 | 3, Array<Awaited<ReturnType<typeof spread>>>> = { 1: [], 3: [] };
  for (let i = 0; i < rounds; i++) for (const n of [1, 3] as const) runs[n].push(await spread(n));
  const cores = os.cpus().length;
  // The best run of each: the one the machine's other work disturbed least.
  const best = (n: 1 | 3) => runs[n].reduce((x, y) => (y.rate > x.rate ? y : x));
  const one = best(1);
  const three = best(3);
  const ratio = three.rate / one.rate;
  const perBooking = (r: typeof one) => r.cpu.server + r.cpu.postgres;
  const ceiling = (r: typeof one) => (cores * 1000) / perBooking(r);
  const describe = (n: 1 | 3) => {
    const r = best(n);
    return (
      `${n}: ${fmt(r.rate)} bookings/s (runs ${runs[n].map((x) => fmt(x.rate)).join(', ')}); CPU a booking ` +
      `${r.cpu.server.toFixed(2)} ms servers + ${r.cpu.postgres.toFixed(2)} ms PostgreSQL = ${perBooking(r).toFixed(2)} ms ` +
      `(+ ${r.cpu.client.toFixed(2)} ms this client): ceiling ${cores} × 1000 / ${perBooking(r).toFixed(2)} = ${fmt(ceiling(r))}/s, ` +
      `reached ${((100 * r.rate) / ceiling(r)).toFixed(0)} %; ${r.load}`
    );
  };
  // Cores that twice one instance's rate needs at three instances' CPU a booking.
  const coresFor2x = (2 * one.rate * perBooking(three)) / 1000;
  // One instance runs its JavaScript on one thread: on an idle machine it books at most this.
  const oneThread = 1000 / one.cpu.server;
  const checks = [...runs[1], ...runs[3]].flatMap((r) => r.checks);
  for (const c of checks) loud(`instances: ${c}`);
  const rows: Row[] = [
    {
      what: `Bookings over ${SPREAD.sessions} sessions (${SPREAD.capacity} seats) through 1 and 3 instances: ${fmt(SPREAD.bookings)} customers, ${SPREAD.clients} keep-alive clients round-robin, one PostgreSQL (best of ${rounds} runs each)`,
      measured: `${describe(1)}; ${describe(3)}`,
      budget: 'every booking 201, none over capacity',
      ok: checks.length === 0,
    },
    {
      what: '3 instances / 1 instance, bookings spread over 50 sessions',
      measured:
        `${ratio.toFixed(2)} × (${fmt(three.rate)} / ${fmt(one.rate)}). On this machine the ceiling is ${fmt(ceiling(three))}/s ` +
        `= ${(ceiling(three) / one.rate).toFixed(2)} × one instance: 2 × ${fmt(one.rate)}/s at ${perBooking(three).toFixed(2)} ms ` +
        `needs ${coresFor2x.toFixed(1)} cores, it has ${cores}${coresFor2x > cores ? ' (one instance already uses more than half: 2× is impossible here)' : ''}; ` +
        `one instance is bound by its one thread to ≤ ${fmt(oneThread)}/s, and twice that needs ` +
        `${((2 * oneThread * perBooking(three)) / 1000).toFixed(1)} cores` +
        // Other work on the machine takes cores from both runs, and more from three instances' round trips.
        (os.loadavg()[0] > cores ? `; shared machine: ${uptime().replace(/^.*load/, 'load')}` : ''),
      budget: '≥ 2× one instance',
      ok: ratio >= 2,
    },
  ];
  if (ratio < 2)
    loud(
      `3 instances book ${ratio.toFixed(2)} × one (goal ≥ 2×); this machine's ceiling is ${fmt(ceiling(three))}/s = ` +
        `${(ceiling(three) / one.rate).toFixed(2)} × one instance's ${fmt(one.rate)}/s` +
        (coresFor2x > cores ? `: 2× needs ${coresFor2x.toFixed(1)} cores, it has ${cores}` : ''),
    );
  return rows;
}

/** 1,000 concurrent bookings of one 8-seat session, sent round-robin to `count` instances on a new database. */
async function storm(count: number) {
  const fresh = await freshPostgres();
  const servers: ServerProcess[] = [];
  const database = createDb(fresh.url);
  try {
    await startInstances(servers, count, fresh.url);
    const post = await staffApi(servers[0].url);
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
    await stopInstances(servers);
    await database.close();
    await fresh.drop();
  }
}

/** The booking storm through one and through three instances on PostgreSQL. */
export async function stormInstancesBench(): Promise<Row[]> {
  const unreachable = await notMeasured(
    'Booking storm on one 8-seat session through 1 vs 3 instances',
    'exactly 8 taken',
  );
  if (unreachable) return unreachable;
  await compiled();
  const one = await storm(1);
  const three = await storm(3);
  const fine = (r: typeof one) => r.taken === 8 && r.queued === 992 && r.failed === 0;
  return [
    {
      // Every booking of one session takes its row lock: more instances cannot make them parallel.
      what: "Booking storm on one 8-seat session through 1 vs 3 instances (node dist/server/main.js, one PostgreSQL, round-robin client): serialized on the session's row lock by design",
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
