import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../db/database';
import { migrateToLatest, migrations } from '../../db/migrate';
import { freshDatabaseUrl } from '../helpers/db';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the staff roles migration', () => {
  it('makes superusers owners and everyone else a manager', async () => {
    const f = await freshDatabaseUrl();
    const database = createDb(f.url);
    cleanups.push(async () => {
      await database.close();
      await f.drop();
    });
    // Every migration before the roles one, as a database of the previous version has them.
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => !name.endsWith('_staff_roles')));
    const old = new Migrator({
      db: database.db,
      provider: { getMigrations: async () => before },
      allowUnorderedMigrations: true,
    });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    const pg = database.dialect === 'postgres';
    const user = (email: string, superuser: boolean) =>
      database.db
        .insertInto('users')
        .values({
          email,
          hashed_password: 'x',
          full_name: null,
          is_active: (pg ? true : 1) as never,
          is_superuser: (pg ? superuser : superuser ? 1 : 0) as never,
          telegram_id: null,
          telegram_login: null,
          created_at: new Date().toISOString(),
        } as never)
        .execute();
    await user('boss@example.com', true);
    await user('staff@example.com', false);
    await migrateToLatest(database.db);
    const rows = await database.db.selectFrom('users').select(['email', 'role']).orderBy('email').execute();
    expect(rows).toEqual([
      { email: 'boss@example.com', role: 'owner' },
      { email: 'staff@example.com', role: 'manager' },
    ]);
  });
});
