import { PostgresAdapter, type Selectable } from 'kysely';
import type { PromoCodePublic, PromoKind } from '../../contract';
import { toZonedInput } from '../../contract/format';
import { bool, flag, nowIso, type Executor } from '../database';
import { recordPriceSql } from './payments';
import type { PromoCodesTable } from '../schema';

export type PromoCodeRow = Selectable<PromoCodesTable>;

/** A promo code's fields as core writes them. */
export interface PromoCodeFields {
  code: string;
  kind: PromoKind;
  value: number;
  starts_at: string | null;
  ends_at: string | null;
  max_uses: number | null;
  once_per_customer: boolean;
  first_time_only: boolean;
  is_active: boolean;
}

const isPg = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A booking holds a use of its code unless it is cancelled. */
const holdsUse = 'CANCELLED';

export async function workshopIdsOf(db: Executor, promoCodeId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('promo_code_workshops')
    .select('workshop_id')
    .where('promo_code_id', '=', promoCodeId)
    .orderBy('workshop_id')
    .execute();
  return rows.map((r) => r.workshop_id);
}

/** Bookings holding a use of the code now (redeemed by one Telegram customer when given), leaving one booking out. */
export async function countUses(
  db: Executor,
  promoCodeId: number,
  by: { telegramId?: number; exceptRecordId?: number } = {},
): Promise<number> {
  let q = db
    .selectFrom('records')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('promo_code_id', '=', promoCodeId)
    .where('state', '!=', holdsUse);
  if (by.telegramId !== undefined) q = q.where('promo_telegram_id', '=', by.telegramId);
  if (by.exceptRecordId !== undefined) q = q.where('id', '!=', by.exceptRecordId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * Whether the Telegram customer has any booking that is not cancelled, or redeemed a code on one since
 * given to a friend (a first-timer has neither).
 */
export async function hasBooked(db: Executor, telegramId: number, exceptRecordId?: number): Promise<boolean> {
  let q = db
    .selectFrom('records')
    .select('id')
    .where((eb) => eb.or([eb('telegram_id', '=', telegramId), eb('promo_telegram_id', '=', telegramId)]))
    .where('state', '!=', holdsUse);
  if (exceptRecordId !== undefined) q = q.where('id', '!=', exceptRecordId);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

/**
 * The code's row by its spelling (already normalised); `lock`: inside a write transaction, so that uses
 * are counted by one booking at a time (PostgreSQL: FOR UPDATE on the row, taken after the customer's and
 * the session's locks; SQLite's BEGIN IMMEDIATE holds everything already).
 */
export function findPromoCode(db: Executor, code: string, lock = false): Promise<PromoCodeRow | undefined> {
  const q = db.selectFrom('promo_codes').selectAll().where('code', '=', code);
  return (lock && isPg(db) ? q.forUpdate() : q).executeTakeFirst();
}

export function getPromoCodeRow(db: Executor, id: number, lock = false): Promise<PromoCodeRow | undefined> {
  const q = db.selectFrom('promo_codes').selectAll().where('id', '=', id);
  return (lock && isPg(db) ? q.forUpdate() : q).executeTakeFirst();
}

/** A code as the owner sees it; its bounds as the studio's days (the last day included). */
function toPublic(row: PromoCodeRow, workshopIds: number[], uses: number, timeZone: string): PromoCodePublic {
  const day = (at: string | null, plusDays: number) =>
    at && toZonedInput(new Date(new Date(at).getTime() + plusDays * 3_600_000), timeZone).slice(0, 10);
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    value: row.value,
    valid_from: day(row.starts_at, 0),
    // ends_at is the midnight after the last day: an hour before it is that day, whatever the DST.
    valid_to: day(row.ends_at, -1),
    workshop_ids: workshopIds,
    max_uses: row.max_uses,
    once_per_customer: bool(row.once_per_customer),
    first_time_only: bool(row.first_time_only),
    is_active: bool(row.is_active),
    uses,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export async function getPromoCode(db: Executor, id: number, timeZone: string): Promise<PromoCodePublic | undefined> {
  const row = await getPromoCodeRow(db, id);
  return row && toPublic(row, await workshopIdsOf(db, id), await countUses(db, id), timeZone);
}

/** Every code, newest first, with its workshops and uses (a studio has dozens, not thousands). */
export async function listPromoCodes(db: Executor, timeZone: string): Promise<PromoCodePublic[]> {
  const rows = await db.selectFrom('promo_codes').selectAll().orderBy('id', 'desc').execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const links = await db
    .selectFrom('promo_code_workshops')
    .select(['promo_code_id', 'workshop_id'])
    .where('promo_code_id', 'in', ids)
    .orderBy('workshop_id')
    .execute();
  const uses = await db
    .selectFrom('records')
    .select(['promo_code_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('promo_code_id', 'in', ids)
    .where('state', '!=', holdsUse)
    .groupBy('promo_code_id')
    .execute();
  const usesOf = new Map(uses.map((u) => [u.promo_code_id, Number(u.n)]));
  return rows.map((r) =>
    toPublic(
      r,
      links.filter((l) => l.promo_code_id === r.id).map((l) => l.workshop_id),
      usesOf.get(r.id) ?? 0,
      timeZone,
    ),
  );
}

const flags = (f: Partial<PromoCodeFields>) => ({
  ...(f.once_per_customer !== undefined && { once_per_customer: flag(f.once_per_customer) }),
  ...(f.first_time_only !== undefined && { first_time_only: flag(f.first_time_only) }),
  ...(f.is_active !== undefined && { is_active: flag(f.is_active) }),
});

export async function insertPromoCode(db: Executor, f: PromoCodeFields): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('promo_codes')
    .values({
      code: f.code,
      kind: f.kind,
      value: f.value,
      starts_at: f.starts_at,
      ends_at: f.ends_at,
      max_uses: f.max_uses,
      once_per_customer: flag(f.once_per_customer),
      first_time_only: flag(f.first_time_only),
      is_active: flag(f.is_active),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePromoCode(db: Executor, id: number, f: Partial<PromoCodeFields>): Promise<void> {
  const { once_per_customer: _o, first_time_only: _f, is_active: _a, ...plain } = f;
  await db
    .updateTable('promo_codes')
    .set({ ...plain, ...flags(f), updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

export async function setPromoWorkshops(db: Executor, id: number, workshopIds: number[]): Promise<void> {
  await db.deleteFrom('promo_code_workshops').where('promo_code_id', '=', id).execute();
  const unique = [...new Set(workshopIds)];
  if (unique.length > 0)
    await db
      .insertInto('promo_code_workshops')
      .values(unique.map((workshop_id) => ({ promo_code_id: id, workshop_id })))
      .execute();
}

/** The workshops among `ids` that exist. */
export async function existingWorkshops(db: Executor, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('workshops').select('id').where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

/**
 * Per code, the bookings of sessions dated in [from, to) made with it that are not cancelled: how many,
 * the people, what they cost after the discount (unless staff set a price) and the discounts given.
 */
export async function promoCodeFigures(db: Executor, from: string, to: string) {
  const rows = await db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .innerJoin('promo_codes as p', 'p.id', 'r.promo_code_id')
    .select((eb) => [
      'p.id as promo_code_id',
      'p.code as code',
      eb.fn.countAll<number | string>().as('bookings'),
      eb.fn.sum<number | string>('r.people_count').as('people'),
      eb.fn.sum<number | string>(recordPriceSql).as('revenue'),
      eb.fn.sum<number | string>('r.discount').as('discount'),
    ])
    .where('r.state', '!=', holdsUse)
    .where('s.date', '>=', from)
    .where('s.date', '<', to)
    .where('s.cancelled_at', 'is', null)
    .groupBy(['p.id', 'p.code'])
    .orderBy('p.code')
    .execute();
  return rows.map((r) => ({
    promo_code_id: r.promo_code_id,
    code: r.code,
    bookings: Number(r.bookings),
    people: Number(r.people),
    revenue: Number(r.revenue),
    discount: Number(r.discount),
  }));
}

/** The code a booking was made with (null: none). */
export async function promoCodeName(db: Executor, id: number | null): Promise<string | null> {
  if (id === null) return null;
  return (await db.selectFrom('promo_codes').select('code').where('id', '=', id).executeTakeFirst())?.code ?? null;
}
