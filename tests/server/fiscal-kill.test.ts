import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeFiscalSettings } from '../../core/fiscal/settings';
import { createDb, nowIso, type Database } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { getFiscalReceipt, insertFiscalReceipt } from '../../db/repositories/fiscal';
import { freshDatabaseUrl } from '../helpers/db';
import { startFakePfr, type FakePfr } from '../helpers/fake-pfr';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process';

/*
 * The fiscal sender in real server processes, built as deployed (node dist/server/main.js), on one
 * database (SQLite file, or PostgreSQL in the rerun) with the fake PFR on loopback: a process killed
 * with -9 while its receipt is at the PFR leaves exactly one receipt, which the next process finds;
 * two processes sending at once never send one receipt twice.
 */

const TIMEOUT_S = 4;
/** The sender's lease: twice the PFR's timeout and 2 s (core/jobs/fiscal-sender.ts). */
const LEASE_MS = 2 * TIMEOUT_S * 1000 + 2000;

let tmp: string;
let image: string;
let pfr: FakePfr;
let database: Database;
let databaseUrl: string;
let drop: () => Promise<void>;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-fiscal-kill-'));
  // The deployed layout: package.json, node_modules and the server built by the project's own script.
  image = path.join(tmp, 'app');
  fs.mkdirSync(image, { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(image, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(image, 'node_modules'));
  const built = spawnSync(process.execPath, ['scripts/build-server.js', '--outdir', path.join(image, 'dist/server')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(built.status, built.stderr).toBe(0);

  pfr = await startFakePfr();
  const fresh = await freshDatabaseUrl();
  databaseUrl = fresh.url;
  drop = fresh.drop;
  // Migrated before the processes start (two starting together would race on it).
  database = createDb(databaseUrl);
  await migrateToLatest(database.db);
  await writeFiscalSettings(database.db, {
    fiscal_mode: 'lpfr',
    fiscal_pfr_url: pfr.url,
    fiscal_label_workshop: 'Ђ',
  });
}, 120_000);

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.kill('SIGKILL');
    await s.exited;
  }
  pfr.reset();
});

afterAll(async () => {
  await database?.close();
  await drop?.();
  await pfr?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function server(): Promise<ServerProcess> {
  const dir = fs.mkdtempSync(path.join(tmp, 'data-'));
  return startServerProcess(
    {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      SECRET_KEY: 'fiscal-kill-test-secret-key-0123456789abcdef',
      FIRST_SUPERUSER_PASSWORD: 'superuser-password-1',
      DATA_DIR: dir,
      DIST_DIR: dir,
      LOG_LEVEL: 'info',
      FISCAL_PFR_TIMEOUT_S: String(TIMEOUT_S),
    },
    { command: [process.execPath, 'dist/server/main.js'], cwd: image },
  ).then((s) => {
    servers.push(s);
    return s;
  });
}

let keys = 0;
async function receipt(db = database, dueAt = nowIso()) {
  const row = await insertFiscalReceipt(db.db, {
    receipt_key: `kill:${++keys}:${randomUUID()}`,
    kind: 'advance',
    invoice_type: 'Advance',
    transaction_type: 'Sale',
    amount: 2500,
    payment_type: 'Cash',
    parts: JSON.stringify([{ amount: 2500, paymentType: 'Cash' }]),
    esir_time: nowIso(),
    request_id: randomUUID().replaceAll('-', ''),
    mode: 'lpfr',
    training: 0,
    next_attempt_at: dueAt,
  });
  return row!;
}

const posts = (requestId: string) =>
  pfr.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/invoices' && r.requestId === requestId);

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the fiscal sender in server processes', () => {
  it('kill -9 while the PFR is signing (its answer delayed): exactly one receipt, found and kept by the next process', async () => {
    const row = await receipt();
    // The PFR takes 3 s to answer (it signs at the end of it), well within the sender's 4 s timeout.
    pfr.delayMs = 3_000;
    const first = await server();
    await until('the receipt at the PFR', () => posts(row.request_id).length === 1, 20_000);
    first.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    expect((await getFiscalReceipt(database.db, row.id))!).toMatchObject({ state: 'waiting', attempts: 1 });
    await until('the PFR signed it', () => pfr.invoiceFor(row.request_id) !== undefined, 10_000);
    pfr.delayMs = 0;

    const second = await server();
    await until(
      'the receipt issued',
      async () => (await getFiscalReceipt(database.db, row.id))!.state === 'issued',
      30_000,
    );
    const after = (await getFiscalReceipt(database.db, row.id))!;
    const signed = pfr.invoiceFor(row.request_id)!.result;
    expect(after).toMatchObject({ invoice_number: signed.invoiceNumber, invoice_counter: signed.invoiceCounter });
    // Taken over once the dead process's lease ran out, and looked up instead of sent again.
    expect(Date.now() - killedAt).toBeGreaterThan(LEASE_MS - 4_000);
    expect(posts(row.request_id)).toHaveLength(1);
    expect(pfr.requests.filter((r) => r.path === `/api/v3/invoices/${row.request_id}`)).toHaveLength(1);
    expect(pfr.invoices).toHaveLength(1);
    // Logged after the write commits: the line may still be on its way.
    await until('the issue logged', () => second.output().includes('fiscal: receipt issued'), 10_000);
  }, 90_000);

  it('two processes sending at once never send one receipt twice', async () => {
    const a = await server();
    const b = await server();
    pfr.delayMs = 30;
    // Due together a moment from now, while both processes poll.
    const due = new Date(Date.now() + 1_500).toISOString();
    const rows = [];
    for (let i = 0; i < 30; i++) rows.push(await receipt(database, due));
    const ids = rows.map((r) => r.id);
    await until(
      'every receipt issued',
      async () => {
        const states = await database.db.selectFrom('fiscal_receipts').select('state').where('id', 'in', ids).execute();
        return states.every((s) => s.state === 'issued');
      },
      60_000,
    );
    for (const r of rows) expect(posts(r.request_id), `receipt ${r.id}`).toHaveLength(1);
    expect(pfr.invoices).toHaveLength(30);
    const issuedBy = (s: ServerProcess) => s.output().split('fiscal: receipt issued').length - 1;
    // A process logs a receipt after its write commits: the last lines may still be on their way.
    await until('every issue logged', async () => issuedBy(a) + issuedBy(b) >= 30, 10_000);
    expect(issuedBy(a) + issuedBy(b)).toBe(30);
    // Both took part: the lease, not luck, kept them apart.
    expect(issuedBy(a)).toBeGreaterThan(0);
    expect(issuedBy(b)).toBeGreaterThan(0);
  }, 90_000);
});
