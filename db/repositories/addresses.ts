import type { AddressCreate, AddressPublic, AddressUpdate } from '../../contract';
import type { Executor } from '../database';

const columns = ['id', 'title', 'map_link', 'description', 'latitude', 'longitude'] as const;

export async function listAddresses(db: Executor, skip: number, limit: number) {
  const [data, total] = await Promise.all([
    db.selectFrom('addresses').select(columns).orderBy('id').offset(skip).limit(limit).execute(),
    db
      .selectFrom('addresses')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { data: data as AddressPublic[], count: Number(total.n) };
}

export const getAddress = (db: Executor, id: number): Promise<AddressPublic | undefined> =>
  db.selectFrom('addresses').select(columns).where('id', '=', id).executeTakeFirst();

export const insertAddress = (db: Executor, a: AddressCreate): Promise<AddressPublic> =>
  db
    .insertInto('addresses')
    .values({
      title: a.title,
      map_link: a.map_link,
      description: a.description ?? null,
      latitude: a.latitude ?? null,
      longitude: a.longitude ?? null,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();

export async function updateAddress(
  db: Executor,
  id: number,
  patch: AddressUpdate,
): Promise<AddressPublic | undefined> {
  if (Object.keys(patch).length === 0) return getAddress(db, id);
  return db.updateTable('addresses').set(patch).where('id', '=', id).returning(columns).executeTakeFirst();
}

export const deleteAddress = (db: Executor, id: number) =>
  db.deleteFrom('addresses').where('id', '=', id).executeTakeFirst();

export const countSchedulesOfAddress = async (db: Executor, id: number) =>
  Number(
    (
      await db
        .selectFrom('schedules')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('address_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );
