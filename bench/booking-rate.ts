/**
 * The booking engine against the machine's limit (`BENCH_ONLY=rate,latency npm run bench`), on SQLite
 * and on PostgreSQL in the same run:
 * - rate: (a) the bare cost of a booking's writes: the rows one booking writes on a default studio (the
 *   record with its price and consent, its audit entry, the customer's outbox message) under the
 *   session's lock with the seat count, by a plain loop over better-sqlite3 and over one pg connection,
 *   no HTTP, no validation; (b) the product's booking rate: 1,000 bookings by 1,000 customers over 50
 *   sessions from 50 concurrent clients through HTTP (signed init data); (c) their ratio against the goals.
 * - latency: p50 / p95 / p99 of POST /records/, GET /schedule/public and GET /records/{id} under 50 and
 *   under 200 concurrent clients (autocannon).
 * The server runs in its own process as deployed: compiled (into dist/bench-server by this run),
 * NODE_ENV=production, the default log level with its log in a file. BENCH_SERVER=tsx runs
 * server/main.ts from the sources instead; BENCH_CPU_PROF=DIR writes the server's CPU profile there.
 * PostgreSQL: TEST_DATABASE_URL, else BENCH_POSTGRES_URL, else the local default server;
 * BENCH_DATABASES=sqlite (or postgres) measures one only.
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import pg from 'pg';
// @ts-expect-error plain JavaScript without declarations (it must run before anything is compiled)
import { buildServer } from '../scripts/build-server.js';
import { createDb } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { bookingPayload, inDays } from '../tests/helpers/factories';
import { startFakeTelegram, TELEGRAM_LIMITS } from '../tests/helpers/fake-telegram';
import { freePort, ROOT } from '../tests/helpers/server-process';
import { initDataFor, TEST_BOT_TOKEN } from '../tests/helpers/telegram';
import type { Row } from './instances';

const SESSIONS = 50;
const CAPACITY = 50; // every booking of the rate run takes a seat (~24 a session by its end)
const BOOKINGS = 1000;
const BARE_CAPACITY = 10_000; // every round of the bare loop's bookings takes a seat too
const CLIENTS = 50;
const WARM_UP = 200;
const READ_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 5);
const GOAL = { sqlite: 0.2, postgres: 0.5 } as const;
const PASSWORD = 'superuser-password-1';
const POSTGRES_URL =
  process.env.TEST_DATABASE_URL ??
  process.env.BENCH_POSTGRES_URL ??
  'postgres://postgres:postgres@127.0.0.1:5432/postgres';

type Kind = 'sqlite' | 'postgres';
/** BENCH_DATABASES=sqlite or =postgres measures one of them (while profiling); both by default. */
const ONLY_DATABASES = process.env.BENCH_DATABASES?.split(',');
const NAME: Record<Kind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const load = () => `load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
/** `uptime`'s line (load averages of 1, 5 and 15 minutes), printed with the results. */
export const uptime = () =>
  spawnSync('uptime', { encoding: 'utf8' }).stdout?.trim() || `load average ${os.loadavg().join(', ')}`;

function loud(message: string) {
  console.error(`\n!!!!!!!! GOAL MISSED: ${message} !!!!!!!!\n`);
}

// ---------------------------------------------------------------------------------------------------
// The fixtures both sides write: a workshop, an address and the sessions, then the same booking.

const WORKSHOP = { title: 'Паста', description: 'Домашняя паста', price: 3500 };
const ADDRESS = { title: 'Улица Кнеза Милоша 1', map_link: 'https://maps.example/1', description: 'Второй этаж' };
const dates = Array.from({ length: SESSIONS }, (_, i) => inDays(3 + Math.floor(i / 5), 10 + (i % 5) * 2));

/** What a booking's customer message carries (core/notify/publish.ts: schedule, record and money snapshots). */
function bookedPayload(recordId: number, scheduleId: number, date: string, telegramId: number, state: string) {
  const b = bookingPayload(scheduleId);
  return JSON.stringify({
    schedule: {
      schedule_id: scheduleId,
      date,
      workshop_title: WORKSHOP.title,
      workshop_title_en: null,
      workshop_title_sr: null,
      address_title: ADDRESS.title,
      address_description: ADDRESS.description,
      map_link: ADDRESS.map_link,
    },
    record: {
      record_id: recordId,
      state,
      telegram_id: telegramId,
      name: b.name,
      last_name: b.last_name,
      people_count: 1,
      telegram_login: `bare${telegramId}`,
      comment: b.comment,
      has_allergy: false,
      allergy_type: null,
      source: b.source,
      is_first_time: true,
      cancel_reason: null,
      queue_position: null,
    },
    money: {
      price: WORKSHOP.price,
      amount_paid: 0,
      balance: WORKSHOP.price,
      status: 'unpaid',
      required_now: 0,
      pay_by: null,
      paid_by_credit: 0,
      to_credit: 0,
    },
  });
}

const RECORD_COLUMNS = [
  'schedule_id',
  'state',
  'name',
  'last_name',
  'people_count',
  'telegram_login',
  'telegram_id',
  'comment',
  'has_allergy',
  'allergy_type',
  'source',
  'is_first_time',
  'cancel_reason',
  'queued_at',
  'active_since',
  'created_at',
  'updated_at',
  'consent_at',
  'consent_version',
  'unit_price',
  'certificate_id',
  'credit_declined',
] as const;
const AUDIT_COLUMNS = [
  'actor_kind',
  'actor_user_id',
  'actor_telegram_id',
  'entity',
  'entity_id',
  'action',
  'before',
  'after',
  'at',
] as const;
const NOTIFICATION_COLUMNS = [
  'chat_id',
  'kind',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'locked_until',
  'last_error',
  'dedupe_key',
  'created_at',
  'sent_at',
] as const;

/** The values of one booking's three rows, in the column orders above. */
function bookingRows(i: number, schedule: { id: number; date: string; capacity: number }, taken: number) {
  const b = bookingPayload(schedule.id);
  const now = new Date().toISOString();
  const telegramId = 800_000 + i;
  const state = taken + 1 <= schedule.capacity ? 'ACTIVE' : 'QUEUED';
  const record = [
    schedule.id,
    state,
    b.name,
    b.last_name,
    1,
    `bare${telegramId}`,
    telegramId,
    b.comment,
    0,
    null,
    b.source,
    1,
    null,
    state === 'QUEUED' ? now : null,
    state === 'ACTIVE' ? now : null,
    now,
    now,
    now,
    'c3961cd28a06',
    WORKSHOP.price,
    null,
    0,
  ];
  const audit = (recordId: number) => [
    'customer',
    null,
    telegramId,
    'record',
    recordId,
    'created',
    null,
    JSON.stringify({ state, people_count: 1, schedule_id: schedule.id, name: b.name }),
    now,
  ];
  const message = (recordId: number) => [
    telegramId,
    'record.booked',
    bookedPayload(recordId, schedule.id, schedule.date, telegramId, state),
    'pending',
    0,
    now,
    null,
    null,
    null,
    now,
    null,
  ];
  return { record, audit, message };
}

const placeholders = (n: number, pgStyle: boolean) =>
  Array.from({ length: n }, (_, i) => (pgStyle ? `$${i + 1}` : '?')).join(', ');
const insertSql = (table: string, columns: readonly string[], pgStyle: boolean, returning = '') =>
  `insert into ${table} (${columns.join(', ')}) values (${placeholders(columns.length, pgStyle)})${returning}`;

// ---------------------------------------------------------------------------------------------------
// (a) The bare loop.

/** A new database migrated as the product's (same tables, indexes and constraints). */
async function freshDatabase(kind: Kind): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-rate-'));
    return { url: `sqlite:${path.join(dir, 'app.db')}`, drop: async () => fs.rmSync(dir, { recursive: true }) };
  }
  const name = `wb_bench_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function migrated(kind: Kind) {
  const fresh = await freshDatabase(kind);
  const database = createDb(fresh.url);
  await migrateToLatest(database.db);
  await database.close();
  return fresh;
}

interface Bare {
  /** Bookings per second of each round. */
  rates: number[];
  /** CPU time per booking, in ms: this process's (on SQLite all the work there is) and on PostgreSQL its backend's. */
  cpuPerBooking: number;
}

/** The plain loop over better-sqlite3: `rounds` rounds of 1,000 bookings. */
async function bareSqlite(rounds: number): Promise<Bare> {
  const fresh = await migrated('sqlite');
  const db = new SQLite(fresh.url.slice('sqlite:'.length));
  try {
    // The product's pragmas (db/database.ts).
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    const workshop = db
      .prepare('insert into workshops (title, description, price) values (?, ?, ?) returning id')
      .get(WORKSHOP.title, WORKSHOP.description, WORKSHOP.price) as { id: number };
    const address = db
      .prepare('insert into addresses (title, map_link, description) values (?, ?, ?) returning id')
      .get(ADDRESS.title, ADDRESS.map_link, ADDRESS.description) as { id: number };
    const schedules = dates.map((date) => {
      const { id } = db
        .prepare(
          'insert into schedules (date, capacity, workshop_id, address_id, is_notified, created_at) values (?, ?, ?, ?, 0, ?) returning id',
        )
        .get(date, BARE_CAPACITY, workshop.id, address.id, new Date().toISOString()) as { id: number };
      return { id, date, capacity: BARE_CAPACITY };
    });
    const taken = db.prepare(
      "select sum(people_count) as taken from records where schedule_id = ? and state = 'ACTIVE'",
    );
    const record = db.prepare(insertSql('records', RECORD_COLUMNS, false, ' returning id'));
    const audit = db.prepare(insertSql('audit_log', AUDIT_COLUMNS, false));
    const message = db.prepare(insertSql('notifications', NOTIFICATION_COLUMNS, false));
    const book = db.transaction((i: number) => {
      const s = schedules[i % SESSIONS];
      const rows = bookingRows(i, s, (taken.get(s.id) as { taken: number | null }).taken ?? 0);
      const { id } = record.get(rows.record) as { id: number };
      audit.run(rows.audit(id));
      message.run(rows.message(id));
    });
    const rates: number[] = [];
    const cpu = process.cpuUsage();
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      for (let i = 0; i < BOOKINGS; i++) book.immediate(round * BOOKINGS + i);
      rates.push(BOOKINGS / ((performance.now() - started) / 1000));
    }
    const used = process.cpuUsage(cpu);
    return { rates, cpuPerBooking: (used.user + used.system) / 1000 / (rounds * BOOKINGS) };
  } finally {
    db.close();
    await fresh.drop();
  }
}

