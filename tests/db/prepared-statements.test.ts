import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { prepared } from '../../db/prepared';
import { freshDatabaseUrl } from '../helpers/db';

// Statements are prepared once (SQLite: per connection; PostgreSQL: named, per connection). What a
// migration run by another instance changes must not break the ones already prepared.
const opened: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of opened.reverse()) await close();
});

async function twoInstances(): Promise<[Database, Database]> {
  const fresh = await freshDatabaseUrl();
  const a = createDb(fresh.url);
  const b = createDb(fresh.url);
  await migrateToLatest(a.db);
  opened.push(async () => {
    await a.close();
    await b.close();
    await fresh.drop();
  });
  return [a, b];
}

const addresses = (d: Database) => d.db.selectFrom('addresses').selectAll().orderBy('id').execute();
const titles = (d: Database) => d.db.selectFrom('addresses').select(['id', 'title']).orderBy('id').execute();

describe('statements prepared once', () => {
  it('keep answering, with the new column, after another instance added one', async () => {
    const [a, b] = await twoInstances();
    await a.db.insertInto('addresses').values({ title: 'Студия', map_link: 'https://m' }).execute();
    // Run each a few times: PostgreSQL plans a prepared statement for good after five runs.
    for (let i = 0; i < 6; i++) {
      expect(await addresses(a)).toHaveLength(1);
      expect(await titles(a)).toEqual([{ id: 1, title: 'Студия' }]);
    }
    await sql`alter table addresses add column floor integer`.execute(b.db);
    await b.db.insertInto('addresses').values({ title: 'Второй зал', map_link: 'https://m2' }).execute();
    const rows = await addresses(a);
    expect(rows.map((r) => r.title)).toEqual(['Студия', 'Второй зал']);
    expect(rows[0]).toHaveProperty('floor', null);
    expect(await titles(a)).toEqual([
      { id: 1, title: 'Студия' },
      { id: 2, title: 'Второй зал' },
    ]);
    // The same inside a transaction.
    await a.db.transaction().execute(async (trx) => {
      expect(await trx.selectFrom('addresses').selectAll().execute()).toHaveLength(2);
      expect(await trx.selectFrom('addresses').select('title').where('id', '=', 2).execute()).toEqual([
        { title: 'Второй зал' },
      ]);
    });
  });

  it('run with each call’s own values, many at once', async () => {
    const [a] = await twoInstances();
    await a.db
      .insertInto('addresses')
      .values(Array.from({ length: 40 }, (_, i) => ({ title: `Адрес ${i}`, map_link: `https://m/${i}` })))
      .execute();
    const got = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        a.db.selectFrom('addresses').select('title').where('map_link', '=', `https://m/${i}`).executeTakeFirst(),
      ),
    );
    expect(got.map((r) => r?.title)).toEqual(Array.from({ length: 40 }, (_, i) => `Адрес ${i}`));
  });

  it('built once: each call runs with its own values, and a value the SQL would not take as one is refused', async () => {
    const [a] = await twoInstances();
    await a.db
      .insertInto('addresses')
      .values([
        { title: 'Первый', map_link: 'https://m/1', description: 'этаж 1' },
        { title: 'Второй', map_link: 'https://m/2', description: null },
      ])
      .execute();
    const byLink = prepared((db: typeof a.db, link: string, title: string) =>
      db.selectFrom('addresses').select('description').where('map_link', '=', link).where('title', '=', title),
    );
    expect(await byLink(a.db, 'https://m/1', 'Первый')).toEqual([{ description: 'этаж 1' }]);
    expect(await byLink(a.db, 'https://m/2', 'Второй')).toEqual([{ description: null }]);
    expect(await byLink(a.db, 'https://m/2', 'Первый')).toEqual([]);
    // A value tested while building would make the SQL depend on it: refused, not run with the wrong SQL.
    const tested = prepared((db: typeof a.db, title: string | null) =>
      title === null
        ? db.selectFrom('addresses').select('id').where('description', 'is', null)
        : db.selectFrom('addresses').select('id').where('title', '=', 'Первый'),
    );
    await expect(tested(a.db, 'Первый')).rejects.toThrow('is not a parameter');
  });
});
