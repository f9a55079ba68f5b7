import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { LATEST_MIGRATION } from '../../db/migrate';
import { insertAddress } from '../../db/repositories/addresses';
import { insertSchedule } from '../../db/repositories/schedules';
import { insertUser } from '../../db/repositories/users';
import { insertWorkshop } from '../../db/repositories/workshops';
import { cancelRecord, createRecord } from '../../core/booking/engine';
import { issueCertificate } from '../../core/certificates/sale';
import { customerActor, staffActor, type Actor } from '../../core/kernel/actor';
import { updateBusinessSettings } from '../../core/kernel/settings';
import { recordDeskPayment } from '../../core/payments/desk';
import { createPromoCode } from '../../core/promo/promo-codes';
import { openPlatformStore, type PlatformStore } from '../../platform/store';
import { createServers, createStudio, openStudioDatabase, type Servers, type Studio } from '../../platform/studios';
import {
  dropStudioData,
  exportStudio,
  importStudio,
  readArchive,
  writeArchive,
  ArchiveRefused,
  type ArchiveHeader,
} from '../../platform/studio-archive';
import { MOVING_ANSWER, MoveFailed, moveStudio } from '../../platform/move';
import { freshDatabaseUrl } from '../helpers/db';
import { bookingPayload, inDays } from '../helpers/factories';
import { freshDatabaseOn, secondServerUrl } from '../helpers/second-cluster';

/*
 * A studio's data as an archive (platform/studio-archive.ts) and a studio moved between two real
 * PostgreSQL servers (platform/move.ts). The SQLite part runs always; the PostgreSQL part with
 * TEST_DATABASE_URL (the PostgreSQL rerun), on a fresh database of that server and one of a second
 * server (tests/helpers/second-cluster.ts: a local cluster on 5433, created when absent), so the
 * platform schema and the studios' schemas of this file are its own.
 */

const TZ = 'Europe/Belgrade';

/** A studio's week through the core commands: bookings, desk payments, a cancellation, a promo code, a certificate. */
async function seedStudio(database: Database) {
  const user = await insertUser(database.db, {
    email: 'owner@example.com',
    hashed_password: 'x',
    full_name: 'Ана',
    is_active: true,
    is_superuser: true,
  });
  const staff: Actor = staffActor({ id: user!.id, is_superuser: true }, TZ);
  await updateBusinessSettings(database.db, { contact: '@studio — «ул. Кнеза Милоша 1»', reminder_hours: [3, 24] });
  const workshop = await insertWorkshop(database.db, { title: 'Паста', price: 3000 });
  const address = await insertAddress(database.db, { title: 'Студио', map_link: 'https://maps.example/1' });
  const sessions = [];
  for (const days of [3, 4])
    sessions.push(
      (
        await insertSchedule(database.db, {
          date: inDays(days),
          capacity: 4,
          workshop_id: workshop.id,
          address_id: address.id,
        })
      ).id,
    );
  await createPromoCode(
    database,
    staff,
    { code: 'PROLECE', kind: 'fixed', value: 500, valid_from: null, valid_to: null, workshop_ids: [], max_uses: null },
    TZ,
  );
  const certificate = await issueCertificate(database, staff, { amount: 5000, method: 'cash' });
  const records: number[] = [];
  // Telegram ids past 2^31 (bigint columns), one party larger than the seats left (a queue).
  for (const [i, extra] of [
    { people_count: 2 },
    { people_count: 1, promo_code: 'PROLECE', has_allergy: true, allergy_type: 'орехи' },
    { people_count: 1, certificate_code: certificate.code },
    { people_count: 3 },
  ].entries()) {
    const telegramId = 6_000_000_000 + i;
    const r = await createRecord(database, customerActor(telegramId), bookingPayload(sessions[0], extra), {
      telegram_id: telegramId,
      telegram_login: `user${i}`,
    });
    records.push(r.record.id);
  }
  await recordDeskPayment(database, staff, records[0], { method: 'cash' });
  await recordDeskPayment(database, staff, records[1], { method: 'card', amount: 1000, note: 'аванс' });
  await cancelRecord(database, customerActor(6_000_000_000), records[0], 'Заболела');
  return { staff, sessions, records };
}

