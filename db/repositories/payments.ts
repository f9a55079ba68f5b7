import type { Insertable, Selectable } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import { advisoryKey, allColumns, nowIso, type Executor } from '../database';
import { prepared } from '../prepared';
import type { PaymentsTable } from '../schema';
import { namesOfBooking } from './payment-names';

export type PaymentRow = Selectable<PaymentsTable>;

/** A ledger row's columns in the table's order (the hottest statements name them: db/database.ts allColumns). */
const PAYMENT_COLUMNS = allColumns<PaymentsTable>()([
  'id',
  'record_id',
  'telegram_id',
  'amount',
  'method',
  'kind',
  'recorded_by_kind',
  'recorded_by_user_id',
  'telegram_payment_charge_id',
  'provider_payment_charge_id',
  'note',
  'at',
  'customer_name',
  'workshop_title',
  'session_date',
]);
export type PaymentInsert = Omit<Insertable<PaymentsTable>, 'id' | 'at'>;

/** Appends one ledger row (the ledger is never updated), named with its booking's customer and session as they are now. */
export const insertPayment = async (db: Executor, row: PaymentInsert) =>
  db
    .insertInto('payments')
    .values({ ...(await namesOfBooking(db, row.record_id)), ...row, at: nowIso() })
    .returning(PAYMENT_COLUMNS)
    .executeTakeFirstOrThrow();

/** A booking's ledger, oldest first. */
export const listPaymentsOfRecord = (db: Executor, recordId: number): Promise<PaymentRow[]> =>
  paymentsOfRecord(db, recordId);

const paymentsOfRecord = prepared((db: Executor, recordId: number) =>
  db.selectFrom('payments').select(PAYMENT_COLUMNS).where('record_id', '=', recordId).orderBy('id'),
);

/** The ledgers of several bookings at once (booking tables). */
export const listPaymentsOfRecords = (db: Executor, recordIds: number[]) =>
  recordIds.length === 0
    ? Promise.resolve([] as PaymentRow[])
    : db.selectFrom('payments').selectAll().where('record_id', 'in', recordIds).orderBy('id').execute();

export const findPaymentByCharge = (db: Executor, chargeId: string) =>
  db.selectFrom('payments').selectAll().where('telegram_payment_charge_id', '=', chargeId).executeTakeFirst();

/**
 * A customer's studio credit: the credit rows of their bookings move it the other way from the
 * booking (spent on a booking: +amount there, −amount here), adjustments (no booking) move it directly.
 */
export async function creditBalance(db: Executor, telegramId: number): Promise<number> {
  const [row] = await balanceOfCredit(db, telegramId);
  return Number(row?.balance ?? 0);
}

const balanceOfCredit = prepared((db: Executor, telegramId: number) =>
  db
    .selectFrom('payments')
    .select(sql<string | number | null>`sum(case when record_id is null then amount else -amount end)`.as('balance'))
    .where('telegram_id', '=', telegramId)
    .where('method', '=', 'credit'),
);

/** Every customer's credit together. */
export async function creditOutstanding(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select(sql<string | number | null>`sum(case when record_id is null then amount else -amount end)`.as('balance'))
    .where('method', '=', 'credit')
    .where('telegram_id', 'is not', null)
    .executeTakeFirst();
  return Number(row?.balance ?? 0);
}

/** Per booking: what was received and returned, for bookings whose ledger is not settled at zero. */
export const ledgerSumsByRecord = (db: Executor) =>
  db
    .selectFrom('payments')
    .select(['record_id', sql<string | number>`sum(amount)`.as('paid')])
    .where('record_id', 'is not', null)
    .groupBy('record_id')
    .execute();

export const listRecordsByIds = (db: Executor, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('records').selectAll().where('id', 'in', ids).execute();

/** Active bookings whose seat hold has run out at `now`. */
export const listExpiredHolds = (db: Executor, now: string) =>
  db
    .selectFrom('records')
    .select(['id', 'schedule_id'])
    .where('state', '=', 'ACTIVE')
    .where('pay_by', 'is not', null)
    .where('pay_by', '<=', now)
    .orderBy('pay_by')
    .execute();

/** Bookings still waiting in the queue of a session that has started. */
export const listQueuedOfStartedSessions = (db: Executor, now: string) =>
  db
    .selectFrom('records')
    .innerJoin('schedules', 'schedules.id', 'records.schedule_id')
    .select(['records.id', 'records.schedule_id'])
    .where('records.state', '=', 'QUEUED')
    .where('schedules.date', '<=', now)
    .orderBy('records.id')
    .execute();

export const setPayBy = (db: Executor, recordId: number, payBy: string | null) =>
  db.updateTable('records').set({ pay_by: payBy }).where('id', '=', recordId).returningAll().executeTakeFirstOrThrow();

/** Fixes a new booking's price per person. */
export const setUnitPrice = (db: Executor, recordId: number, price: number) =>
  db
    .updateTable('records')
    .set({ unit_price: price })
    .where('id', '=', recordId)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Staff's price per person (null: back to the fixed price); it replaces an older total override. */
export const setPriceOverride = (db: Executor, recordId: number, price: number | null, reason: string | null) =>
  db
    .updateTable('records')
    .set({ price_override: price, price_override_party: null, price_override_reason: reason, updated_at: nowIso() })
    .where('id', '=', recordId)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Erasure: the ledger keeps amounts, dates and methods for the books, never whose they were. */
export const forgetPaymentsOf = (db: Executor, telegramId: number) =>
  db.updateTable('payments').set({ telegram_id: null, note: null }).where('telegram_id', '=', telegramId).execute();

/**
 * Serialises changes of one customer's studio credit (PostgreSQL: a transaction advisory lock of its
 * own, taken last, so it never waits in a circle with the customer and session locks; SQLite's write
 * transaction serialises already).
 */
export async function lockCredit(db: Executor, telegramId: number): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(${advisoryKey(db, `credit:${telegramId}`)})`.execute(db);
}

/**
 * Money received minus money returned in [from, to); credit and gift certificates spend money already
 * held (a certificate's sale is the money received), so their rows on bookings are left out.
 */
export async function netReceived(db: Executor, from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('net'))
    .where('at', '>=', from)
    .where('at', '<', to)
    .where('method', 'not in', ['credit', 'certificate'])
    .executeTakeFirst();
  return Number(row?.net ?? 0);
}

/** A booking's price in SQL over `records as r`, as priceOf computes it. */
export const recordPriceSql = sql<number>`(case when r.price_override is null then r.unit_price * r.people_count - r.discount when r.price_override_party is null then r.price_override * r.people_count else round(r.price_override * r.people_count * 1.0 / r.price_override_party) end)`;

/** What ACTIVE bookings of sessions dated in [from, to) still owe: each one's price less what it paid, if more. */
export async function moneyDue(db: Executor, from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .select((eb) => {
      // The subquery is built, not written, so it names the studio's schema like the rest.
      const paid = eb
        .selectFrom('payments as p')
        .select((e) => e.fn.sum('p.amount').as('s'))
        .whereRef('p.record_id', '=', 'r.id');
      const owed = sql`${recordPriceSql} - coalesce((${paid}), 0)`;
      return sql<number | string | null>`sum(case when ${owed} > 0 then ${owed} else 0 end)`.as('due');
    })
    .where('r.state', '=', 'ACTIVE')
    .where('s.date', '>=', from)
    .where('s.date', '<', to)
    .executeTakeFirst();
  return Number(row?.due ?? 0);
}
