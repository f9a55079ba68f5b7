import { sql, type Insertable } from 'kysely';
import { nowIso, type Executor } from '../database';
import type { FiscalAdvancesTable } from '../schema';

/* Where each advance receipt's money is now (core/fiscal/enqueue.ts moves it), and the reads the mapping needs. */

export type AdvanceHolder = { holder: FiscalAdvancesTable['holder']; holder_id: number };

/** A part of one advance a holder still has. */
export interface OpenAdvance {
  advance_id: number;
  payment_type: string;
  /** The certificate the advance was a sale of (null: a booking's, or credit's). */
  certificate_id: number | null;
  amount: number;
}

/** The advances a holder holds a part of, oldest advance first. */
export async function openAdvances(db: Executor, h: AdvanceHolder): Promise<OpenAdvance[]> {
  const rows = await db
    .selectFrom('fiscal_advances as a')
    .innerJoin('fiscal_receipts as f', 'f.id', 'a.advance_id')
    .select(['a.advance_id', 'a.payment_type', 'f.certificate_id', sql<number | string>`sum(a.amount)`.as('amount')])
    .where('a.holder', '=', h.holder)
    .where('a.holder_id', '=', h.holder_id)
    .groupBy(['a.advance_id', 'a.payment_type', 'f.certificate_id'])
    .having(sql`sum(a.amount)`, '>', 0)
    .orderBy('a.advance_id')
    .execute();
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

export type AdvancePart = Omit<Insertable<FiscalAdvancesTable>, 'id' | 'created_at'>;

export async function insertAdvanceParts(db: Executor, parts: AdvancePart[]): Promise<void> {
  if (parts.length === 0) return;
  const at = nowIso();
  await db
    .insertInto('fiscal_advances')
    .values(parts.map((p) => ({ ...p, created_at: at })))
    .execute();
}

/** Every part a holder has or had becomes another holder's (an erased customer's credit: their id leaves the table). */
export const reassignAdvances = (db: Executor, from: AdvanceHolder, to: AdvanceHolder) =>
  db
    .updateTable('fiscal_advances')
    .set({ holder: to.holder, holder_id: to.holder_id })
    .where('holder', '=', from.holder)
    .where('holder_id', '=', from.holder_id)
    .execute();

/** The parts a receipt closed or paid back (a delivery's advance refund, a refund of an advance). */
export const advancesTakenBy = (db: Executor, receiptId: number) =>
  db.selectFrom('fiscal_advances').selectAll().where('receipt_id', '=', receiptId).orderBy('id').execute();

/** A booking's latest Advance Sale receipt: the next advance for it names it (the chain of advances). */
export const latestAdvanceOfRecord = (db: Executor, recordId: number) =>
  db
    .selectFrom('fiscal_receipts')
    .selectAll()
    .where('record_id', '=', recordId)
    .where('kind', '=', 'advance')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/**
 * The buyer's identification the customer gave on an earlier receipt (of this booking, or of another
 * booking of the same Telegram customer): a refund or an advance's closing names the same person.
 */
export async function knownBuyerId(
  db: Executor,
  recordId: number | null,
  telegramId: number | null,
): Promise<string | null> {
  if (recordId === null && telegramId === null) return null;
  const row = await db
    .selectFrom('fiscal_receipts as f')
    .leftJoin('records as r', 'r.id', 'f.record_id')
    .select('f.buyer_id')
    .where('f.buyer_id', 'is not', null)
    .where((eb) =>
      eb.or([
        ...(recordId !== null ? [eb('f.record_id', '=', recordId)] : []),
        ...(telegramId !== null ? [eb('r.telegram_id', '=', telegramId)] : []),
      ]),
    )
    .orderBy('f.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.buyer_id ?? null;
}

/**
 * Bookings the delivery job settles: ACTIVE and not marked absent, of sessions that started in
 * [since, now], with money on their ledger and no delivery sale yet.
 */
export const listUndelivered = (db: Executor, since: string, now: string) =>
  db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .select(['r.id', 's.date'])
    .where('r.state', '=', 'ACTIVE')
    .where((eb) => eb.or([eb('r.attendance', 'is', null), eb('r.attendance', '!=', 'NO_SHOW')]))
    .where('s.date', '>=', since)
    .where('s.date', '<=', now)
    .where((eb) => eb.exists(eb.selectFrom('payments as p').select('p.id').whereRef('p.record_id', '=', 'r.id')))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('fiscal_receipts as f')
            .select('f.id')
            .where('f.receipt_key', '=', sql<string>`'sale:' || cast(r.id as varchar(12))`),
        ),
      ),
    )
    .orderBy('s.date')
    .orderBy('r.id')
    .execute();

/** One ledger row (a receipt's own). */
export const getLedgerRow = (db: Executor, id: number) =>
  db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