/** An archive's lines as compared: the header without the moment it was written, then the rows. */
async function archiveOf(database: Database) {
  const lines: string[] = [];
  for await (const line of exportStudio(database)) lines.push(line);
  return comparable(lines);
}

function comparable(lines: string[]) {
  const { exported_at: _, ...header } = JSON.parse(lines[0]) as ArchiveHeader;
  return { header, rows: lines.slice(1) };
}

/** Rows as values by column name, booleans as 1/0: what two dialects' archives share. */
function portable(lines: string[]) {
  const header = JSON.parse(lines[0]) as ArchiveHeader;
  const columns = new Map(header.tables.map((t) => [t.name, t.columns]));
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const line of lines.slice(1, -1)) {
    const { t, r } = JSON.parse(line) as { t: string; r: unknown[] };
    const cols = columns.get(t)!;
    (out[t] ??= []).push(Object.fromEntries(r.map((v, i) => [cols[i], typeof v === 'boolean' ? Number(v) : v])));
  }
  return out;
}

/** Waits for `done` (bookings acknowledged), failing after 10 s instead of hanging. */
async function until(done: () => boolean) {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > 10_000) throw new Error('bookings stopped being acknowledged');
    await sleep(5);
  }
}

const collect = async (lines: AsyncIterable<string>) => {
  const all: string[] = [];
  for await (const l of lines) all.push(l);
  return all;
};

