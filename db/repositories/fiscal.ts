import type { Insertable, Selectable } from 'kysely';
import { nowIso, type Executor } from '../database';
import type { FiscalReceiptsTable } from '../schema';

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
