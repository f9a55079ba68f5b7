/**
 * `npm run bench`: the performance budgets, printed as a table.
 *  1. GET /api/v1/schedule/public requests/s vs a bare Fastify route returning the same JSON,
 *     same process, same run (autocannon, 50 connections), 50 sessions and 2,000 bookings.
 *  2. The booking storm: 1,000 concurrent POST /api/v1/records/ on one 8-seat session, in process; and
 *     through one and through three server processes on PostgreSQL (bench/instances.ts).
 *  3. Start (bench/instances.ts): `node dist/server/main.js` (compiled, built assets, NODE_ENV=production)
 *     on a fresh SQLite file until readiness answers, beside plain `node -e 0`; median of 5.
 *  4. Telegram delivery (bench/delivery.ts): real server instances (three on PostgreSQL, one on SQLite)
 *     send a 600-chat broadcast, a flood in one chat and an unrelated confirmation through a fake Bot
 *     API that enforces Telegram's limits with 429s; on PostgreSQL, then kill -9 of the sender midway.
 *  5. History that scales (bench/history.ts): 1,500 past sessions and 12,000 bookings; each staff list's
 *     default page under 100 KB and 50 ms.
 *  6. The front-end budgets (bench/web.ts) unless BENCH_SKIP_WEB=1.
 *  7. The booking rate against the bare cost of its writes, and latency under 50 and 200 clients
 *     (bench/booking-rate.ts), on SQLite and PostgreSQL in the same run.
 *  8. Instances that add throughput (bench/instances.ts): bookings over 50 sessions through one and
 *     three server processes on one PostgreSQL (TEST_DATABASE_URL, else the local default server).
 *  9. The platform (bench/platform.ts, PostgreSQL): 1,000 studios created, one platform process idle on
 *     them, 50 opened; studios' bots delivering at once through three processes; a booking storm over
 *     100 studios through one and three.
 * Set TEST_DATABASE_URL to run 1, 2 (in process) and 4 on PostgreSQL;
 * BENCH_ONLY=throughput,storm,start,delivery,history,rate,latency,instances,platform runs some.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { startTestServer } from '../tests/helpers/server';
import { createSession, bookingPayload } from '../tests/helpers/factories';
import { initDataFor } from '../tests/helpers/telegram';
import { insertRecord } from '../db/repositories/records';
import { insertSchedule } from '../db/repositories/schedules';
import { withWriteTransaction } from '../db/lock';
import { deliveryBench } from './delivery';
import { historyBench } from './history';
import { instancesBench, startBench, stormInstancesBench } from './instances';
import { bookingBench, uptime } from './booking-rate';
import { platformBench } from './platform';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const rows: Array<{ what: string; measured: string; budget: string; ok: boolean }> = [];

async function rps(url: string): Promise<number> {
  const result = await autocannon({ url, connections: 50, duration: DURATION_S });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function publicScheduleThroughput() {
  const s = await startTestServer();
  try {
    const staff = await s.auth();
    const { workshop, address } = await createSession(s.app, staff);
    await withWriteTransaction(s.database, async (trx) => {
      for (let i = 0; i < 49; i++) {
        const { id } = await insertSchedule(trx, {
          date: new Date(Date.now() + (i + 1) * 86_400_000).toISOString(),
          capacity: 8,
          workshop_id: workshop.id,
          address_id: address.id,
        });
        for (let j = 0; j < (i === 0 ? 80 : 40); j++) {
          await insertRecord(trx, {
            schedule_id: id,
            state: j < 8 ? 'ACTIVE' : 'QUEUED',
            name: `Гость ${j}`,
            last_name: null,
            people_count: 1,
            telegram_login: null,
            telegram_id: 10_000 + i * 100 + j,
            comment: null,
            has_allergy: false,
            allergy_type: null,
            source: null,
            is_first_time: true,
          });
        }
      }
    });
    const url = `${s.url}/api/v1/schedule/public`;
    const body = await (await fetch(url)).json();
    const bare = Fastify();
    bare.get('/', async () => body);
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/`;
    await rps(bareUrl); // warm-up of both, then the measured runs
    const bareRps = await rps(bareUrl);
    const apiRps = await rps(url);
    await bare.close();
    const ratio = apiRps / bareRps;
    rows.push({
      what: `GET /schedule/public (${body.count} sessions, 2,000 bookings)`,
      measured: `${apiRps.toFixed(0)} req/s vs bare ${bareRps.toFixed(0)} req/s = ${(ratio * 100).toFixed(0)} %`,
      budget: '≥ 50 % of bare',
      ok: ratio >= 0.5,
    });
  } finally {
    await s.close();
  }
}

async function bookingStorm() {
  const s = await startTestServer();
  try {
    const staff = await s.auth();
    const { schedule } = await createSession(s.app, staff, { capacity: 8 });
    const headers = Array.from({ length: 1000 }, (_, i) => ({
      authorization: `tma ${initDataFor({ id: 900_000 + i, username: `storm${i}` })}`,
      'content-type': 'application/json',
    }));
    const body = JSON.stringify(bookingPayload(schedule.id));
    const started = performance.now();
    const results = await Promise.all(
      headers.map((h) =>
        fetch(`${s.url}/api/v1/records/`, { method: 'POST', headers: h, body }).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const states = await s.database.db
      .selectFrom('records')
      .select(['state', 'people_count'])
      .where('schedule_id', '=', schedule.id)
      .execute();
    const taken = states.filter((r) => r.state === 'ACTIVE').reduce((n, r) => n + r.people_count, 0);
    const queued = states.filter((r) => r.state === 'QUEUED').length;
    const errors = results.filter((c) => c !== 201).length;
    const fivexx = results.filter((c) => c >= 500 || c === 0).length;
    rows.push({
      what: 'Booking storm: 1,000 concurrent POST /records/ on 8 seats',
      measured: `${taken} seats taken, ${queued} queued, ${errors} errors (${fivexx} 5xx), ${(1000 / seconds).toFixed(0)} bookings/s`,
      budget: 'exactly 8 taken, rest queued, no 5xx',
      ok: taken === 8 && queued === 992 && fivexx === 0,
    });
  } finally {
    await s.close();
  }
}

const only = process.env.BENCH_ONLY?.split(',');
const wanted = (name: string) => !only || only.includes(name);
if (wanted('throughput')) await publicScheduleThroughput();
if (wanted('storm')) await bookingStorm();
if (wanted('storm')) rows.push(...(await stormInstancesBench()));
if (wanted('instances')) rows.push(...(await instancesBench()));
if (wanted('start')) rows.push(...(await startBench()));
if (wanted('delivery')) rows.push(...(await deliveryBench()));
if (wanted('history')) rows.push(...(await historyBench()));
if (wanted('rate') || wanted('latency'))
  rows.push(...(await bookingBench({ rate: wanted('rate'), latency: wanted('latency') })));
if (wanted('platform')) rows.push(...(await platformBench()));

console.log(
  `\nAPI budgets on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ${os.cpus().length} cores, Node ${process.version}\n${uptime()}`,
);
console.table(
  rows.map((r) => ({ what: r.what, measured: r.measured, budget: r.budget, result: r.ok ? 'pass' : 'FAIL' })),
);

if (process.env.BENCH_SKIP_WEB !== '1' && wanted('web')) {
  const web = spawnSync(process.execPath, ['--import', 'tsx', 'bench/web.ts'], { stdio: 'inherit' });
  if (web.status !== 0) process.exitCode = 1;
}
if (rows.some((r) => !r.ok)) process.exitCode = 1;
