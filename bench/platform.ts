/**
 * The platform (PLATFORM=true: one deployment, many studios) on one PostgreSQL, in `npm run bench`
 * (`BENCH_ONLY=platform`), compiled server processes as deployed (built by this run into
 * dist/bench-platform-server):
 *  1. Many studios (BENCH_PLATFORM_STUDIOS, 200 by default): created and migrated by createStudio a
 *     few at a time (rounds at concurrency 1, 2, 3, 4 and 6 first; the rest at the fastest), each with
 *     a bot of its own. Then ONE platform process (SCHEDULER_TICK_S=5, PLATFORM_IDLE_WAKE_S=300) after it
 *     settles: its memory, its CPU idle over BENCH_PLATFORM_IDLE_S (60 s) and how many studios' jobs
 *     ran meanwhile (the waker takes only the studios due: 1,000 studios woken every 300 s are about
 *     200 runs a minute, 200 studios 40); then 50 studios opened over HTTP: the memory, the PostgreSQL connections the
 *     process holds, and its CPU while they stay open and unused.
 *  2. Studios' bots delivering at once through three platform processes (a fake Bot API that enforces
 *     Telegram's limits per bot, tests/helpers/fake-bot-fleet.ts): a reminder broadcast in each of
 *     BENCH_PLATFORM_BOTS (20) studios, then in each of BENCH_PLATFORM_ALL_BOTS (100), and 3 s into
 *     each a customer's booking in a quiet studio whose confirmation is timed. Each bot's delivered
 *     rate, the 429s, the confirmation's delay, and the bounds: the outbox's pace (28/s a bot), the
 *     send cap PLATFORM_SEND_CAP per process, the CPU of the 2 cores. Twice: at the default cap (600/s) and at
 *     75/s a core, a cap this machine sustains (BENCH_PLATFORM_SEND_CAP: one run at that cap).
 *  3. A booking storm spread over BENCH_PLATFORM_STORM_STUDIOS (100) studios (one 8-seat session each,
 *     10 customers per studio, init data signed with each studio's own bot token) through one process
 *     and through three, two rounds each: bookings/s, the ratio, no session oversold, every accepted
 *     booking stored. BENCH_PLATFORM_PARTS=1,2,3 chooses the parts.
 * A broadcast is written as bench/delivery.ts writes one: the reminders of a session's participants
 * (kind schedule.reminder, core/journey/reminders.ts sendReminders, what POST /schedule/notify/{id}
 * runs), held back, then made due at once while the studios are open (a customer has just looked at
 * their schedule), so each studio's outbox finds them in its idle poll; no scheduler tick is waited for.
 * PostgreSQL: BENCH_PLATFORM_POSTGRES_URL, else TEST_DATABASE_URL, else BENCH_POSTGRES_URL, else the local
 * default server, in a new database with a role of its own allowed BENCH_PLATFORM_CONNECTIONS
 * connections (by default what the server has free, less 15), so the bench never takes another
 * session's connections. Three platform processes may open 3 × (10 + PLATFORM_LIVE_STUDIOS + 10)
 * connections (each pools 10 + PLATFORM_LIVE_STUDIOS to its studios, 10 to its store; a studio's bot
 * holds one for its outbox's sender lock while it sends): when the server has fewer free and
 * BENCH_PLATFORM_POSTGRES_URL is not set, the bench runs on a local cluster of the same PostgreSQL with
 * 500 connections (tests/helpers/bench-cluster.ts, port 5434; BENCH_PLATFORM_CLUSTER=0: stay, and count
 * the errors), and says so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
// @ts-expect-error plain JavaScript without declarations (it must run before anything is compiled)
import { buildServer } from '../scripts/build-server.js';
import { openPlatformStore, type PlatformStore } from '../platform/store';
import { createServers, createStudio, openStudioDatabase, type Servers, type Studio } from '../platform/studios';
import { attachBot } from '../platform/bots';
import { DEFAULT_SEND_CAP } from '../server/config';
import { DEFAULT_OUTBOX_OPTIONS } from '../bot/outbox';
import { signInitData } from '../server/plugins/telegram-init-data';
import { sendReminders } from '../core/journey/reminders';
import { insertWorkshop } from '../db/repositories/workshops';
import { insertAddress } from '../db/repositories/addresses';
import { insertSchedule } from '../db/repositories/schedules';
import { insertRecord } from '../db/repositories/records';
import { withWriteTransaction } from '../db/lock';
import type { Database } from '../db/database';
import { bookingPayload, inDays } from '../tests/helpers/factories';
import { TELEGRAM_LIMITS } from '../tests/helpers/fake-telegram';
import { startFakeBotFleet, type FakeBotFleet, type FleetBot } from '../tests/helpers/fake-bot-fleet';
import { freePort, ROOT } from '../tests/helpers/server-process';
import { benchClusterUrl } from '../tests/helpers/bench-cluster';
import { cpuBetween, cpuTimeMs, uptime } from './booking-rate';
import type { Row } from './instances';

const env = process.env;
const DEFAULT_POSTGRES_URL =
  env.BENCH_PLATFORM_POSTGRES_URL ??
  env.TEST_DATABASE_URL ??
  env.BENCH_POSTGRES_URL ??
  'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const STUDIOS = Number(env.BENCH_PLATFORM_STUDIOS ?? 200);
const IDLE_S = Number(env.BENCH_PLATFORM_IDLE_S ?? 60);
const OPENED = Number(env.BENCH_PLATFORM_OPENED ?? 50);
const OPEN_IDLE_S = Number(env.BENCH_PLATFORM_OPEN_IDLE_S ?? 20);
const BOTS = Number(env.BENCH_PLATFORM_BOTS ?? 20);
const ALL_BOTS = Number(env.BENCH_PLATFORM_ALL_BOTS ?? 100);
const MESSAGES = Number(env.BENCH_PLATFORM_MESSAGES ?? 240);
const ALL_MESSAGES = Number(env.BENCH_PLATFORM_ALL_MESSAGES ?? 150);
const STORM_STUDIOS = Number(env.BENCH_PLATFORM_STORM_STUDIOS ?? 100);
/**
 * The platform processes' PLATFORM_SEND_CAP in the delivery part: BENCH_PLATFORM_SEND_CAP, or two runs,
 * the product's default and a cap this machine sustains beside PostgreSQL and the fake Bot API (the
 * default's run measures about 2.2 ms of CPU a message, so 2 cores send about 750 a second in all; 75
 * a second a core, for three processes, leaves a third for bookings).
 */
const SEND_CAPS = env.BENCH_PLATFORM_SEND_CAP
  ? [Number(env.BENCH_PLATFORM_SEND_CAP)]
  : [DEFAULT_SEND_CAP, 75 * os.availableParallelism()];