describe('studio archive on SQLite', () => {
  let dir: string;
  let store: PlatformStore;
  let servers: Servers;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-archive-'));
    store = await openPlatformStore({ databaseUrl: `sqlite:${dir}/app.db`, dataDir: dir });
    servers = createServers({ main: `sqlite:${dir}/app.db` });
  });
  afterAll(async () => {
    await servers?.close();
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const studio = (slug: string) =>
    createStudio(store, servers, dir, { name: slug, slug, timezone: TZ, ownerTelegramId: null });

  it('export → gzip file → import into a fresh studio gives identical rows and counters; refuses a second import', async () => {
    const a = await studio('alfa');
    const source = openStudioDatabase(a, servers, dir);
    await seedStudio(source);
    const file = path.join(dir, 'alfa.ndjson.gz');
    const header = await writeArchive(source, file);
    expect(header).toMatchObject({ format: 'studio-archive', version: LATEST_MIGRATION, dialect: 'sqlite' });
    expect(header.tables.map((t) => t.name)).not.toContain('kysely_migration');
    // Foreign keys: a table comes after those it references.
    const order = header.tables.map((t) => t.name);
    expect(order.indexOf('workshops')).toBeLessThan(order.indexOf('schedules'));
    expect(order.indexOf('schedules')).toBeLessThan(order.indexOf('records'));
    expect(header.tables.find((t) => t.name === 'records')!.rows).toBe(4);

    const b = await studio('bravo');
    const target = openStudioDatabase(b, servers, dir);
    const result = await importStudio(target, readArchive(file));
    expect(result.rows.records).toBe(4);
    expect(await archiveOf(target)).toEqual(await archiveOf(source));
    // New rows take ids after the imported ones.
    const next = await insertWorkshop(target.db, { title: 'Ньокки', price: 2500 });
    expect(next.id).toBe(2);

    await expect(importStudio(target, readArchive(file))).rejects.toThrow(ArchiveRefused);
    await expect(importStudio(target, readArchive(file))).rejects.toThrow(/not empty: table \w+ has rows/);
    await source.close();
    await target.close();
  });

  it('refuses an archive of another version, and one cut short imports nothing', async () => {
    const a = await studio('charlie');
    const source = openStudioDatabase(a, servers, dir);
    await seedStudio(source);
    const lines = await collect(exportStudio(source));
    const c = await studio('delta');
    const target = openStudioDatabase(c, servers, dir);
    const older = [JSON.stringify({ ...JSON.parse(lines[0]), version: '20261121_0001_initial' }), ...lines.slice(1)];
    await expect(importStudio(target, older)).rejects.toThrow(
      `The archive is of version 20261121_0001_initial, the studio's database of version ${LATEST_MIGRATION}`,
    );
    await expect(importStudio(target, lines.slice(0, -1))).rejects.toThrow(/ends early/);
    expect(await target.db.selectFrom('records').select('id').execute()).toEqual([]);
    await source.close();
    await target.close();
  });

  it('dropStudioData deletes the file and its -wal/-shm', async () => {
    const e = await studio('echo');
    const d = openStudioDatabase(e, servers, dir);
    await insertWorkshop(d.db, { title: 'Паста', price: 1 });
    const file = path.resolve(dir, e.location);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    await d.close();
    fs.writeFileSync(`${file}-shm`, '');
    await dropStudioData(e, servers, dir);
    expect([file, `${file}-wal`, `${file}-shm`].filter((f) => fs.existsSync(f))).toEqual([]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('studio archive and moves on two PostgreSQL servers', () => {
  let main: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let second: Awaited<ReturnType<typeof freshDatabaseOn>>;
  let dir: string;
  let store: PlatformStore;
  let servers: Servers;
  let studio: Studio;
  let source: Database;
  let sessions: number[];

  const row = () => store.db.selectFrom('studios').selectAll().where('id', '=', studio.id).executeTakeFirstOrThrow();
  const schemaOn = async (server: string, schema: string) =>
    (await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(servers.get(server).db)).rows.length > 0;

  /** A booking on the studio's database on main, as a request that checked the studio's status a moment before. */
  const lateBooking = async (telegramId: number) =>
    (
      await createRecord(source, customerActor(telegramId), bookingPayload(sessions[1]), {
        telegram_id: telegramId,
        telegram_login: null,
      })
    ).record.id;

  beforeAll(async () => {
    main = await freshDatabaseUrl();
    second = await freshDatabaseOn(await secondServerUrl());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-move-'));
    store = await openPlatformStore({ databaseUrl: main.url, dataDir: dir });
    servers = createServers({ main: main.url, b: second.url });
    studio = await createStudio(store, servers, dir, {
      name: 'Паста и точка',
      slug: 'pasta',
      timezone: TZ,
      ownerTelegramId: 6_100_000_000,
      server: 'main',
    });
    source = openStudioDatabase(studio, servers, dir);
    ({ sessions } = await seedStudio(source));
  }, 60_000);
  afterAll(async () => {
    await servers?.close();
    await store?.close();
    await main?.drop();
    await second?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('export → import into a fresh studio gives identical rows, and its sequences continue past them', async () => {
    const fresh = await createStudio(store, servers, dir, {
      name: 'Копия',
      slug: 'copy',
      timezone: TZ,
      ownerTelegramId: null,
    });
    const target = openStudioDatabase(fresh, servers, dir);
    const lines = await collect(exportStudio(source));
    expect(JSON.parse(lines[0])).toMatchObject({ dialect: 'postgres', version: LATEST_MIGRATION });
    // Timestamps as the app writes them, booleans as PostgreSQL gives them, bigints as numbers.
    const records = portable(lines).records;
    expect(records[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3,6}Z$/);
    expect(records.map((r) => r.telegram_id)).toEqual([6_000_000_000, 6_000_000_001, 6_000_000_002, 6_000_000_003]);
    expect(lines.some((l) => l.includes('"t":"records"') && l.includes('true'))).toBe(true);

    await importStudio(target, lines);
    expect(await archiveOf(target)).toEqual(comparable(lines));
    const maxRecord = Math.max(...records.map((r) => r.id as number));
    const next = await insertWorkshop(target.db, { title: 'Ньокки', price: 2500 });
    expect(next.id).toBe(2);
    const r = await createRecord(target, customerActor(6_200_000_000), bookingPayload(sessions[1]), {
      telegram_id: 6_200_000_000,
      telegram_login: null,
    });
    expect(r.record.id).toBe(maxRecord + 1);
    await dropStudioData(fresh, servers, dir);
    expect(await schemaOn('main', fresh.location)).toBe(false);
    await expect(dropStudioData({ server: 'main', location: '' }, servers, dir)).rejects.toThrow(/Refusing/);
  });

  it('a PostgreSQL archive imports into SQLite with the same values', async () => {
    const lite = path.join(dir, 'lite');
    const liteStore = await openPlatformStore({ databaseUrl: `sqlite:${lite}/app.db`, dataDir: lite });
    const liteServers = createServers({ main: `sqlite:${lite}/app.db` });
    try {
      const s = await createStudio(liteStore, liteServers, lite, {
        name: 'Lite',
        slug: 'lite',
        timezone: TZ,
        ownerTelegramId: null,
      });
      const target = openStudioDatabase(s, liteServers, lite);
      // Straight from the export (its transaction ends with the import: a later move waits for none).
      await importStudio(target, exportStudio(source));
      expect(portable(await collect(exportStudio(target)))).toEqual(portable(await collect(exportStudio(source))));
      await target.close();
    } finally {
      await liteServers.close();
      await liteStore.close();
    }
  });

  it('a failure mid-import leaves the studio on its source, active, its data as it was, no schema on the target', async () => {
    // A row the target's check refuses (people_count 1..8), where the source no longer checks it.
    const records = sql.id(studio.location, 'records');
    await sql`alter table ${records} drop constraint records_people_count_check`.execute(source.db);
    const [{ id }] = await source.db.selectFrom('records').select('id').orderBy('id', 'desc').limit(1).execute();
    await sql`update ${records} set people_count = 99 where id = ${id}`.execute(source.db);
    const before = await archiveOf(source);
    // A booking whose request saw the studio active and writes once the source is locked: it waits,
    // and goes through on the source when the move fails.
    let late: Promise<number> | undefined;
    const failed = await moveStudio(store, servers, dir, studio.id, 'b', {
      onArchiveLine: () => {
        late ??= lateBooking(6_300_000_000);
      },
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(MoveFailed);
    expect(String((failed as MoveFailed).message)).toMatch(/records_people_count_check/);
    expect(await row()).toMatchObject({ server: 'main', status: 'active' });
    expect(await schemaOn('b', studio.location)).toBe(false);
    const lateId = await late!;
    expect(
      await source.db.selectFrom('records').select('telegram_id').where('id', '=', lateId).executeTakeFirst(),
    ).toEqual({
      telegram_id: 6_300_000_000,
    });
    // Nothing changed on the source but what that booking wrote.
    const rowsOnly = (a: { rows: string[] }) => a.rows.filter((l) => !l.startsWith('{"end"'));
    const after = rowsOnly(await archiveOf(source));
    expect(rowsOnly(before).filter((l) => !after.includes(l))).toEqual([]);
    const added = after.filter((l) => !before.rows.includes(l));
    expect(added.map((l) => (JSON.parse(l) as { t: string }).t).sort()).toEqual([
      'audit_log',
      'notifications',
      'records',
    ]);
    expect(added.every((l) => l.includes('6300000000'))).toBe(true);
    await sql`update ${records} set people_count = 3 where id = ${id}`.execute(source.db);
    await sql`alter table ${records} add constraint records_people_count_check check (people_count between 1 and 8)`.execute(
      source.db,
    );
    // A schema already on the target is neither used nor dropped.
    await sql`create schema ${sql.id(studio.location)}`.execute(servers.get('b').db);
    await expect(moveStudio(store, servers, dir, studio.id, 'b')).rejects.toThrow(/already exists on b/);
    expect(await schemaOn('b', studio.location)).toBe(true);
    await sql`drop schema ${sql.id(studio.location)}`.execute(servers.get('b').db);
    expect(await row()).toMatchObject({ server: 'main', status: 'active' });
  });

  it('moves to server b while customers keep booking: none acknowledged is lost, every moved row is on b', async () => {
    const acknowledged: { id: number; telegramId: number; server: string }[] = [];
    const answers = { moving: 0, failed: [] as string[] };
    const closed: { slug: string; status: string }[] = [];
    let stop = false;
    let nextId = 7_000_000_000;
    // The host as the platform runs it: the studio's row on each request, 503 while it moves.
    const customer = async () => {
      while (!stop) {
        const s = await row();
        if (s.status === 'moving') {
          answers.moving++;
          expect(MOVING_ANSWER.status).toBe(503);
          await sleep(2);
          continue;
        }
        const telegramId = nextId++;
        try {
          const r = await createRecord(
            openStudioDatabase(s, servers, dir),
            customerActor(telegramId),
            bookingPayload(sessions[1]),
            { telegram_id: telegramId, telegram_login: null },
          );
          acknowledged.push({ id: r.record.id, telegramId, server: s.server });
        } catch (err) {
          answers.failed.push(err instanceof Error ? err.message : String(err));
        }
      }
    };
    const customers = [customer(), customer(), customer()];
    const moved: string[] = [];
    // A booking whose request saw the studio active and writes once the source is locked: it waits, then
    // fails (its tables are gone), so it is never acknowledged and lost.
    let late: Promise<unknown> | undefined;
    let result: Awaited<ReturnType<typeof moveStudio>>;
    try {
      await until(() => acknowledged.length >= 15);
      result = await moveStudio(store, servers, dir, studio.id, 'b', {
        closeLive: async (slug) => {
          closed.push({ slug, status: (await row()).status });
        },
        onArchiveLine: (line) => {
          moved.push(line);
          late ??= lateBooking(6_400_000_000).then(
            (id) => ({ acknowledged: id }),
            (err: unknown) => ({ failed: String(err) }),
          );
        },
      });
      const onB = acknowledged.length;
      await until(() => acknowledged.length >= onB + 10);
    } finally {
      stop = true;
      await Promise.all(customers);
    }

    console.log(
      `moved ${result.total} rows in ${result.frozenMs.toFixed(0)} ms frozen (in-flight wait ${result.lockMs.toFixed(0)} ms, copy ${result.copyMs.toFixed(0)} ms); ` +
        `${acknowledged.length} bookings acknowledged, ${answers.moving} answered 503, ${answers.failed.length} failed`,
    );
    expect(result).toMatchObject({ from: 'main', to: 'b', studio: { server: 'b', status: 'active' } });
    expect(result.leftover).toBeUndefined();
    expect(closed).toEqual([{ slug: 'pasta', status: 'moving' }]);
    expect(await row()).toMatchObject({ server: 'b', status: 'active' });
    expect(await schemaOn('main', studio.location)).toBe(false);
    expect(acknowledged.some((a) => a.server === 'main') && acknowledged.some((a) => a.server === 'b')).toBe(true);
    // What failed was never acknowledged: a booking that waited on the source's locks met its tables gone.
    for (const f of answers.failed) expect(f).toMatch(/does not exist|could not open relation/);
    expect(await late).toEqual({ failed: expect.stringMatching(/does not exist|could not open relation/) });

    const target = openStudioDatabase(await row(), servers, dir);
    const onTarget = await target.db.selectFrom('records').select(['id', 'telegram_id']).execute();
    const stored = new Map(onTarget.map((r) => [r.id, r.telegram_id]));
    for (const a of acknowledged)
      expect(stored.get(a.id), `booking ${a.id} acknowledged on ${a.server}`).toBe(a.telegramId);
    expect([...stored.values()]).not.toContain(6_400_000_000);
    // Every row moved is on b as it was; b has besides only what was booked there afterwards.
    const now = await collect(exportStudio(target));
    const present = new Set(now.slice(1, -1));
    expect(moved.slice(1, -1).filter((l) => !present.has(l))).toEqual([]);
    const header = JSON.parse(moved[0]) as ArchiveHeader;
    expect(result.rows).toEqual(Object.fromEntries(header.tables.map((t) => [t.name, t.rows])));
  });

  it('moves back to main with nothing running: every table identical, sequences included', async () => {
    const onB = openStudioDatabase(await row(), servers, dir);
    const before = await archiveOf(onB);
    const result = await moveStudio(store, servers, dir, studio.id, 'main');
    console.log(`moved back ${result.total} rows in ${result.frozenMs.toFixed(0)} ms frozen`);
    expect(await row()).toMatchObject({ server: 'main', status: 'active' });
    expect(await schemaOn('b', studio.location)).toBe(false);
    expect(await archiveOf(openStudioDatabase(await row(), servers, dir))).toEqual(before);
  });
});
