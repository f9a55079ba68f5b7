import { prepared } from '../prepared';
import type { ExpressionBuilder } from 'kysely';
import { bool, flag, nowIso, type Executor } from '../database';
import type { DB } from '../schema';
import type { FiscalReceiptRow } from './fiscal';

/*
 * The customer's side of fiscal receipts: whose a receipt is, their consent to receive receipts in
 * Telegram, the receipts a booking page lists, and a refund's buyer ID (asked once, given, erased).
 */

/* ---------- whose a receipt is ---------- */

/**
 * The Telegram customer a receipt is for: its booking's owner, else its certificate's buyer, else the
 * customer whose studio credit its ledger row moved; null when nobody in Telegram is known.
 */
export async function receiptCustomer(
  db: Executor,
  r: Pick<FiscalReceiptRow, 'record_id' | 'certificate_id' | 'payment_id'>,
): Promise<number | null> {
  const id = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  if (r.record_id !== null) {
    const row = await db.selectFrom('records').select('telegram_id').where('id', '=', r.record_id).executeTakeFirst();
    return id(row?.telegram_id);
  }
  if (r.certificate_id !== null) {
    const row = await db
      .selectFrom('certificates')
      .select('buyer_telegram_id')
      .where('id', '=', r.certificate_id)
      .executeTakeFirst();
    return id(row?.buyer_telegram_id);
  }
  if (r.payment_id !== null) {
    const row = await db.selectFrom('payments').select('telegram_id').where('id', '=', r.payment_id).executeTakeFirst();
    return id(row?.telegram_id);
  }
  return null;
}

/** Receipts that are this customer's, as receiptCustomer decides it (for a query over many). */
const ofCustomer = (telegramId: number) => (eb: ExpressionBuilder<DB, 'fiscal_receipts'>) =>
  eb.or([
    eb.exists(
      eb
        .selectFrom('records as rr')
        .select('rr.id')
        .whereRef('rr.id', '=', 'fiscal_receipts.record_id')
        .where('rr.telegram_id', '=', telegramId),
    ),
    eb.and([
      eb('fiscal_receipts.record_id', 'is', null),
      eb.exists(
        eb
          .selectFrom('certificates as rc')
          .select('rc.id')
          .whereRef('rc.id', '=', 'fiscal_receipts.certificate_id')
          .where('rc.buyer_telegram_id', '=', telegramId),
      ),
    ]),
    eb.and([
      eb('fiscal_receipts.record_id', 'is', null),
      eb('fiscal_receipts.certificate_id', 'is', null),
      eb.exists(
        eb
          .selectFrom('payments as rp')
          .select('rp.id')
          .whereRef('rp.id', '=', 'fiscal_receipts.payment_id')
          .where('rp.telegram_id', '=', telegramId),
      ),
    ]),
  ]);

/* ---------- consent to receipts in Telegram ---------- */

export type ReceiptConsent = { given: boolean | null; asked_at: string; answered_at: string | null };

export async function getReceiptConsent(db: Executor, telegramId: number): Promise<ReceiptConsent | undefined> {
  const row = await db
    .selectFrom('customer_consents')
    .select(['given', 'asked_at', 'answered_at'])
    .where('telegram_id', '=', telegramId)
    .where('kind', '=', 'e_receipts')
    .executeTakeFirst();
  return (
    row && { given: row.given === null ? null : bool(row.given), asked_at: row.asked_at, answered_at: row.answered_at }
  );
}

