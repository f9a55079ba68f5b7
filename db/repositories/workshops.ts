import {
  DEFAULT_DURATION_MINUTES,
  type WorkshopCreate,
  type WorkshopPublic,
  type WorkshopUpdate,
} from '../../contract';
import type { Executor } from '../database';

const columns = [
  'id',
  'title',
  'description',
  'title_en',
  'title_sr',
  'description_en',
  'description_sr',
  'price',
  'duration_minutes',
  'min_people',
] as const;

/** A translation left empty is none. */
const translations = (w: WorkshopUpdate) =>
  Object.fromEntries(
    (['title_en', 'title_sr', 'description_en', 'description_sr'] as const)
      .filter((k) => w[k] !== undefined)
      .map((k) => [k, w[k]?.trim() ? w[k] : null]),
  );

export async function listWorkshops(db: Executor, skip: number, limit: number) {
  const [data, total] = await Promise.all([
    db.selectFrom('workshops').select(columns).orderBy('id', 'desc').offset(skip).limit(limit).execute(),
    db
      .selectFrom('workshops')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { data: data as WorkshopPublic[], count: Number(total.n) };
}

export const getWorkshop = (db: Executor, id: number): Promise<WorkshopPublic | undefined> =>
  db.selectFrom('workshops').select(columns).where('id', '=', id).executeTakeFirst();

export const insertWorkshop = (
  db: Executor,
  w: Omit<WorkshopCreate, 'duration_minutes' | 'min_people'> & { duration_minutes?: number; min_people?: number },
): Promise<WorkshopPublic> =>
  db
    .insertInto('workshops')
    .values({
      title: w.title,
      description: w.description ?? null,
      price: w.price,
      duration_minutes: w.duration_minutes ?? DEFAULT_DURATION_MINUTES,
      min_people: w.min_people ?? 0,
      ...translations(w),
    })
    .returning(columns)
    .executeTakeFirstOrThrow();

export async function updateWorkshop(
  db: Executor,
  id: number,
  patch: WorkshopUpdate,
): Promise<WorkshopPublic | undefined> {
  if (Object.keys(patch).length === 0) return getWorkshop(db, id);
  return db
    .updateTable('workshops')
    .set({ ...patch, ...translations(patch) })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

export const deleteWorkshop = (db: Executor, id: number) =>
  db.deleteFrom('workshops').where('id', '=', id).executeTakeFirst();

export const countSchedulesOfWorkshop = async (db: Executor, id: number) =>
  Number(
    (
      await db
        .selectFrom('schedules')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workshop_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );
