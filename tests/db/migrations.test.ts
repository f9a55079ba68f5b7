import fs from 'node:fs';
import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { migrateToLatest, migrations } from '../../db/migrate';
import type { DB } from '../../db/schema';
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

/** The order the first migrations were committed in (git history), which is not the order of their names. */
const early = [
  '20261121_0001_initial',
  '20261122_0400_business_settings',
  '20261122_0300_audit_log',
  '20261122_0301_attendance',
  '20261122_0100_sessions_and_login_failures',
  '20261122_0500_personal_data',
  '20261122_0200_outbox_claims',
  '20261122_0401_customer_journey',
  '20261122_0302_list_indexes',
];
/** Every later one is named by the time it was written. */
const written = [
  ...early,
  ...Object.keys(migrations)
    .filter((name) => !early.includes(name))
    .sort(),
];

/** Tables and their columns (in name order: a column added later comes last), to compare two schemas. */
async function schemaOf(db: Kysely<DB>) {
  const tables = await db.introspection.getTables();
  return tables
    .filter((t) => !t.name.startsWith('kysely_'))
    .map(
      (t) =>
        `${t.name}(${t.columns
          .map((c) => `${c.name} ${c.dataType}${c.isNullable ? '' : ' not null'}`)
          .sort()
          .join(', ')})`,
    )
    .sort();
}

const executed = async (db: Kysely<DB>) =>
  (
    await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute()
  ).map((r) => (r as { name: string }).name);

describe('migrations', () => {
  it('every file in db/migrations is registered, under its own name, named by the time it was written', () => {
    const dir = path.join(import.meta.dirname, '../../db/migrations');
    const files = fs.readdirSync(dir).map((f) => f.replace(/\.ts$/, ''));
    expect(Object.keys(migrations).sort()).toEqual(files.sort());
    for (const name of files) expect(name).toMatch(/^\d{8}_\d{4}_[a-z0-9_]+$/);
    expect(files.filter((f) => early.includes(f)).sort()).toEqual([...early].sort());
  });

  it.runIf(isPostgres())('instances started together on a new database migrate it once, without an error', async () => {
    const f = await freshDatabaseUrl();
    const instances = [createDb(f.url), createDb(f.url), createDb(f.url)];
    cleanups.push(async () => {
      for (const d of instances) await d.close();
      await f.drop();
    });
    await Promise.all(instances.map((d) => migrateToLatest(d.db)));
    expect((await executed(instances[0].db)).sort()).toEqual(Object.keys(migrations).sort());
  });

  it('a database migrated at any earlier commit migrates at the head, to the same schema as a fresh one', async () => {
    const head = await fresh();
    await migrateToLatest(head.db);
    const expected = await schemaOf(head.db);

    // Each earlier commit's migrator knew only the files written by then, and ran them in name order.
    for (let n = 2; n < written.length; n++) {
      const old = await fresh();
      const subset = Object.fromEntries(written.slice(0, n).map((name) => [name, migrations[name]]));
      const { error } = await new Migrator({
        db: old.db,
        provider: { getMigrations: async () => subset },
      }).migrateToLatest();
      expect(error).toBeUndefined();
      expect((await executed(old.db)).sort()).toEqual(written.slice(0, n).sort());

      await migrateToLatest(old.db);
      expect((await executed(old.db)).sort(), `after ${written[n - 1]}`).toEqual([...written].sort());
      expect(await schemaOf(old.db), `after ${written[n - 1]}`).toEqual(expected);
    }
    // A database per migration, each migrated to the head: on PostgreSQL ~30 s on a busy machine.
  }, 120_000);
});