/** Records that the question was asked (at `askedAt`); false when it had been asked before (by anyone, anywhere). */
export async function insertReceiptConsentAsked(db: Executor, telegramId: number, askedAt: string): Promise<boolean> {
  const row = await db
    .insertInto('customer_consents')
    .values({ telegram_id: telegramId, kind: 'e_receipts', given: null, asked_at: askedAt, answered_at: null })
    .onConflict((oc) => oc.columns(['telegram_id', 'kind']).doNothing())
    .returning('telegram_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The customer's answer (also a change of mind later); asked now when they answer unasked. */
export async function upsertReceiptConsent(db: Executor, telegramId: number, given: boolean): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('customer_consents')
    .values({ telegram_id: telegramId, kind: 'e_receipts', given: flag(given), asked_at: now, answered_at: now })
    .onConflict((oc) => oc.columns(['telegram_id', 'kind']).doUpdateSet({ given: flag(given), answered_at: now }))
    .execute();
}

export const deleteConsentsOf = (db: Executor, telegramId: number) =>
  db.deleteFrom('customer_consents').where('telegram_id', '=', telegramId).execute();

/* ---------- the receipts a customer sees ---------- */

/** A booking's issued receipts, oldest first, training receipts left out (every booking page reads them). */
export const listShownReceiptsOfRecord = prepared((db: Executor, recordId: number) =>
  db
    .selectFrom('fiscal_receipts')
    .select([
      'id',
      'invoice_number',
      'invoice_type',
      'transaction_type',
      'amount',
      'total_amount',
      'issued_at',
      'verification_url',
    ])
    .where('record_id', '=', recordId)
    .where('state', '=', 'issued')
    .where('training', '=', flag(false))
    .where('invoice_number', 'is not', null)
    .orderBy('id'),
);

/** The customer's issued receipts since `since` (the consent question's time), oldest first. */
export const listIssuedReceiptsOfCustomerSince = (db: Executor, telegramId: number, since: string) =>
  db
    .selectFrom('fiscal_receipts')
    .selectAll()
    .where('state', '=', 'issued')
    .where('training', '=', flag(false))
    .where('issued_at', '>=', since)
    .where(ofCustomer(telegramId))
    .orderBy('issued_at')
    .orderBy('id')
    .execute();

/* ---------- a refund's buyer ID ---------- */

/** Refund receipts waiting for a buyer ID that were never asked about, oldest first. */
export const listBuyerAskCandidates = (db: Executor, limit: number) =>
  db
    .selectFrom('fiscal_receipts')
    .selectAll()
    .where('state', '=', 'needs_buyer')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('fiscal_buyer_asks as a')
            .select('a.receipt_id')
            .whereRef('a.receipt_id', '=', 'fiscal_receipts.id'),
        ),
      ),
    )
    .orderBy('id')
    .limit(limit)
    .execute();

/** The booking a receipt is for, as a question names it: the workshop (in each language) and its date. */
export const receiptBooking = (db: Executor, recordId: number) =>
  db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .select(['w.title', 'w.title_en', 'w.title_sr', 's.date'])
    .where('r.id', '=', recordId)
    .executeTakeFirst();

/** Marks a receipt as asked about (or as having nobody to ask); false when it was marked before. */
export async function insertBuyerAsk(db: Executor, receiptId: number, asked: boolean): Promise<boolean> {
  const row = await db
    .insertInto('fiscal_buyer_asks')
    .values({ receipt_id: receiptId, asked: flag(asked), at: nowIso() })
    .onConflict((oc) => oc.column('receipt_id').doNothing())
    .returning('receipt_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores the buyer's ID on a receipt still waiting for it and sends it on its way; false when it no longer waits. */
export async function setReceiptBuyer(db: Executor, receiptId: number, buyerId: string): Promise<boolean> {
  const r = await db
    .updateTable('fiscal_receipts')
    .set({ buyer_id: buyerId, state: 'waiting', next_attempt_at: nowIso(), last_error: null })
    .where('id', '=', receiptId)
    .where('state', '=', 'needs_buyer')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A masked copy of a text: every occurrence of the document number replaced by asterisks. */
const maskIn = (text: string | null, number: string) =>
  text === null || number === '' ? text : text.split(number).join('*'.repeat(number.length));

/**
 * Erases the buyer's document number from the receipts of these bookings and of this customer: the ID
 * column, and its copies in the frozen request and the PFR's journal. A receipt not issued yet goes back
 * to waiting for a buyer ID (staff type it) with its request cleared; its RequestId stays, so a request
 * the PFR already took is answered again rather than issued twice.
 */
export async function eraseReceiptBuyers(
  db: Executor,
  who: { recordIds: number[]; telegramId: number | null },
): Promise<number> {
  if (who.recordIds.length === 0 && who.telegramId === null) return 0;
  const rows = await db
    .selectFrom('fiscal_receipts')
    .select(['id', 'buyer_id', 'state', 'request', 'journal'])
    .where('buyer_id', 'is not', null)
    .where((eb) =>
      eb.or([
        ...(who.recordIds.length > 0 ? [eb('record_id', 'in', who.recordIds)] : []),
        ...(who.telegramId !== null ? [ofCustomer(who.telegramId)(eb)] : []),
      ]),
    )
    .execute();
  for (const r of rows) {
    const number = r.buyer_id!.slice(r.buyer_id!.indexOf(':') + 1);
    const issued = r.state === 'issued' || r.state === 'refused';
    await db
      .updateTable('fiscal_receipts')
      .set({
        buyer_id: null,
        journal: maskIn(r.journal, number),
        request: issued ? maskIn(r.request, number) : null,
        ...(issued ? {} : { state: 'needs_buyer' as const }),
      })
      .where('id', '=', r.id)
      .execute();
  }
  return rows.length;
}