/** The plain loop over one pg connection: `rounds` rounds of 1,000 bookings (CPU: this process's and its backend's). */
async function barePostgres(rounds: number): Promise<Bare> {
  const fresh = await migrated('postgres');
  const client = new pg.Client({ connectionString: fresh.url });
  await client.connect();
  try {
    // Each statement prepared once (named), as better-sqlite3's are: PostgreSQL then neither parses nor plans it again.
    const names = new Map<string, string>();
    const named = (text: string, values: unknown[] = []) => {
      if (!names.has(text)) names.set(text, `bare${names.size}`);
      return client.query({ name: names.get(text), text, values });
    };
    const one = async (text: string, values: unknown[]) => (await named(text, values)).rows[0];
    const workshop = await one('insert into workshops (title, description, price) values ($1, $2, $3) returning id', [
      WORKSHOP.title,
      WORKSHOP.description,
      WORKSHOP.price,
    ]);
    const address = await one('insert into addresses (title, map_link, description) values ($1, $2, $3) returning id', [
      ADDRESS.title,
      ADDRESS.map_link,
      ADDRESS.description,
    ]);
    const schedules: Array<{ id: number; date: string; capacity: number }> = [];
    for (const date of dates) {
      const { id } = await one(
        'insert into schedules (date, capacity, workshop_id, address_id, is_notified, created_at) values ($1, $2, $3, $4, false, $5) returning id',
        [date, BARE_CAPACITY, workshop.id, address.id, new Date().toISOString()],
      );
      schedules.push({ id, date, capacity: BARE_CAPACITY });
    }
    const { pid } = await one('select pg_backend_pid() as pid', []);
    const backendBefore = cpuTimeMs(pid);
    const clientBefore = process.cpuUsage();
    const recordSql = insertSql('records', RECORD_COLUMNS, true, ' returning id');
    const auditSql = insertSql('audit_log', AUDIT_COLUMNS, true);
    const messageSql = insertSql('notifications', NOTIFICATION_COLUMNS, true);
    const rates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      for (let i = 0; i < BOOKINGS; i++) {
        const s = schedules[i % SESSIONS];
        await named('begin');
        await named('select id from schedules where id = $1 for update', [s.id]);
        const { taken } = await one(
          "select sum(people_count) as taken from records where schedule_id = $1 and state = 'ACTIVE'",
          [s.id],
        );
        const rows = bookingRows(round * BOOKINGS + i, s, Number(taken ?? 0));
        const { id } = await one(recordSql, rows.record);
        await named(auditSql, rows.audit(id));
        await named(messageSql, rows.message(id));
        await named('commit');
      }
      rates.push(BOOKINGS / ((performance.now() - started) / 1000));
    }
    const used = process.cpuUsage(clientBefore);
    return {
      rates,
      cpuPerBooking: ((used.user + used.system) / 1000 + (cpuTimeMs(pid) - backendBefore)) / (rounds * BOOKINGS),
    };
  } finally {
    await client.end();
    await fresh.drop();
  }
}