const STORM = { seats: 8, perStudio: 10, clients: 50, warmUpPerStudio: 2, rounds: 2 };
/** Seconds the storm's processes are watched idle (the open studios' background work) before measuring. */
const STORM_IDLE_S = 5;
/** Which parts run (BENCH_PLATFORM_PARTS=1 for the many studios alone). */
const PARTS = (env.BENCH_PLATFORM_PARTS ?? '1,2,3').split(',');
const TICK_S = 5;
const IDLE_WAKE_S = 300;
const INSTANCES = 3;
/** PLATFORM_LIVE_STUDIOS of parts 2 and 3: every studio there may be open in every process (a waker opens one with messages due). */
const LIVE = Math.max(50, ALL_BOTS + 21, STORM_STUDIOS + 20);
/** The connections the three processes' pools may open (platform/server.ts: 10 + PLATFORM_LIVE_STUDIOS; the store's 10). */
const POOLS = INSTANCES * (10 + LIVE + 10);
const SECRET_KEY = 'bench-secret-key-that-is-long-enough-0123';
const BOT_ID_BASE = 800_000_000;
const CALIBRATION = { levels: [1, 2, 3, 4, 6], studios: 12 };
const cores = os.cpus().length;
/** The server compiled for this run into a folder of its own (dist/server is rebuilt by whoever starts it meanwhile). */
const COMPILED_DIR = path.join(ROOT, 'dist/bench-platform-server');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const loadNow = () => uptime().replace(/^.*load/, 'load');
function loud(message: string) {
  console.error(`\n!!!!!!!! GOAL MISSED: ${message} !!!!!!!!\n`);
}
const log = (message: string) => console.log(`[platform ${new Date().toISOString().slice(11, 19)}] ${message}`);

// ---------------------------------------------------------------------------------------------------
// The database, its role, and PostgreSQL's CPU.

interface BenchDatabase {
  /** What the platform processes and this bench's studio writes connect with (the role's). */
  url: string;
  /** The same database as the server's superuser (counting, seeding). */
  admin: pg.Pool;
  name: string;
  role: string | null;
  /** Connections the role may open; the server's max_connections. */
  limit: number;
  maxConnections: number;
  drop(): Promise<void>;
}

/** Connections the server has free now (max_connections less those reserved for superusers and those in use). */
async function freeConnections(url: string) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    const { rows } = await c.query<{ max: string; reserved: string; used: string }>(
      `select current_setting('max_connections') as max, current_setting('superuser_reserved_connections') as reserved,
              (select count(*) from pg_stat_activity where backend_type = 'client backend') as used`,
    );
    return { max: Number(rows[0].max), free: Number(rows[0].max) - Number(rows[0].reserved) - Number(rows[0].used) };
  } finally {
    await c.end();
  }
}

/** Where the bench runs: the configured server, or the bench cluster when the default one has too few connections. */
async function chooseServer(): Promise<{ url: string; why: string; stop(): void }> {
  const stay = { url: DEFAULT_POSTGRES_URL, stop: () => {} };
  const shown = DEFAULT_POSTGRES_URL.replace(/:[^:@/]+@/, ':***@');
  if (env.BENCH_PLATFORM_POSTGRES_URL) return { ...stay, why: `${shown} (BENCH_PLATFORM_POSTGRES_URL)` };
  const { max, free } = await freeConnections(DEFAULT_POSTGRES_URL);
  if (free - 15 >= POOLS) return { ...stay, why: `${shown} (max_connections ${max}, ${free} free)` };
  const short = `${shown} has ${free} connections free of max_connections ${max}; the three processes' pools may open ${POOLS}`;
  if (env.BENCH_PLATFORM_CLUSTER === '0') {
    loud(`platform: ${short}: staying (BENCH_PLATFORM_CLUSTER=0), errors expected`);
    return { ...stay, why: `${short} (BENCH_PLATFORM_CLUSTER=0: stayed)` };
  }
  const cluster = await benchClusterUrl();
  return {
    url: cluster.url,
    why: `${short}, so a local cluster of the same PostgreSQL on this machine with 500 (${cluster.url.replace(/:[^:@/]+@/, ':***@')}${cluster.started ? ', started for this run' : ''})`,
    stop: cluster.stop,
  };
}

async function benchDatabase(POSTGRES_URL: string): Promise<BenchDatabase> {
  const name = `wb_bench_platform_${crypto.randomBytes(5).toString('hex')}`;
  const server = new pg.Client({ connectionString: POSTGRES_URL });
  await server.connect();
  try {
    const max = Number(
      (await server.query<{ max_connections: string }>('show max_connections')).rows[0].max_connections,
    );
    const used = Number(
      (
        await server.query<{ n: string }>(
          `select count(*) as n from pg_stat_activity where backend_type = 'client backend'`,
        )
      ).rows[0].n,
    );
    const reserved = Number(
      (await server.query<{ superuser_reserved_connections: string }>('show superuser_reserved_connections')).rows[0]
        .superuser_reserved_connections,
    );
    const limit = Number(env.BENCH_PLATFORM_CONNECTIONS ?? Math.max(20, max - reserved - used - 15));
    let role: string | null = name;
    const password = crypto.randomBytes(12).toString('hex');
    try {
      await server.query(`create role ${name} login password '${password}' connection limit ${limit}`);
      await server.query(`create database ${name} owner ${name}`);
    } catch (err) {
      // Not allowed to create roles (a managed server): the database only, its connections unbounded.
      console.error(`platform bench: no role of its own (${(err as Error).message}): connections not bounded`);
      role = null;
      await server.query(`create database ${name}`);
    }
    const admin = new URL(POSTGRES_URL);
    admin.pathname = `/${name}`;
    const url = new URL(admin);
    if (role) {
      url.username = role;
      url.password = password;
    }
    const pool = new pg.Pool({ connectionString: admin.toString(), max: 4 });
    return {
      url: url.toString(),
      admin: pool,
      name,
      role,
      limit,
      maxConnections: max,
      async drop() {
        await pool.end();
        const c = new pg.Client({ connectionString: POSTGRES_URL });
        await c.connect();
        try {
          await c.query(`drop database if exists ${name} with (force)`);
          if (role) await c.query(`drop role if exists ${role}`);
        } finally {
          await c.end();
        }
      },
    };
  } finally {
    await server.end();
  }
}

/**
 * CPU time (ms) by pid of the PostgreSQL processes the bench makes work: the backends of its database
 * and the cluster's WAL writer, checkpointer and background writer (shared with whatever else uses this
 * server: an upper bound). Needs PostgreSQL on this machine (/proc); empty otherwise.
 */
async function postgresCpu(db: BenchDatabase): Promise<Map<number, number>> {
  const { rows } = await db.admin.query<{ pid: number }>(
    `select pid from pg_stat_activity where pid <> pg_backend_pid()
       and (datname = current_database() or backend_type in ('walwriter', 'checkpointer', 'background writer'))`,
  );
  return new Map(rows.map((r) => [r.pid, cpuTimeMs(r.pid)] as const).filter(([, ms]) => !Number.isNaN(ms)));
}

