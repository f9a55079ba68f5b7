import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { migrateDown, migrateToLatest } from '../../db/migrate';
import { backupSqlite } from '../../db/backup';
import { seedDemo } from '../../db/seed-demo';
import { listOpenSchedules } from '../../db/repositories/schedules';
import { freshDatabaseUrl, isPostgres } from '../helpers/db';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function fresh(): Promise<Database> {
  const f = await freshDatabaseUrl();
  const database = createDb(f.url);
  cleanups.push(async () => {
    await database.close();
    await f.drop();
  });
  return database;
}

describe('migrations', () => {
  it('migrate up, down and up again on an empty database', async () => {
    const database = await fresh();
    await migrateToLatest(database.db);
    const tables = async () =>
      (await database.db.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith('kysely_'));
    expect(await tables()).toEqual(
      expect.arrayContaining(['users', 'workshops', 'addresses', 'schedules', 'records', 'settings', 'notifications']),
    );
    await migrateDown(database.db);
    expect(await tables()).toEqual([]);
    await migrateToLatest(database.db);
    await migrateToLatest(database.db); // idempotent
    expect((await tables()).length).toBeGreaterThanOrEqual(10);
  });

  it('enforces the rules in the schema too: no negative capacity, no unknown state, no orphan session', async () => {
    const database = await fresh();
    await migrateToLatest(database.db);
    const db = database.db;
    const w = await db
      .insertInto('workshops')
      .values({ title: 'W', description: null, price: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const a = await db
      .insertInto('addresses')
      .values({ title: 'A', map_link: 'm', description: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = {
      date: new Date().toISOString(),
      workshop_id: w.id,
      address_id: a.id,
      is_notified: 0,
      created_at: new Date().toISOString(),
    };
    await expect(
      db
        .insertInto('schedules')
        .values({ ...base, capacity: -1 })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('schedules')
        .values({ ...base, capacity: 1, workshop_id: 999 })
        .execute(),
    ).rejects.toThrow();
    const s = await db
      .insertInto('schedules')
      .values({ ...base, capacity: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(db.deleteFrom('workshops').where('id', '=', w.id).execute()).rejects.toThrow();
    const now = new Date().toISOString();
    const rec = {
      schedule_id: s.id,
      name: 'N',
      last_name: null,
      people_count: 1,
      telegram_login: null,
      telegram_id: null,
      comment: null,
      has_allergy: 0,
      allergy_type: null,
      source: null,
      is_first_time: 1,
      cancel_reason: null,
      queued_at: null,
      created_at: now,
      updated_at: now,
    };
    await expect(
      db
        .insertInto('records')
        .values({ ...rec, state: 'MAYBE' as 'ACTIVE' })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('records')
        .values({ ...rec, state: 'ACTIVE', people_count: 9 })
        .execute(),
    ).rejects.toThrow();
  });
});

describe.skipIf(isPostgres())('SQLite file', () => {
  it('runs in WAL mode with foreign keys and a busy timeout', async () => {
    const database = await fresh();
    const get = async (pragma: string) =>
      Object.values((await sql.raw(`pragma ${pragma}`).execute(database.db)).rows[0] as object)[0];
    expect(await get('journal_mode')).toBe('wal');
    expect(await get('foreign_keys')).toBe(1);
    expect(await get('busy_timeout')).toBe(5000);
  });

  it('backs up a consistent copy while the database is being written', async () => {
    const database = await fresh();
    await migrateToLatest(database.db);
    await seedDemo(database);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-backup-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    // Keep writing while the backup runs.
    let writing = true;
    const writer = (async () => {
      let i = 0;
      while (writing) {
        await database.db
          .insertInto('workshops')
          .values({ title: `W${i++}`, description: null, price: 1 })
          .execute();
        await new Promise((r) => setImmediate(r)); // let the backup's steps run between writes
      }
    })();
    const dest = await backupSqlite(database.file!, dir, new Date('2026-11-21T10:00:00Z'));
    writing = false;
    await writer;
    expect(path.basename(dest)).toBe('app-2026-11-21T10-00-00-000Z.db');
    const copy = new SQLite(dest, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((copy.prepare('select count(*) n from schedules').get() as { n: number }).n).toBe(7);
    copy.close();
  });
});

describe('demo data', () => {
  it('fills an empty database with upcoming sessions once', async () => {
    const database = await fresh();
    await migrateToLatest(database.db);
    expect(await seedDemo(database)).toEqual({ seeded: true, sessions: 7 });
    expect(await seedDemo(database)).toEqual({ seeded: false, sessions: 0 });
    const open = await listOpenSchedules(database.db, new Date().toISOString());
    expect(open).toHaveLength(7);
    expect(open[0].places_available).toBeGreaterThan(0);
  });
});