// ---------------------------------------------------------------------------------------------------
// (b) and (d) The product, through HTTP.

interface Product {
  url: string;
  log: string;
  /** CPU time (user + system) the server process used so far, in ms. */
  cpu(): number;
  stop(): Promise<void>;
}

/** CPU time (user + system) of a process so far, in ms (Linux /proc; NaN elsewhere). */
export function cpuTimeMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

/**
 * CPU time (ms) of the PostgreSQL backends serving database `url` by pid, when the server runs on this
 * machine (/proc; an empty map otherwise): PostgreSQL's share of a booking's work.
 */
async function backendsCpu(url: string): Promise<Map<number, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return new Map(
      rows.map((r) => [r.pid, cpuTimeMs(r.pid)] as [number, number]).filter(([, ms]) => !Number.isNaN(ms)),
    );
  } finally {
    await c.end();
  }
}

/** What processes used between two readings of their CPU by pid (one that appeared in between counts whole). */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, used] of after) ms += used - (before.get(pid) ?? 0);
  return after.size === 0 ? NaN : ms;
}

const COMPILED_DIR = path.join(ROOT, 'dist/bench-server');
let compiledOnce: Promise<void> | null = null;

/** The server's command: the compiled bundle (built once per run, beside dist/server), or the sources via tsx. */
async function serverCommand(): Promise<string[]> {
  if (process.env.BENCH_SERVER === 'tsx') return ['--import', 'tsx', 'server/main.ts'];
  compiledOnce ??= buildServer({ outDir: COMPILED_DIR });
  await compiledOnce;
  return [path.join(COMPILED_DIR, 'main.js')];
}