/** Connections of the platform processes (the role's) and the sender locks held in the bench's database. */
async function connections(db: BenchDatabase) {
  const { rows } = await db.admin.query<{ connections: string; senders: string }>(
    `select (select count(*) from pg_stat_activity where datname = current_database() and usename = $1) as connections,
            (select count(*) from pg_locks where locktype = 'advisory' and granted
               and database = (select oid from pg_database where datname = current_database())) as senders`,
    [db.role ?? 'postgres'],
  );
  return { connections: Number(rows[0].connections), senders: Number(rows[0].senders) };
}

const rssMb = (pid: number | undefined) => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
};

// ---------------------------------------------------------------------------------------------------
// Platform processes.

interface PlatformProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  stop(): Promise<void>;
}

/** One compiled platform process (PLATFORM=true) on a free port, once its readiness answers 200. */
async function startPlatform(extra: Record<string, string>, shared: Pick<Platform, 'db' | 'dataDir' | 'fleet'>) {
  const port = String(await freePort());
  // BENCH_PLATFORM_NODE_ARGS: more of node's options for each process (e.g. --cpu-prof --cpu-prof-dir=…).
  const nodeArgs = (env.BENCH_PLATFORM_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(COMPILED_DIR, 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: env.PATH ?? '',
      HOME: env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      PLATFORM: 'true',
      DATABASE_URL: shared.db.url,
      SECRET_KEY,
      TELEGRAM_API_ROOT: shared.fleet.url,
      PUBLIC_URL: 'https://studio.example',
      DATA_DIR: shared.dataDir,
      DIST_DIR: '/nonexistent',
      LOG_LEVEL: env.BENCH_PLATFORM_LOG_LEVEL ?? 'warn',
      PLATFORM_IDLE_WAKE_S: String(IDLE_WAKE_S),
      PORT: port,
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // BENCH_PLATFORM_LOG_DIR: each process's output kept there too.
  if (env.BENCH_PLATFORM_LOG_DIR) {
    const file = fs.createWriteStream(path.join(env.BENCH_PLATFORM_LOG_DIR, `platform-${port}.log`));
    child.stdout!.pipe(file);
    child.stderr!.pipe(file);
  }
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`platform exited ${child.exitCode}:\n${out}`);
    const status = await fetch(`${url}/api/v1/utils/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`platform not answering within 60 s:\n${out}`);
    }
    await sleep(50);
  }
  return {
    url,
    child,
    exited,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  } satisfies PlatformProcess;
}

/** Error lines (level 50/60) a process printed after character `from` of its output. */
const errorsIn = (p: PlatformProcess, from = 0) =>
  p
    .output()
    .slice(from)
    .split('\n')
    .filter((l) => /"level":(50|60)/.test(l));

const firstError = (lines: string[]) => {
  if (lines.length === 0) return '';
  try {
    const j = JSON.parse(lines[0]) as { msg?: string; err?: { message?: string } };
    return `${j.msg ?? ''}${j.err?.message ? `: ${j.err.message}` : ''}`.slice(0, 200);
  } catch {
    return lines[0].slice(0, 200);
  }
};

/** Waits until the process's CPU stays under 5 % of a core for two 2-s samples (at most `maxS`). */
async function settle(pid: number | undefined, maxS = 30) {
  const started = Date.now();
  let calm = 0;
  while (Date.now() - started < maxS * 1000 && calm < 2) {
    const before = cpuTimeMs(pid);
    await sleep(2000);
    calm = cpuTimeMs(pid) - before < 100 ? calm + 1 : 0;
  }
  return (Date.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------------
// Studios.

interface BenchStudio {
  studio: Studio;
  bot: FleetBot;
}

interface Platform {
  db: BenchDatabase;
  store: PlatformStore;
  servers: Servers;
  dataDir: string;
  fleet: FakeBotFleet;
  studios: BenchStudio[];
  /** The fastest concurrency of createStudio found. */
  concurrency: number;
  /** Studios created so far (their slugs' numbers). */
  created: number;
}

/** Creates `count` more studios, `concurrency` at a time, each with a bot the fake knows; studios/s. */
async function createStudios(p: Platform, count: number, concurrency: number) {
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (left > 0) {
        left--;
        const n = ++p.created;
        const studio = await createStudio(p.store, p.servers, p.dataDir, {
          name: `Студия ${n}`,
          slug: `studio-${n}`,
          timezone: 'Europe/Belgrade',
          ownerTelegramId: null,
        });
        const bot = p.fleet.addBot(BOT_ID_BASE + studio.id, `studio${studio.id}_bot`);
        await attachBot(p.store, SECRET_KEY, studio.id, { id: bot.id, username: bot.username, token: bot.token });
        p.studios.push({ studio, bot });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds, rate: count / seconds };
}

/** A workshop and an address in a studio, and sessions of these capacities on them. */
async function sessions(database: Database, capacities: number[], days = 3) {
  return withWriteTransaction(database, async (trx) => {
    const w = await insertWorkshop(trx, { title: 'Паста', description: 'Домашняя паста', price: 3500 });
    const a = await insertAddress(trx, { title: 'Улица Кнеза Милоша 1', map_link: 'https://maps.example/1' });
    const ids: number[] = [];
    for (const [i, capacity] of capacities.entries())
      ids.push(
        (await insertSchedule(trx, { date: inDays(days + i, 12), capacity, workshop_id: w.id, address_id: a.id })).id,
      );
    return ids;
  });
}

/** Runs `fn` for each item, `concurrency` at a time. */
async function each<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------------
// 1. Many studios on one PostgreSQL, one process idle.

async function manyStudios(p: Platform): Promise<Row[]> {
  const rows: Row[] = [];
  const rounds: Array<{ concurrency: number; rate: number }> = [];
  const calibrate = STUDIOS >= CALIBRATION.levels.length * CALIBRATION.studios * 2;
  const started = performance.now();
  if (calibrate)
    for (const concurrency of CALIBRATION.levels)
      rounds.push({ concurrency, ...(await createStudios(p, CALIBRATION.studios, concurrency)) });
  const best = calibrate ? rounds.reduce((x, y) => (y.rate > x.rate ? y : x)).concurrency : 3;
  p.concurrency = best;
  const rest = await createStudios(p, STUDIOS - p.studios.length, best);
  const totalS = (performance.now() - started) / 1000;
  log(`${STUDIOS} studios in ${totalS.toFixed(0)} s (${loadNow()})`);
  // Their bots were set up with Telegram when they joined (onboarding runs setUpBot): not again at start.
  await p.store.db.updateTable('bots').set({ problem: null }).execute();
  rows.push({
    what: `${fmt(STUDIOS)} studios created and migrated on one PostgreSQL (createStudio: a schema each, every migration; and attachBot)`,
    measured:
      `${fmt(totalS)} s = ${fmt(STUDIOS / totalS, 1)} studios/s; ` +
      (calibrate
        ? `rounds of ${CALIBRATION.studios} at concurrency ${rounds.map((r) => `${r.concurrency}: ${fmt(r.rate, 1)}/s`).join(', ')}; ` +
          `the rest (${fmt(STUDIOS - CALIBRATION.levels.length * CALIBRATION.studios)}) at ${best}, the fastest: ${fmt(rest.rate, 1)}/s`
        : `at concurrency ${best}`) +
      ` (${cores} cores; ${loadNow()})`,
    budget: 'reported',
    ok: true,
  });

  // Where a platform that has run longer than the idle period has its studios' wakes: each where its
  // last run put it, so spread over the period (all due at once, as createStudio leaves them, would be
  // a backlog the waker works through at once, and its runs would then come in the same bursts).
  await p.db.admin.query(
    `update platform.wakes w set due_at = date_trunc('milliseconds', now() + (s.n::float8 / $1) * $2 * interval '1 second')
       from (select studio_id, row_number() over (order by studio_id) - 1 as n from platform.wakes) s
      where s.studio_id = w.studio_id`,
    [STUDIOS, IDLE_WAKE_S],
  );

  const server = await startPlatform({ SCHEDULER_TICK_S: String(TICK_S) }, p);
  try {
    const pid = server.child.pid;
    const settledS = await settle(pid);
    const rssIdle = rssMb(pid);
    const wakes = async () =>
      new Map(
        (
          await p.db.admin.query<{ studio_id: number; due_at: Date }>('select studio_id, due_at from platform.wakes')
        ).rows.map((r) => [r.studio_id, r.due_at.getTime()] as const),
      );
    const wakesBefore = await wakes();
    const cpuBefore = cpuTimeMs(pid);
    const pgBefore = await postgresCpu(p.db);
    const outputBefore = server.output().length;
    await sleep(IDLE_S * 1000);
    const cpuMs = cpuTimeMs(pid) - cpuBefore;
    const pgMs = cpuBetween(pgBefore, await postgresCpu(p.db));
    const wakesAfter = await wakes();
    const ran = [...wakesAfter].filter(([id, at]) => wakesBefore.get(id) !== at).length;
    const expected = (STUDIOS * IDLE_S) / IDLE_WAKE_S;
    const idleErrors = errorsIn(server, outputBefore);
    const percent = (ms: number, s: number) => (100 * ms) / (s * 1000);
    log(`idle: ${ran} runs, ${percent(cpuMs, IDLE_S).toFixed(1)} % CPU, RSS ${rssIdle.toFixed(0)} MB`);
    rows.push(
      {
        what: `One platform process on ${fmt(STUDIOS)} studios (SCHEDULER_TICK_S=${TICK_S}, PLATFORM_IDLE_WAKE_S=${IDLE_WAKE_S}), settled, none opened: memory`,
        measured: `RSS ${fmt(rssIdle)} MB (settled ${fmt(settledS)} s after answering)`,
        budget: 'reported',
        ok: true,
      },
      {
        what: `…its studios' jobs run by the waker in ${IDLE_S} s (only those due: ${fmt(STUDIOS)} × ${IDLE_S} s / ${IDLE_WAKE_S} s expected)`,
        measured:
          `${fmt(ran)} studio runs (${fmt(expected)} expected; every studio every tick would be ${fmt((STUDIOS * IDLE_S) / TICK_S)})` +
          (idleErrors.length ? `; ${idleErrors.length} errors logged, first: ${firstError(idleErrors)}` : ''),
        budget: `${fmt(Math.floor(expected * 0.75))}–${fmt(Math.ceil(expected * 1.25))}, no errors`,
        ok: ran >= Math.floor(expected * 0.75) && ran <= Math.ceil(expected * 1.25) && idleErrors.length === 0,
      },
      {
        what: `…its CPU idle over ${IDLE_S} s (/proc utime + stime), and PostgreSQL's for it`,
        measured:
          `${percent(cpuMs, IDLE_S).toFixed(1)} % of one core (${fmt(cpuMs)} ms` +
          (ran > 0 ? `, ${(cpuMs / ran).toFixed(1)} ms a studio run` : '') +
          `); PostgreSQL ${percent(pgMs, IDLE_S).toFixed(1)} % (${fmt(pgMs)} ms${ran > 0 ? `, ${(pgMs / ran).toFixed(1)} ms a run` : ''})`,
        budget: 'reported',
        ok: true,
      },
    );

    // 50 studios opened over HTTP, one after the other: each its whole single-studio app, bot and outbox.
    const opened = p.studios.slice(0, OPENED);
    const firstMs: number[] = [];
    const againMs: number[] = [];
    const failures: string[] = [];
    for (const s of opened) {
      const url = `${server.url}/s/${s.studio.slug}/api/v1/schedule/public`;
      let t = performance.now();
      const r = await fetch(url);
      firstMs.push(performance.now() - t);
      if (r.status !== 200) failures.push(`${s.studio.slug}: ${r.status} ${(await r.text()).slice(0, 100)}`);
      else await r.arrayBuffer();
      t = performance.now();
      await (await fetch(url)).arrayBuffer();
      againMs.push(performance.now() - t);
    }
    await sleep(3000);
    const rssOpen = rssMb(pid);
    const held = await connections(p.db);
    const openCpuBefore = cpuTimeMs(pid);
    const openPgBefore = await postgresCpu(p.db);
    await sleep(OPEN_IDLE_S * 1000);
    const openCpu = cpuTimeMs(pid) - openCpuBefore;
    const openPg = cpuBetween(openPgBefore, await postgresCpu(p.db));
    log(`${OPENED} open: RSS ${rssOpen.toFixed(0)} MB, ${held.connections} connections, ${held.senders} sender locks`);
    rows.push(
      {
        what: `…after opening ${OPENED} studios over HTTP (GET /s/<slug>/api/v1/schedule/public, each a different studio, one after the other)`,
        measured:
          `RSS ${fmt(rssOpen)} MB = ${fmt(rssOpen - rssIdle)} MB more, ${fmt((rssOpen - rssIdle) / OPENED, 1)} MB a studio; ` +
          `first request (opens the studio) median ${fmt(median(firstMs))} ms, max ${fmt(Math.max(...firstMs))} ms; ` +
          `the next one ${fmt(median(againMs), 1)} ms` +
          (failures.length ? `; ${failures.length} failed, first: ${failures[0]}` : ''),
        budget: 'every one 200',
        ok: failures.length === 0,
      },
      {
        what: `…PostgreSQL connections that process holds with ${OPENED} studios open, and its CPU while they stay open and unused (${OPEN_IDLE_S} s)`,
        measured:
          `${held.connections} connections, ${held.senders} of them holding a studio's outbox sender lock ` +
          `(a studio's bot holds one while it has messages to send and 30 s after; the pool is 10 + PLATFORM_LIVE_STUDIOS = 60; ` +
          `the server's max_connections ${p.db.maxConnections}); CPU ${percent(openCpu, OPEN_IDLE_S).toFixed(1)} % of one core, ` +
          `PostgreSQL ${percent(openPg, OPEN_IDLE_S).toFixed(1)} %`,
        budget: 'reported',
        ok: true,
      },
    );
  } finally {
    await server.stop();
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------
// 2. Bots delivering at once through three processes.

/** Telegram ids of the participants: distinct across studios. */
const chatOf = (studioId: number, j: number) => 5_000_000_000 + studioId * 10_000 + j;
/** When a held-back broadcast waits (far off; one date per broadcast, so each is made due on its own). */
const HELD = [
  '2090-01-01T00:00:00.000Z',
  '2091-01-01T00:00:00.000Z',
  '2092-01-01T00:00:00.000Z',
  '2093-01-01T00:00:00.000Z',
];

/** A session with `count` participants booked from Telegram, and their reminders written and held back until HELD[held]. */
async function writeBroadcast(database: Database, studioId: number, count: number, held: number) {
  const [scheduleId] = await sessions(database, [count + 10], 3 + held);
  await withWriteTransaction(database, async (trx) => {
    for (let j = 0; j < count; j++)
      await insertRecord(trx, {
        schedule_id: scheduleId,
        state: 'ACTIVE',
        name: `Гость ${j}`,
        last_name: null,
        people_count: 1,
        telegram_login: null,
        telegram_id: chatOf(studioId, j),
        comment: null,
        has_allergy: false,
        allergy_type: null,
        source: null,
        is_first_time: true,
      });
  });
  await sendReminders(database, scheduleId);
  await database.db
    .updateTable('notifications')
    .set({ next_attempt_at: HELD[held] })
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<', HELD[0])
    .execute();
}

/** Makes broadcast `held` due now in these studios. */
async function release(p: Platform, studios: BenchStudio[], held: number) {
  await Promise.all(
    studios.map((s) =>
      p.db.admin.query(
        `update ${s.studio.location}.notifications set next_attempt_at = now()
          where status = 'pending' and next_attempt_at >= $1 and next_attempt_at < $2`,
        [HELD[held], held + 1 < HELD.length ? HELD[held + 1] : '9999-01-01'],
      ),
    ),
  );
}

interface Broadcast {
  bots: number;
  messages: number;
  /** Each bot's delivered rate over its broadcast (first to last message). */
  rates: number[];
  allS: number;
  delivered: number;
  duplicates: number;
  floodErrors: number;
  confirmationMs: number;
  /** The quiet studio's booking, when it was not accepted. */
  lateProblem: string | null;
  cpu: { servers: number; postgres: number };
  errors: string[];
  load: string;
  timedOut: boolean;
}

async function broadcast(
  p: Platform,
  servers: PlatformProcess[],
  senders: BenchStudio[],
  messages: number,
  held: number,
  quiet: { s: BenchStudio; scheduleId: number },
  customer: number,
): Promise<Broadcast> {
  p.fleet.reset();
  p.fleet.latencyMs = 30; // Telegram answers in tens of milliseconds
  const outputs = servers.map((s) => s.output().length);
  const cpuBefore = servers.map((s) => cpuTimeMs(s.child.pid));
  const pgBefore = await postgresCpu(p.db);
  const load = loadNow();
  await release(p, senders, held);

  // 3 s into it, a customer of a quiet studio books (through the next process) and waits for the confirmation.
  await sleep(3000);
  const latecomer = { id: customer, username: `quiet${customer}`, first_name: 'Анна' };
  const bookedAt = Date.now();
  const late = await fetch(`${servers[customer % servers.length].url}/s/${quiet.s.studio.slug}/api/v1/records/`, {
    method: 'POST',
    headers: { authorization: `tma ${signInitData(latecomer, quiet.s.bot.token)}`, 'content-type': 'application/json' },
    body: JSON.stringify(bookingPayload(quiet.scheduleId)),
  });
  const lateProblem = late.status === 201 ? null : `${late.status} ${(await late.text()).slice(0, 120)}`;

  // Counted incrementally: the fake's timing (what it counts against the limits) is not disturbed.
  const chats = new Map<FleetBot, Map<number, number[]>>(senders.map((s) => [s.bot, new Map()]));
  const read = new Map<FleetBot, number>();
  let delivered = 0;
  let confirmedAt = NaN;
  const scan = () => {
    for (const [bot, got] of chats) {
      const from = read.get(bot) ?? 0;
      for (let i = from; i < bot.calls.length; i++) {
        const c = bot.calls[i];
        if (!c.ok || c.method !== 'sendMessage' || c.chatId === undefined) continue;
        const times = got.get(c.chatId);
        if (times) times.push(c.at);
        else {
          got.set(c.chatId, [c.at]);
          delivered++;
        }
      }
      read.set(bot, bot.calls.length);
    }
    if (Number.isNaN(confirmedAt))
      confirmedAt =
        quiet.s.bot.calls.find((c) => c.ok && c.method === 'sendMessage' && c.chatId === latecomer.id)?.at ?? NaN;
  };
  const total = senders.length * messages;
  const deadline = Date.now() + Number(env.BENCH_PLATFORM_DELIVERY_TIMEOUT_S ?? 150) * 1000;
  while ((delivered < total || (Number.isNaN(confirmedAt) && !lateProblem)) && Date.now() < deadline) {
    await sleep(250);
    scan();
  }
  const timedOut = delivered < total;
  const cpuServers = servers.reduce((n, s, i) => n + cpuTimeMs(s.child.pid) - cpuBefore[i], 0);
  const cpuPg = cpuBetween(pgBefore, await postgresCpu(p.db));
  const rates: number[] = [];
  let first = Infinity;
  let last = 0;
  let duplicates = 0;
  for (const got of chats.values()) {
    const firsts = [...got.values()].map((t) => t[0]);
    duplicates += [...got.values()].reduce((n, t) => n + t.length - 1, 0);
    if (firsts.length < 2) {
      rates.push(0);
      continue;
    }
    const a = Math.min(...firsts);
    const b = Math.max(...firsts);
    first = Math.min(first, a);
    last = Math.max(last, b);
    rates.push(firsts.length === messages ? ((messages - 1) * 1000) / (b - a) : 0);
  }
  return {
    bots: senders.length,
    messages,
    rates,
    allS: (last - first) / 1000,
    delivered,
    duplicates,
    floodErrors: p.fleet.floodErrors,
    confirmationMs: confirmedAt - bookedAt,
    lateProblem,
    cpu: { servers: cpuServers, postgres: cpuPg },
    errors: servers.flatMap((s, i) => errorsIn(s, outputs[i])),
    load: `${load} → ${loadNow()}`,
    timedOut,
  };
}

function broadcastRows(b: Broadcast, servers: number, sendCap: number): Row[] {
  const pace = DEFAULT_OUTBOX_OPTIONS.perSecond;
  const cap = sendCap * servers;
  const note =
    sendCap === DEFAULT_SEND_CAP ? ' at the default cap' : `, PLATFORM_SEND_CAP=${sendCap} (for this machine)`;
  const capShare = cap / b.bots;
  const bound = Math.min(TELEGRAM_LIMITS.perSecond, capShare);
  const goal = 0.8 * bound;
  const sent = b.delivered;
  const perMessage = (b.cpu.servers + b.cpu.postgres) / Math.max(1, sent);
  const ceiling = (cores * 1000) / perMessage;
  const aggregate = sent / Math.max(0.001, b.allS);
  const min = Math.min(...b.rates);
  const ok = min >= goal && !b.timedOut;
  const bounds =
    `bounds: the outbox paces each bot at ${pace}/s; the send cap ${sendCap}/s × ${servers} processes = ${fmt(cap)}/s ` +
    `= ${fmt(capShare, 1)}/s a bot for ${b.bots}${capShare < TELEGRAM_LIMITS.perSecond ? ' (the cap binds)' : ' (does not bind)'}; ` +
    `the 2 cores: ${perMessage.toFixed(2)} ms of CPU a message (servers ${fmt(b.cpu.servers / Math.max(1, sent), 2)} + PostgreSQL ` +
    `${fmt(b.cpu.postgres / Math.max(1, sent), 2)}) → at most ${fmt(ceiling)}/s = ${fmt(ceiling / b.bots, 1)}/s a bot` +
    (ceiling / b.bots < bound ? ' (the CPU binds)' : '');
  if (!ok)
    loud(
      `${b.bots} bots: slowest bot ${fmt(min, 1)}/s (goal ≥ ${fmt(goal, 1)}/s)${b.timedOut ? `, only ${sent} of ${b.bots * b.messages} delivered in time` : ''}; ${bounds}`,
    );
  if (b.floodErrors > 0) loud(`${b.bots} bots: ${b.floodErrors} × 429`);
  return [
    {
      what: `${b.bots} studios' bots each delivering a broadcast of ${b.messages} reminders to ${b.messages} chats at once, ${servers} platform processes on one PostgreSQL (fake Bot API: Telegram's limits per bot)${note}`,
      measured:
        `each bot's rate over its broadcast: min ${fmt(min, 1)}/s, median ${fmt(median(b.rates), 1)}/s, max ${fmt(Math.max(...b.rates), 1)}/s ` +
        `vs ${TELEGRAM_LIMITS.perSecond}/s; all ${fmt(sent)}${b.timedOut ? ` of ${fmt(b.bots * b.messages)} (TIMED OUT)` : ''} in ${fmt(b.allS, 1)} s = ${fmt(aggregate)}/s together; ` +
        `${bounds}; ${b.duplicates} duplicates; ${b.errors.length} errors logged${b.errors.length ? ` (first: ${firstError(b.errors)})` : ''}; ${b.load}`,
      budget: `each ≥ 0.8 × ${fmt(bound, 1)}/s = ${fmt(goal, 1)}/s (${bound < TELEGRAM_LIMITS.perSecond ? 'the cap’s share' : '30/s'})`,
      ok,
    },
    {
      what: `…429s from the fake Bot API (${b.bots} bots)`,
      measured: String(b.floodErrors),
      budget: '0',
      ok: b.floodErrors === 0,
    },
    {
      what: `…a quiet studio's booking confirmation, booked 3 s into the ${b.bots} broadcasts`,
      measured: b.lateProblem
        ? `the booking failed: ${b.lateProblem}`
        : Number.isNaN(b.confirmationMs)
          ? 'never delivered'
          : `${fmt(b.confirmationMs)} ms`,
      budget: '< 2,000 ms',
      ok: b.confirmationMs < 2000,
    },
  ];
}

async function delivery(p: Platform): Promise<Row[]> {
  const all = ALL_BOTS;
  const few = Math.min(BOTS, all);
  const needed = all + 1;
  if (p.studios.length < needed) await createStudios(p, needed - p.studios.length, p.concurrency);
  const senders = p.studios.slice(0, all);
  const quietStudio = p.studios[all];
  log(
    `delivery: writing ${few} × ${MESSAGES} and ${all} × ${ALL_MESSAGES} reminders for each of ${SEND_CAPS.length} caps`,
  );
  let quietSchedule = 0;
  await each([...senders, quietStudio], 4, async (s, i) => {
    const database = openStudioDatabase(s.studio, p.servers, p.dataDir);
    if (s === quietStudio) [quietSchedule] = await sessions(database, [10]);
    else
      for (let run = 0; run < SEND_CAPS.length; run++) {
        if (i < few) await writeBroadcast(database, s.studio.id, MESSAGES, 2 * run);
        await writeBroadcast(database, s.studio.id, ALL_MESSAGES, 2 * run + 1);
      }
  });
  const rows: Row[] = [];
  for (const [run, cap] of SEND_CAPS.entries()) {
    const quiet = { s: quietStudio, scheduleId: quietSchedule };
    rows.push(...(await deliveryRun(p, { cap, run, few, senders, quiet })));
  }
  return rows;
}

/** Three platform processes at this send cap deliver broadcasts 2·run (in `few` studios) and 2·run + 1 (in all). */
async function deliveryRun(
  p: Platform,
  r: { cap: number; run: number; few: number; senders: BenchStudio[]; quiet: { s: BenchStudio; scheduleId: number } },
): Promise<Row[]> {
  const { cap, run, few, senders, quiet } = r;
  // Every open studio may be opened by each process (its waker opens one with messages due): room for all.
  const live = String(LIVE);
  const servers: PlatformProcess[] = [];
  try {
    for (let i = 0; i < INSTANCES; i++)
      servers.push(await startPlatform({ PLATFORM_LIVE_STUDIOS: live, PLATFORM_SEND_CAP: String(cap) }, p));
    // The studios in use: a customer looks at each one's schedule, through the processes in turn.
    await each([...senders, quiet.s], 8, async (s, i) => {
      const res = await fetch(`${servers[i % servers.length].url}/s/${s.studio.slug}/api/v1/schedule/public`);
      if (res.status !== 200) throw new Error(`${s.studio.slug}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    });
    await sleep(2000);
    const held = await connections(p.db);
    log(
      `delivery at ${cap}/s a process: ${senders.length + 1} studios open, ${held.connections} connections, ${held.senders} sender locks`,
    );
    const few_ = await broadcast(p, servers, senders.slice(0, few), MESSAGES, 2 * run, quiet, 4_000_000_001 + 10 * run);
    log(`delivery: ${few} bots done (${fmt(Math.min(...few_.rates), 1)}/s slowest)`);
    await sleep(2000);
    const all_ = await broadcast(p, servers, senders, ALL_MESSAGES, 2 * run + 1, quiet, 4_000_000_002 + 10 * run);
    log(`delivery: ${senders.length} bots done (${fmt(Math.min(...all_.rates), 1)}/s slowest)`);
    const rss = servers.map((s) => rssMb(s.child.pid));
    const after = await connections(p.db);
    return [
      ...broadcastRows(few_, servers.length, cap),
      ...broadcastRows(all_, servers.length, cap),
      {
        what: `…the ${servers.length} processes afterwards (PLATFORM_LIVE_STUDIOS=${live}: each opens every studio with messages due)`,
        measured:
          `RSS ${rss.map((x) => fmt(x)).join(', ')} MB; ${held.connections} PostgreSQL connections with ${senders.length + 1} studios open before the ` +
          `broadcasts (${held.senders} sender locks), ${after.connections} after (${after.senders})`,
        budget: 'reported',
        ok: true,
      },
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

// ---------------------------------------------------------------------------------------------------
// 3. A booking storm spread over many studios, through one process and through three.

interface StormStudio extends BenchStudio {
  warm: number;
  /** The measured sessions: of the run through one process, and through three; one per round. */
  runs: number[][];
}

/**
 * POSTs each of `requests` to its studio's /records/ from `clients` keep-alive clients, the n-th
 * through process n % urls.length; the statuses, and the ids answered 201.
 */
async function drive(
  urls: string[],
  clients: number,
  requests: Array<{ slug: string; authorization: string; body: string }>,
) {
  const agents = urls.map(() => new http.Agent({ keepAlive: true, maxSockets: clients }));
  const statuses = new Map<number | string, number>();
  const ids: Array<{ slug: string; id: number }> = [];
  const post = (n: number) =>
    new Promise<number | string>((resolve) => {
      const { slug, authorization, body } = requests[n];
      const req = http.request(
        `${urls[n % urls.length]}/s/${slug}/api/v1/records/`,
        {
          method: 'POST',
          agent: agents[n % urls.length],
          headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode === 201)
              ids.push({
                slug,
                id: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { record: { id: number } }).record.id,
              });
            resolve(res.statusCode ?? 0);
          });
        },
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
  return { seconds, statuses, ids };
}

let customerSeq = 6_000_000_000;

/** `perStudio` bookings in each studio's session `which`, interleaved across studios, each by a new customer. */
function bookings(studios: StormStudio[], perStudio: number, which: (s: StormStudio) => number) {
  const out: Array<{ slug: string; authorization: string; body: string }> = [];
  for (let k = 0; k < perStudio; k++)
    for (const s of studios) {
      const user = { id: customerSeq++, username: `c${customerSeq}`, first_name: 'Анна' };
      out.push({
        slug: s.studio.slug,
        authorization: `tma ${signInitData(user, s.bot.token)}`,
        body: JSON.stringify(bookingPayload(which(s))),
      });
    }
  return out;
}

async function stormRun(
  p: Platform,
  servers: PlatformProcess[],
  studios: StormStudio[],
  config: number,
  opened: PlatformProcess[],
) {
  // Each process opens every studio before it is measured (a customer looks at the schedule there).
  const openStarted = performance.now();
  const openMs: number[] = [];
  for (const server of opened)
    await each(studios, 4, async (s) => {
      const t = performance.now();
      const r = await fetch(`${server.url}/s/${s.studio.slug}/api/v1/schedule/public`);
      openMs.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`${s.studio.slug}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    });
  const openS = (performance.now() - openStarted) / 1000;
  const urls = servers.map((s) => s.url);
  const warm = await drive(
    urls,
    STORM.clients,
    bookings(studios, STORM.warmUpPerStudio * servers.length, (s) => s.warm),
  );
  // What the open studios cost with no request at all (their outboxes' polls, the wakers, the store checks).
  const idleBefore = servers.reduce((n, s) => n + cpuTimeMs(s.child.pid), 0);
  const idlePg = await postgresCpu(p.db);
  await sleep(STORM_IDLE_S * 1000);
  const background = {
    servers: (servers.reduce((n, s) => n + cpuTimeMs(s.child.pid), 0) - idleBefore) / STORM_IDLE_S,
    postgres: cpuBetween(idlePg, await postgresCpu(p.db)) / STORM_IDLE_S,
  };
  const rounds = [];
  for (let round = 0; round < STORM.rounds; round++)
    rounds.push(await stormRound(p, servers, studios, config, round, warm.statuses));
  return { rounds, background, open: { s: openS, median: median(openMs), studios: studios.length * opened.length } };
}

/** One measured round through `servers`, on each studio's session runs[config][round]; and the checks. */
async function stormRound(
  p: Platform,
  servers: PlatformProcess[],
  studios: StormStudio[],
  config: number,
  round: number,
  warm: Map<number | string, number>,
) {
  const urls = servers.map((s) => s.url);
  const requests = bookings(studios, STORM.perStudio, (s) => s.runs[config][round]);
  const outputs = servers.map((s) => s.output().length);
  const load = loadNow();
  const cpuBefore = servers.map((s) => cpuTimeMs(s.child.pid));
  const pgBefore = await postgresCpu(p.db);
  const measured = await drive(urls, STORM.clients, requests);
  const cpuServers = servers.reduce((n, s, i) => n + cpuTimeMs(s.child.pid) - cpuBefore[i], 0);
  const cpuPg = cpuBetween(pgBefore, await postgresCpu(p.db));
  const held = await connections(p.db);

  // Every session: never oversold, full (more customers than seats), every 201 stored.
  const checks: string[] = [];
  const describe = (st: Map<number | string, number>) => [...st].map(([s, n]) => `${n}× ${s}`).join(', ');
  if (round === 0 && [...warm.keys()].some((s) => s !== 201)) checks.push(`warm-up: ${describe(warm)}`);
  if ([...measured.statuses.keys()].some((s) => s !== 201)) checks.push(`run: ${describe(measured.statuses)}`);
  const accepted = new Map<string, number[]>();
  for (const { slug, id } of measured.ids) accepted.set(slug, [...(accepted.get(slug) ?? []), id]);
  let oversold = 0;
  let notFull = 0;
  let missing = 0;
  await each(studios, 8, async (s) => {
    const r = await p.db.admin.query<{ id: number; state: string; people_count: number }>(
      `select id, state, people_count from ${s.studio.location}.records where schedule_id = $1`,
      [s.runs[config][round]],
    );
    const taken = r.rows.filter((x) => x.state === 'ACTIVE').reduce((n, x) => n + x.people_count, 0);
    if (taken > STORM.seats) oversold++;
    if (taken < Math.min(STORM.seats, accepted.get(s.studio.slug)?.length ?? 0)) notFull++;
    const stored = new Set(r.rows.map((x) => x.id));
    missing += (accepted.get(s.studio.slug) ?? []).filter((id) => !stored.has(id)).length;
  });
  if (oversold) checks.push(`${oversold} sessions oversold`);
  if (notFull) checks.push(`${notFull} sessions with fewer seats taken than bookings accepted (up to ${STORM.seats})`);
  if (missing) checks.push(`${missing} bookings answered 201 but not stored`);
  const errors = servers.flatMap((s, i) => errorsIn(s, outputs[i]));
  if (errors.length) checks.push(`${errors.length} errors logged, first: ${firstError(errors)}`);
  return {
    rate: requests.length / measured.seconds,
    perBooking: { servers: cpuServers / requests.length, postgres: cpuPg / requests.length },
    seconds: measured.seconds,
    connections: held,
    checks,
    load,
    accepted: measured.ids.length,
  };
}

async function storm(p: Platform): Promise<Row[]> {
  // The first studios (those of part 2 among them, with new sessions: they are other studios' bots' data).
  const count = STORM_STUDIOS;
  if (p.studios.length < count) await createStudios(p, count - p.studios.length, p.concurrency);
  const studios: StormStudio[] = [];
  await each(p.studios.slice(0, count), 4, async (s) => {
    const database = openStudioDatabase(s.studio, p.servers, p.dataDir);
    const [warm, ...measured] = await sessions(
      database,
      [1000, ...Array<number>(2 * STORM.rounds).fill(STORM.seats)],
      10,
    );
    studios.push({ ...s, warm, runs: [measured.slice(0, STORM.rounds), measured.slice(STORM.rounds)] });
  });
  const live = String(LIVE);
  const servers: PlatformProcess[] = [];
  try {
    servers.push(await startPlatform({ PLATFORM_LIVE_STUDIOS: live }, p));
    const one = await stormRun(p, servers, studios, 0, servers);
    log(`storm: 1 process ${one.rounds.map((r) => fmt(r.rate)).join(', ')}/s`);
    const added: PlatformProcess[] = [];
    for (let i = 1; i < INSTANCES; i++) added.push(await startPlatform({ PLATFORM_LIVE_STUDIOS: live }, p));
    servers.push(...added);
    const three = await stormRun(p, servers, studios, 1, added);
    log(`storm: ${servers.length} processes ${three.rounds.map((r) => fmt(r.rate)).join(', ')}/s`);
    type Round = (typeof one.rounds)[number];
    // The best round of each: the one the machine's other work disturbed least.
    const best = (r: typeof one) => r.rounds.reduce((x, y) => (y.rate > x.rate ? y : x));
    const ratio = best(three).rate / best(one).rate;
    const ms = (r: Round) => r.perBooking.servers + r.perBooking.postgres;
    const ceiling = (r: Round) => (cores * 1000) / ms(r);
    const describe = (n: number, all: typeof one) => {
      const r = best(all);
      return (
        `${n}: ${fmt(r.rate)} bookings/s (rounds ${all.rounds.map((x) => fmt(x.rate)).join(', ')}), CPU a booking ${r.perBooking.servers.toFixed(2)} ms servers + ` +
        `${r.perBooking.postgres.toFixed(2)} ms PostgreSQL (rounds ${all.rounds.map((x) => ms(x).toFixed(1)).join(', ')} ms) → ceiling ${cores} × 1000 / ${ms(r).toFixed(2)} = ` +
        `${fmt(ceiling(r))}/s, of which the open studios' background (measured idle: ${fmt(all.background.servers)} + ${fmt(all.background.postgres)} ms of CPU a second) ` +
        `${((r.seconds * (all.background.servers + all.background.postgres)) / (STORM.perStudio * studios.length)).toFixed(2)} ms; opening ${fmt(all.open.studios)} studios first took ${fmt(all.open.s, 1)} s (median ${fmt(all.open.median)} ms each); ` +
        `${r.connections.connections} connections (${r.connections.senders} sender locks); ${r.load}`
      );
    };
    const checks = [
      ...one.rounds.flatMap((r) => r.checks.map((c) => `1: ${c}`)),
      ...three.rounds.flatMap((r) => r.checks.map((c) => `${servers.length}: ${c}`)),
    ];
    for (const c of checks) loud(`storm: ${c}`);
    if (ratio < 2)
      loud(
        `storm over ${count} studios: ${servers.length} processes book ${ratio.toFixed(2)} × one; the ceiling at ${servers.length} processes' CPU a booking is ` +
          `${fmt(ceiling(best(three)))}/s = ${(ceiling(best(three)) / best(one).rate).toFixed(2)} × one`,
      );
    return [
      {
        what:
          `Booking storm over ${count} studios (one ${STORM.seats}-seat session each, ${STORM.perStudio} customers a studio = ${fmt(count * STORM.perStudio)} bookings, ` +
          `init data signed with each studio's bot token, ${STORM.clients} keep-alive clients round-robin) through 1 and ${servers.length} platform processes`,
        measured: `${describe(1, one)}; ${describe(servers.length, three)}`,
        budget: `no session oversold, each full, every 201 stored, no errors`,
        ok: checks.length === 0,
      },
      {
        what: `…${servers.length} processes / 1, bookings over ${count} studios`,
        measured:
          `${ratio.toFixed(2)} × (${fmt(best(three).rate)} / ${fmt(best(one).rate)}); this machine's ceiling at ${servers.length} processes' CPU a booking: ` +
          `${fmt(ceiling(best(three)))}/s = ${(ceiling(best(three)) / best(one).rate).toFixed(2)} × one`,
        budget: '≥ 2× one process',
        ok: ratio >= 2,
      },
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

// ---------------------------------------------------------------------------------------------------

export async function platformBench(): Promise<Row[]> {
  const startLoad = uptime();
  log(`start: ${startLoad}`);
  let db: BenchDatabase;
  let server: Awaited<ReturnType<typeof chooseServer>>;
  try {
    server = await chooseServer();
    db = await benchDatabase(server.url);
  } catch (err) {
    loud(`platform: PostgreSQL unreachable: ${(err as Error).message}`);
    return [
      {
        what: 'Platform (PostgreSQL)',
        measured: `not measured: ${(err as Error).message}`,
        budget: 'measured',
        ok: false,
      },
    ];
  }
  log(`PostgreSQL: ${server.why}`);
  log(
    `database ${db.name}: the bench's role may open ${db.limit} connections (max_connections ${db.maxConnections}${db.role ? '' : ', no role: unbounded'})`,
  );
  await buildServer({ outDir: COMPILED_DIR });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-platform-bench-'));
  const fleet = await startFakeBotFleet({ limits: TELEGRAM_LIMITS });
  const store = await openPlatformStore({ databaseUrl: db.url, dataDir });
  const servers = createServers({ main: db.url }, { poolSize: 12 });
  const p: Platform = { db, store, servers, dataDir, fleet, studios: [], concurrency: 3, created: 0 };
  const rows: Row[] = [];
  const started = performance.now();
  try {
    if (PARTS.includes('1')) rows.push(...(await manyStudios(p)));
    else await createStudios(p, Math.max(ALL_BOTS + 1, STORM_STUDIOS), 2);
    if (PARTS.includes('2')) rows.push(...(await delivery(p)));
    if (PARTS.includes('3')) rows.push(...(await storm(p)));
  } finally {
    await servers.close();
    await store.close();
    await fleet.close();
    await db.drop();
    server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const endLoad = uptime();
  log(`end: ${endLoad}`);
  rows.unshift({
    what: 'Platform section: PostgreSQL',
    measured: `${server.why}; the bench's role may open ${db.limit} connections`,
    budget: `room for 3 processes' pools: ${POOLS}`,
    ok: db.limit >= POOLS,
  });
  rows.push({
    what: `Platform section: wall time and the machine's load (${cores} cores)`,
    measured: `${fmt((performance.now() - started) / 1000)} s; at start ${startLoad.replace(/^.*load/, 'load')}; at end ${endLoad.replace(/^.*load/, 'load')}`,
    budget: '< 8 min',
    ok: performance.now() - started < 8 * 60_000,
  });
  return rows;
}
