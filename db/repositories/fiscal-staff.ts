import { sql } from 'kysely';
import { advisoryKey, type Dialect, type Executor } from '../database';
import type { FiscalReceiptRow } from './fiscal';

/* What staff read and type of fiscal receipts: a ledger's or a desk page's receipts, one receipt, a day's, a number typed by hand. */

/** Ledger methods that are real money (the rest, credit and certificates, spend what the studio holds already). */
export const REAL_MONEY_METHODS = ['cash', 'card', 'bank_transfer', 'telegram'] as const;

/**
 * Whether a receipt's `covers` (a JSON list of ledger ids, as JSON.stringify writes it) holds the ledger
 * row `paymentId` refers to: the list's numbers between commas, compared as text, the same on both databases.
 */
export const coversPayment = (covers: string, paymentId: string) =>
  sql<boolean>`(',' || replace(replace(${sql.ref(covers)}, '[', ''), ']', '') || ',') like ('%,' || cast(${sql.ref(paymentId)} as varchar(12)) || ',%')`;

/** The receipts of some ledger rows and of some bookings (a delivery's receipts name the rows they cover). */
export const listReceiptsOfPaymentsOrRecords = (db: Executor, paymentIds: number[], recordIds: number[]) =>
  paymentIds.length === 0 && recordIds.length === 0
    ? Promise.resolve([] as FiscalReceiptRow[])
    : db
        .selectFrom('fiscal_receipts')
        .selectAll()
        .where((eb) =>
          eb.or([
            ...(paymentIds.length > 0 ? [eb('payment_id', 'in', paymentIds)] : []),
            ...(recordIds.length > 0 ? [eb('record_id', 'in', recordIds)] : []),
          ]),
        )
        .orderBy('id')
        .execute();

/** One receipt with the customer and workshop of what it fiscalizes, as the ledger row or the booking names them now. */
export const getReceiptWithSubject = (db: Executor, id: number) =>
  db
    .selectFrom('fiscal_receipts as f')
    .leftJoin('payments as p', 'p.id', 'f.payment_id')
    .leftJoin('records as r', (j) => j.on(sql`r.id`, '=', sql`coalesce(f.record_id, p.record_id)`))
    .leftJoin('schedules as s', 's.id', 'r.schedule_id')
    .leftJoin('workshops as w', 'w.id', 's.workshop_id')
    .selectAll('f')
    .select([
      sql<
        string | null
      >`coalesce(case when r.last_name is null or r.last_name = '' then r.name else r.name || ' ' || r.last_name end, p.customer_name)`.as(
        'customer_name',
      ),
      sql<string | null>`coalesce(w.title, p.workshop_title)`.as('workshop_title'),
    ])
    .where('f.id', '=', id)
    .executeTakeFirst();

/** The receipt that already carries a PFR number, if any. */
export const receiptWithNumber = (db: Executor, invoiceNumber: string) =>
  db.selectFrom('fiscal_receipts').select('id').where('invoice_number', '=', invoiceNumber).executeTakeFirst();

/**
 * PostgreSQL: holds the typing of one PFR number until the transaction ends, so two receipts cannot be
 * given it at once (SQLite's BEGIN IMMEDIATE serialises every write already).
 */
export async function lockInvoiceNumber(db: Executor, dialect: Dialect, invoiceNumber: string): Promise<void> {
  if (dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(${advisoryKey(db, `fiscal-number:${invoiceNumber}`)})`.execute(db);
}

/** Manual mode: the number staff typed, on a receipt still waiting for one; undefined when it was not (typed already). */
export const setManualReceiptNumber = (
  db: Executor,
  id: number,
  values: { invoice_number: string; issued_by_user_id: number; issued_at: string },
) =>
  db
    .updateTable('fiscal_receipts')
    .set({ ...values, state: 'issued', total_amount: sql`amount`, last_error: null })
    .where('id', '=', id)
    .where('mode', '=', 'manual')
    .where('state', '=', 'waiting')
    .where('invoice_number', 'is', null)
    .returningAll()
    .executeTakeFirst();

/** The first print of an issued receipt; undefined when it was printed before (or is not issued). */
export const markReceiptPrinted = (db: Executor, id: number, at: string) =>
  db
    .updateTable('fiscal_receipts')
    .set({ printed_at: at })
    .where('id', '=', id)
    .where('state', '=', 'issued')
    .where('printed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();

/** A refund's buyer identification; the receipt waits for the sender (or, manual, for its number) again. */
export const setReceiptBuyer = (db: Executor, id: number, buyerId: string, now: string) =>
  db
    .updateTable('fiscal_receipts')
    .set({ buyer_id: buyerId, state: 'waiting', next_attempt_at: now, last_error: null })
    .where('id', '=', id)
    .where('state', '=', 'needs_buyer')
    .returningAll()
    .executeTakeFirst();

/** The receipts whose money moved in [from, to) (their ESIR time), oldest first. */
export const listReceiptsBetween = (db: Executor, from: string, to: string) =>
  db
    .selectFrom('fiscal_receipts')
    .selectAll()
    .where('esir_time', '>=', from)
    .where('esir_time', '<', to)
    .orderBy('esir_time')
    .orderBy('id')
    .execute();

/**
 * The real-money ledger rows whose money moved in [from, to): a row's own receipt's ESIR time (a bank
 * transfer seen a day late keeps its day), else the row's time; each with whether any receipt (its own,
 * the delivery's sale that took it at the door, or one that covers it) was written for it.
 */
export const listRealMoneyBetween = (db: Executor, from: string, to: string) =>
  db
    .selectFrom('payments as p')
    .leftJoin('fiscal_receipts as own', (j) =>
      // A movement's own receipt is kept by `payment:<ledger id>`: at most one.
      j.on('own.receipt_key', '=', sql<string>`'payment:' || cast(p.id as varchar(12))`),
    )
    .select(['p.id', 'p.record_id', 'p.amount', 'p.method', 'p.at'])
    .select((eb) => [
      sql<string>`coalesce(own.esir_time, p.at)`.as('moved_at'),
      eb
        .or([
          eb('own.id', 'is not', null),
          // Door money: the delivery's sale names it as its own row.
          eb.exists(eb.selectFrom('fiscal_receipts as d').select('d.id').where('d.payment_id', '=', eb.ref('p.id'))),
          eb.exists(
            eb
              .selectFrom('fiscal_receipts as f')
              .select('f.id')
              .where('f.record_id', '=', eb.ref('p.record_id'))
              .where(coversPayment('f.covers', 'p.id')),
          ),
        ])
        .as('has_receipt'),
      eb
        .exists(
          eb
            .selectFrom('certificate_entries as c')
            .select('c.id')
            .where('c.payment_id', '=', eb.ref('p.id'))
            .where('c.kind', '=', 'sale'),
        )
        .as('certificate_sale'),
    ])
    .where('p.method', 'in', REAL_MONEY_METHODS)
    .where(sql`coalesce(own.esir_time, p.at)`, '>=', from)
    .where(sql`coalesce(own.esir_time, p.at)`, '<', to)
    .orderBy('p.at')
    .orderBy('p.id')
    .execute();

/** Manual receipts still waiting for the number staff type from the studio's register. */
export async function countManualWaiting(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('fiscal_receipts')
    .select(sql<string | number>`count(*)`.as('n'))
    .where('mode', '=', 'manual')
    .where('state', '=', 'waiting')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