async function startProduct(databaseUrl: string, kind: Kind): Promise<Product> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-rate-server-'));
  const log = path.join(dir, 'server.log');
  const out = fs.openSync(log, 'a');
  const port = await freePort();
  const profile = process.env.BENCH_CPU_PROF;
  const args = [
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile, kind)}`] : []),
    ...(await serverCommand()),
  ];
  // The outbox's messages go to a Bot API that takes them at Telegram's pace (30 a second), as in
  // production: a refused send would be retried and logged over and over, work a studio never sees.
  const telegram = await startFakeTelegram({ limits: TELEGRAM_LIMITS });
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123',
      FIRST_SUPERUSER_PASSWORD: PASSWORD,
      BOT_TOKEN: TEST_BOT_TOKEN,
      ...telegram.env,
      DATA_DIR: dir,
      DIST_DIR: '/nonexistent',
    },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${fs.readFileSync(log, 'utf8')}`);
    if (
      await fetch(`${url}/api/v1/utils/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() - started > 60_000) throw new Error(`no readiness in 60 s:\n${fs.readFileSync(log, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // The bot, the jobs and the outbox's sender begin a second after readiness: measured once they run.
  await telegram.waitFor((calls) => calls.length > 0, 30_000);
  await new Promise((r) => setTimeout(r, 500));
  return {
    url,
    log,
    cpu: () => cpuTimeMs(child.pid),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await telegram.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POST as the superuser, expecting 201. */
export async function staffApi(base: string) {
  const login = await fetch(`${base}/api/v1/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'admin@example.com', password: PASSWORD }),
  });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}`, 'content-type': 'application/json' };
  return async (url: string, body: unknown): Promise<{ id: number }> => {
    const r = await fetch(`${base}/api/v1${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (r.status !== 201) throw new Error(`POST ${url}: ${r.status} ${await r.text()}`);
    return r.json();
  };
}

interface Run {
  seconds: number;
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
}

/** `count` requests (or READ_SECONDS of them) from `connections` clients; `next` sets each request up. */
async function drive(
  url: string,
  connections: number,
  next: () => { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string },
  count?: number,
): Promise<Run> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  let last = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        ...(count ? { amount: count } : { duration: READ_SECONDS }),
        requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      last = performance.now();
      latencies.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
  // Until the last answer: autocannon itself ends on its next one-second tick.
  return { seconds: (last - started) / 1000, latencies, statuses, errors: result.errors };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
function spread(run: Run) {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}
const refused = (run: Run) =>
  [...run.statuses].filter(([status]) => status < 200 || status >= 300).reduce((n, [, c]) => n + c, 0) + run.errors;
const describeStatuses = (run: Run) =>
  [...run.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, c]) => `${c}× ${s}`)
    .join(', ') + (run.errors ? `, ${run.errors} connection errors` : '');

interface ProductResult {
  rate: number;
  /** The server's CPU time per booking of the rate run, in ms: what the machine's other work changes less. */
  cpuPerBooking: number;
  /** PostgreSQL's (its backends serving the run), when it runs on this machine. */
  postgresCpuPerBooking: number;
  rateRun: Run;
  checks: string[];
  latency: Array<{ what: string; clients: number; run: Run; goal: number | null }>;
  loadBefore: string;
  loadAfter: string;
}

/** The product on a fresh database: warm-up, the 1,000 bookings, then the latency runs. */
async function product(kind: Kind, latencyToo: boolean): Promise<ProductResult> {
  const fresh = await freshDatabase(kind);
  const server = await startProduct(fresh.url, kind);
  const database = createDb(fresh.url);
  try {
    const post = await staffApi(server.url);
    const workshop = await post('/workshops/', WORKSHOP);
    const address = await post('/address/', ADDRESS);
    const sessions: number[] = [];
    for (const date of dates)
      sessions.push(
        (await post('/schedule/', { date, capacity: CAPACITY, workshop_id: workshop.id, address_id: address.id })).id,
      );

    // Customers, each signed once before any run (the client's work is not the server's).
    let nextCustomer = 0;
    const customers = Array.from({ length: WARM_UP + 2 * BOOKINGS + 1000 }, (_, i) => {
      const id = 700_000 + i;
      return { id, authorization: `tma ${initDataFor({ id, username: `rate${id}`, first_name: 'Анна' })}` };
    });
    const booking = () => {
      const c = customers[nextCustomer++];
      return {
        method: 'POST' as const,
        path: '/api/v1/records/',
        headers: { authorization: c.authorization, 'content-type': 'application/json' },
        body: JSON.stringify(bookingPayload(sessions[c.id % SESSIONS])),
      };
    };
    const booked = async () =>
      database.db.selectFrom('records').select(['id', 'telegram_id', 'schedule_id', 'state', 'people_count']).execute();
    let readCursor = 0;
    const bookedRows: Array<{ id: number; authorization: string }> = [];
    const readRecord = () => {
      const r = bookedRows[readCursor++ % bookedRows.length];
      return { method: 'GET' as const, path: `/api/v1/records/${r.id}`, headers: { authorization: r.authorization } };
    };
    const readSchedule = () => ({ method: 'GET' as const, path: '/api/v1/schedule/public' });

    // Warm-up: the first requests compile the hot code.
    await drive(server.url, CLIENTS, booking, WARM_UP);
    const warm = await booked();
    const byCustomer = new Map(customers.map((c) => [c.id, c.authorization]));
    bookedRows.push(...warm.map((r) => ({ id: r.id, authorization: byCustomer.get(r.telegram_id!)! })));
    await drive(server.url, CLIENTS, readRecord, 200);
    await drive(server.url, CLIENTS, readSchedule, 200);

    const loadBefore = uptime();
    const before = warm.length;
    const cpuBefore = server.cpu();
    const backendsBefore = kind === 'postgres' ? await backendsCpu(fresh.url) : null;
    const rateRun = await drive(server.url, CLIENTS, booking, BOOKINGS);
    const cpuPerBooking = (server.cpu() - cpuBefore) / BOOKINGS;
    const postgresCpuPerBooking = backendsBefore
      ? cpuBetween(backendsBefore, await backendsCpu(fresh.url)) / BOOKINGS
      : NaN;
    const rows = await booked();
    const created = (rateRun.statuses.get(201) ?? 0) + 0;
    const checks: string[] = [];
    if (created !== BOOKINGS)
      checks.push(`${BOOKINGS - created} of ${BOOKINGS} not booked (${describeStatuses(rateRun)})`);
    if (rows.length - before !== created) checks.push(`${rows.length - before} rows for ${created} answers 201`);
    const seats = new Map<number, number>();
    for (const r of rows)
      if (r.state === 'ACTIVE') seats.set(r.schedule_id, (seats.get(r.schedule_id) ?? 0) + r.people_count);
    const over = [...seats.values()].filter((n) => n > CAPACITY).length;
    if (over) checks.push(`${over} sessions over their capacity`);
    if (rows.some((r) => r.state !== 'ACTIVE')) checks.push('bookings queued although seats were left');

    const latency: ProductResult['latency'] = [];
    if (latencyToo) {
      for (const r of rows.slice(before)) bookedRows.push({ id: r.id, authorization: byCustomer.get(r.telegram_id!)! });
      latency.push({ what: 'POST /records/', clients: CLIENTS, run: rateRun, goal: 200 });
      latency.push({
        what: 'GET /schedule/public',
        clients: CLIENTS,
        run: await drive(server.url, CLIENTS, readSchedule),
        goal: 100,
      });
      latency.push({
        what: 'GET /records/{id}',
        clients: CLIENTS,
        run: await drive(server.url, CLIENTS, readRecord),
        goal: 100,
      });
      latency.push({
        what: 'POST /records/',
        clients: 200,
        run: await drive(server.url, 200, booking, BOOKINGS),
        goal: null,
      });
      latency.push({
        what: 'GET /schedule/public',
        clients: 200,
        run: await drive(server.url, 200, readSchedule),
        goal: null,
      });
      latency.push({
        what: 'GET /records/{id}',
        clients: 200,
        run: await drive(server.url, 200, readRecord),
        goal: null,
      });
    }
    const failing = fs
      .readFileSync(server.log, 'utf8')
      .split('\n')
      // Errors of requests (not the bot's calls to the closed Bot API port).
      .filter((l) => /"level":(50|60)/.test(l) && l.includes('"reqId"'));
    if (failing.length) checks.push(`${failing.length} errors in the server's log, first: ${failing[0].slice(0, 300)}`);
    return {
      rate: BOOKINGS / rateRun.seconds,
      cpuPerBooking,
      postgresCpuPerBooking,
      rateRun,
      checks,
      latency,
      loadBefore,
      loadAfter: uptime(),
    };
  } finally {
    await database.close();
    await server.stop();
    await fresh.drop();
  }
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

const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const range = (xs: number[]) => (xs.length === 1 ? fmt(xs[0]) : `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The rate (a, b, c) and latency (d) parts, each database in turn. */
export async function bookingBench(parts: { rate: boolean; latency: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  console.log(`\nBooking rate and latency: ${uptime()}`);
  const unreachable = ONLY_DATABASES && !ONLY_DATABASES.includes('postgres') ? null : await postgresReachable();
  if (unreachable) {
    loud(`PostgreSQL not measured: ${POSTGRES_URL.replace(/:[^:@/]+@/, ':***@')}: ${unreachable}`);
    rows.push({
      what: 'Booking rate and latency on PostgreSQL',
      measured: `not measured: ${unreachable} (set BENCH_POSTGRES_URL)`,
      budget: 'measured',
      ok: false,
    });
  }
  const kinds = (['sqlite', 'postgres'] as const).filter(
    (k) => (k === 'sqlite' || !unreachable) && (!ONLY_DATABASES || ONLY_DATABASES.includes(k)),
  );
  for (const kind of kinds) {
    const db = NAME[kind];
    // The bare loop's rounds before and after the product's run, so a change of the machine's load
    // during the run weighs on both sides.
    const loop = () => (kind === 'sqlite' ? bareSqlite(3) : barePostgres(2));
    const before = parts.rate ? await loop() : null;
    const p = await product(kind, parts.latency);
    const after = parts.rate ? await loop() : null;
    const bare = {
      rates: [...(before?.rates ?? []), ...(after?.rates ?? [])],
      cpuPerBooking: ((before?.cpuPerBooking ?? NaN) + (after?.cpuPerBooking ?? NaN)) / 2,
    };
    for (const c of p.checks) loud(`${db} booking rate: ${c}`);
    if (parts.rate) {
      const bareRate = median(bare.rates);
      const ratio = p.rate / bareRate;
      const productCpu = p.cpuPerBooking + (kind === 'postgres' ? p.postgresCpuPerBooking : 0);
      const goal = GOAL[kind];
      rows.push({
        what: `(a) Bare loop on ${db}: a booking's rows (record, audit, message) under the session's lock, ${kind === 'sqlite' ? 'better-sqlite3' : 'one pg connection'}, statements prepared once`,
        measured:
          `${range(bare.rates)} bookings/s (${bare.rates.length} × ${fmt(BOOKINGS)} before and after (b), median ${fmt(bareRate)}` +
          `${Number.isNaN(bare.cpuPerBooking) ? '' : `, ${bare.cpuPerBooking.toFixed(3)} ms CPU each${kind === 'postgres' ? ' with its backend' : ''}`}; ${load()})`,
        budget: 'the limit',
        ok: true,
      });
      rows.push({
        what: `(b) Product on ${db}: ${fmt(BOOKINGS)} bookings, ${fmt(BOOKINGS)} customers, ${SESSIONS} sessions, ${CLIENTS} HTTP clients`,
        measured:
          `${fmt(p.rate)} bookings/s in ${p.rateRun.seconds.toFixed(2)} s, server CPU ${p.cpuPerBooking.toFixed(2)} ms each` +
          `${Number.isNaN(p.postgresCpuPerBooking) ? '' : ` + PostgreSQL's ${p.postgresCpuPerBooking.toFixed(2)} ms`} ` +
          `(${describeStatuses(p.rateRun)}; ${p.loadBefore.replace(/^.*load/, 'load')})`,
        budget: 'every booking 201, none over capacity',
        ok: p.checks.length === 0,
      });
      rows.push({
        what: `(c) Product / bare loop on ${db}`,
        measured:
          `${ratio.toFixed(3)} (${fmt(p.rate)} / ${fmt(bareRate)})` +
          (Number.isNaN(productCpu) || Number.isNaN(bare.cpuPerBooking)
            ? ''
            : `; by CPU per booking, which the machine's other work changes less: ${(bare.cpuPerBooking / productCpu).toFixed(3)}`),
        budget: `≥ ${goal}`,
        ok: ratio >= goal,
      });
      if (ratio < goal) loud(`${db}: the product books ${ratio.toFixed(3)} of the bare loop, goal ≥ ${goal}`);
    }
    for (const l of p.latency) {
      const { p50, p95, p99 } = spread(l.run);
      const bad = refused(l.run);
      const ok = bad === 0 && (l.goal === null || p99 < l.goal);
      rows.push({
        what: `(d) ${l.what} on ${db}, ${l.clients} clients: p50 / p95 / p99`,
        measured: `${ms(p50)} / ${ms(p95)} / ${ms(p99)} ms (${fmt(l.run.latencies.length)} requests, ${fmt(l.run.latencies.length / l.run.seconds)}/s${bad ? `; ${describeStatuses(l.run)}` : ''})`,
        budget: l.goal === null ? 'reported' : `p99 < ${l.goal} ms`,
        ok,
      });
      if (!ok) loud(`${db} ${l.what} under ${l.clients} clients: p99 ${ms(p99)} ms${bad ? `, ${bad} refused` : ''}`);
    }
    if (!parts.rate && p.checks.length)
      rows.push({ what: `Bookings on ${db}`, measured: p.checks.join('; '), budget: 'every booking 201', ok: false });
    console.log(`${db}: ${p.loadAfter}`);
  }
  return rows;
}
