import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { priceOf } from '../../contract/money';
import { createDb } from '../../db/database';
import { migrateToLatest, migrations } from '../../db/migrate';
import { insertAddress } from '../../db/repositories/addresses';
import { insertSchedule } from '../../db/repositories/schedules';
import { insertWorkshop } from '../../db/repositories/workshops';
import { freshDatabaseUrl } from '../helpers/db';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the per-person price override migration', () => {
  it('keeps every booking’s price: a total that divides by the party becomes per person, one that does not keeps its party', async () => {
    const f = await freshDatabaseUrl();
    const database = createDb(f.url);
    cleanups.push(async () => {
      await database.close();
      await f.drop();
    });
    const before = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => !name.endsWith('_price_override_per_person')),
    );
    const old = new Migrator({
      db: database.db,
      provider: { getMigrations: async () => before },
      allowUnorderedMigrations: true,
    });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    const db = database.db;
    const w = await insertWorkshop(db, { title: 'Пельмени', price: 3000 });
    const a = await insertAddress(db, { title: 'Студия', map_link: 'https://maps.example/1' });
    const s = await insertSchedule(db, {
      date: '2030-01-20T10:00:00.000Z',
      capacity: 20,
      workshop_id: w.id,
      address_id: a.id,
    });
    const booking = async (people: number, total: number | null) => {
      // Written as the schema of that moment has it (the app's insert names today's columns).
      const r = await db
        .insertInto('records')
        .values({
          schedule_id: s.id,
          state: 'ACTIVE',
          name: 'Анна',
          last_name: null,
          people_count: people,
          telegram_login: null,
          telegram_id: null,
          comment: null,
          has_allergy: 0,
          allergy_type: null,
          source: null,
          is_first_time: 0,
          cancel_reason: null,
          queued_at: null,
          created_at: '2030-01-01T10:00:00.000Z',
          updated_at: '2030-01-01T10:00:00.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.updateTable('records').set({ unit_price: 3000, price_override: total }).where('id', '=', r.id).execute();
      return r.id;
    };
    const ids = [await booking(2, 5000), await booking(3, 1000), await booking(2, null)];
    await migrateToLatest(db);
    const rows = await db.selectFrom('records').selectAll().where('id', 'in', ids).orderBy('id').execute();
    expect(rows.map((r) => [r.price_override, r.price_override_party, priceOf(r)])).toEqual([
      [2500, null, 5000],
      [1000, 3, 1000],
      [null, null, 6000],
    ]);
  });
});
