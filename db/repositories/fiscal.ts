import type { Insertable, Selectable, Updateable } from 'kysely';
import { flag, nowIso, type Dialect, type Executor } from '../database';
import type { FiscalHealthTable, FiscalReceiptsTable } from '../schema';

export type FiscalReceiptRow = Selectable<FiscalReceiptsTable>;
export type FiscalReceiptInsert = Omit<Insertable<FiscalReceiptsTable>, 'id' | 'created_at' | 'state' | 'attempts'> & {
  state?: FiscalReceiptsTable['state'];
};

/** Writes a receipt to the fiscal outbox once by its key; the row when new, undefined when it was written before. */
export const insertFiscalReceipt = (db: Executor, row: FiscalReceiptInsert) =>
  db
    .insertInto('fiscal_receipts')
    .values({ state: 'waiting', attempts: 0, ...row, created_at: nowIso() })
    .onConflict((oc) => oc.column('receipt_key').doNothing())
    .returningAll()
    .executeTakeFirst();

export const getFiscalReceipt = (db: Executor, id: number) =>
  db.selectFrom('fiscal_receipts').selectAll().where('id', '=', id).executeTakeFirst();

export const getFiscalReceiptByKey = (db: Executor, key: string) =>
  db.selectFrom('fiscal_receipts').selectAll().where('receipt_key', '=', key).executeTakeFirst();

/** A booking's receipts (its payments' and its delivery's), oldest first. */
export const listFiscalReceiptsOfRecord = (db: Executor, recordId: number) =>
  db.selectFrom('fiscal_receipts').selectAll().where('record_id', '=', recordId).orderBy('id').execute();

/** The receipts of some ledger rows (a booking's ledger, a page of Касса). */
export const listFiscalReceiptsOfPayments = (db: Executor, paymentIds: number[]) =>
  paymentIds.length === 0
    ? Promise.resolve([] as FiscalReceiptRow[])
    : db.selectFrom('fiscal_receipts').selectAll().where('payment_id', 'in', paymentIds).orderBy('id').execute();

/* ---------- the sender: claims, leases and outcomes ---------- */

/**
 * Rows the sender may take at `now`: waiting for the PFR, due, not leased by a live claim, and (a refund,
 * a delivery's sale) not before the receipt they refer to is issued.
 */
const dueRows = (db: Executor, now: string) =>
  db
    .selectFrom('fiscal_receipts as f')
    .select('f.id')
    .where('f.state', '=', 'waiting')
    .where('f.mode', '=', 'lpfr')
    .where('f.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('f.locked_until', 'is', null), eb('f.locked_until', '<=', now)]))
    .where((eb) =>
      eb.or([
        eb('f.referent_receipt_id', 'is', null),
        eb.exists(
          eb
            .selectFrom('fiscal_receipts as r')
            .select('r.id')
            .whereRef('r.id', '=', 'f.referent_receipt_id')
            .where('r.state', '=', 'issued'),
        ),
      ]),
    );

/** Whether any row is due and free: a plain read, so an idle sender takes no write lock to find out. */
export async function anyDueFiscalReceipt(db: Executor, now: string): Promise<boolean> {
  return (await dueRows(db, now).limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Leases the first due row (in id order) to `worker` until `leaseUntil`. PostgreSQL: the candidate is
 * locked with SKIP LOCKED, so two instances claiming at once take different rows; SQLite: call it in a
 * write transaction (BEGIN IMMEDIATE serialises the claims).
 */
export async function claimDueFiscalReceipt(
  db: Executor,
  dialect: Dialect,
  opts: { now: string; leaseUntil: string; worker: string },
): Promise<FiscalReceiptRow | undefined> {
  const candidate = dueRows(db, opts.now).orderBy('f.id').limit(1);
  return (
    db
      .updateTable('fiscal_receipts')
      .set({ claimed_by: opts.worker, locked_until: opts.leaseUntil })
      // A scalar subquery runs once; with `in`, PostgreSQL may run it again per row and lease several rows.
      .where('id', '=', dialect === 'postgres' ? candidate.forUpdate().skipLocked() : candidate)
      // Checked again on the row itself: a row finished or claimed by another worker meanwhile is not taken.
      .where('state', '=', 'waiting')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', opts.now)]))
      .returningAll()
      .executeTakeFirst()
  );
}

/** Extends `worker`'s lease of a row it still holds; false when it no longer does. */
export async function extendFiscalClaim(db: Executor, id: number, worker: string, until: string): Promise<boolean> {
  const r = await db
    .updateTable('fiscal_receipts')
    .set({ locked_until: until })
    .where('id', '=', id)
    .where('claimed_by', '=', worker)
    .where('state', '=', 'waiting')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Written before each `POST /invoices`: counts the attempt (so whoever sends next looks the request up
 * first), freezes the body at the first attempt (`request` is kept when one is stored) and renews the
 * lease for the send. Only while `worker`'s lease is live; undefined otherwise (then it must not send).
 */
export const startFiscalAttempt = (
  db: Executor,
  id: number,
  opts: { worker: string; now: string; leaseUntil: string; request: string },
) =>
  db
    .updateTable('fiscal_receipts')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      request: eb.fn.coalesce('request', eb.val(opts.request)),
      locked_until: opts.leaseUntil,
    }))
    .where('id', '=', id)
    .where('claimed_by', '=', opts.worker)
    .where('state', '=', 'waiting')
    .where('locked_until', '>', opts.now)
    .returningAll()
    .executeTakeFirst();

/** The PFR's answer, kept on a waiting row (by whichever worker got it: the answer is the truth); undefined when it was issued before. */
export const markFiscalIssued = (
  db: Executor,
  id: number,
  answer: Pick<
    FiscalReceiptRow,
    | 'invoice_number'
    | 'invoice_counter'
    | 'sdc_time'
    | 'verification_url'
    | 'verification_qr'
    | 'journal'
    | 'total_amount'
    | 'issued_at'
  >,
) =>
  db
    .updateTable('fiscal_receipts')
    .set({ ...answer, state: 'issued', claimed_by: null, locked_until: null, last_error: null })
    .where('id', '=', id)
    .where('state', '=', 'waiting')
    .returningAll()
    .executeTakeFirst();

/** Gives `worker`'s claim back, due again at `nextAttemptAt` (unchanged when omitted), with the error that delayed it. */
export async function releaseFiscalClaim(
  db: Executor,
  id: number,
  worker: string,
  opts: { nextAttemptAt?: string; error?: string | null } = {},
): Promise<void> {
  await db
    .updateTable('fiscal_receipts')
    .set({
      claimed_by: null,
      locked_until: null,
      ...(opts.nextAttemptAt !== undefined && { next_attempt_at: opts.nextAttemptAt }),
      ...(opts.error !== undefined && { last_error: opts.error }),
    })
    .where('id', '=', id)
    .where('claimed_by', '=', worker)
    .where('state', '=', 'waiting')
    .execute();
}

/** The PFR refused the request: the row leaves the queue for staff. The row when it was waiting (so its alert is written once). */
export const markFiscalRefused = (db: Executor, id: number, error: string) =>
  db
    .updateTable('fiscal_receipts')
    .set({ state: 'refused', last_error: error, claimed_by: null, locked_until: null })
    .where('id', '=', id)
    .where('state', '=', 'waiting')
    .returningAll()
    .executeTakeFirst();

/** The PFR's receipts (mode lpfr) waiting, waiting for a buyer's ID, refused, and the oldest waiting one's creation. */
export async function fiscalQueueCounts(
  db: Executor,
): Promise<{ waiting: number; needs_buyer: number; refused: number; oldest_waiting_at: string | null }> {
  const row = await db
    .selectFrom('fiscal_receipts')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('state', '=', 'waiting').then(1).else(0).end()).as('waiting'),
      eb.fn.sum<number>(eb.case().when('state', '=', 'needs_buyer').then(1).else(0).end()).as('needs_buyer'),
      eb.fn.sum<number>(eb.case().when('state', '=', 'refused').then(1).else(0).end()).as('refused'),
      eb.fn.min<string>(eb.case().when('state', '=', 'waiting').then(eb.ref('created_at')).end()).as('oldest'),
    ])
    .where('mode', '=', 'lpfr')
    .executeTakeFirstOrThrow();
  return {
    waiting: Number(row.waiting ?? 0),
    needs_buyer: Number(row.needs_buyer ?? 0),
    refused: Number(row.refused ?? 0),
    oldest_waiting_at: row.oldest ?? null,
  };
}

/* ---------- the PFR's health, as the sender saw it last ---------- */

export type FiscalHealthRow = Selectable<FiscalHealthTable>;

/** The one health row; `forUpdate` (PostgreSQL, in a transaction) holds it while an outage's alert is decided. */
export async function getFiscalHealthRow(db: Executor, opts: { forUpdate?: boolean } = {}): Promise<FiscalHealthRow> {
  const q = db.selectFrom('fiscal_health').selectAll().where('id', '=', 1);
  return (opts.forUpdate ? q.forUpdate() : q).executeTakeFirstOrThrow();
}

export async function updateFiscalHealth(db: Executor, values: Updateable<FiscalHealthTable>): Promise<void> {
  await db
    .updateTable('fiscal_health')
    .set({ ...values, updated_at: nowIso() })
    .where('id', '=', 1)
    .execute();
}

/**
 * Takes the turn to enter the configured PIN: true for one caller at a time (none again within
 * `notBefore`), and none at all once the PFR refused it in this outage.
 */
export async function takeFiscalPinTurn(db: Executor, now: string, notBefore: string): Promise<boolean> {
  const r = await db
    .updateTable('fiscal_health')
    .set({ pin_attempt_at: now })
    .where('id', '=', 1)
    .where('pin_refused', '=', flag(false))
    .where((eb) => eb.or([eb('pin_attempt_at', 'is', null), eb('pin_attempt_at', '<=', notBefore)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
