import type { BusinessSettings, RecordMoney, RecordSchedule } from '../../contract';
import type { Executor } from '../../db/database';
import {
  creditBalance,
  insertPayment,
  listPaymentsOfRecord,
  lockCredit,
  type PaymentInsert,
  type PaymentRow,
} from '../../db/repositories/payments';
import { getRecord, type RecordRow } from '../../db/repositories/records';
import { fiscalizePayment, forgetCreditAdvances, type FiscalContext } from '../fiscal/enqueue';
import type { Actor } from '../kernel/actor';
import type { MoneyEvent } from '../kernel/events';
import { getBusinessSettings } from '../kernel/settings';
import { moneyOf } from './price';

/*
 * The ledger's one writer: every row is appended here, with the booking's money before and after,
 * as an event that the publisher logs (and, when asked, tells). A correction is a new row. Each row's
 * fiscal receipts (core/fiscal) are written with it, in its transaction.
 */

type MoneySettings = Pick<BusinessSettings, 'prepayment' | 'deposit_percent'>;

/** A booking's money now, from its row and its ledger. */
export async function recordMoney(trx: Executor, r: RecordRow, s: MoneySettings): Promise<RecordMoney> {
  return moneyOf(r, await listPaymentsOfRecord(trx, r.id), s);
}

/** A row as its writer gives it: who wrote it is the actor's, the charge ids are null unless given. */
type RowFields = Omit<
  PaymentInsert,
  'recorded_by_kind' | 'recorded_by_user_id' | 'telegram_payment_charge_id' | 'provider_payment_charge_id'
> &
  Partial<Pick<PaymentInsert, 'telegram_payment_charge_id' | 'provider_payment_charge_id'>>;

/** The one insert of the ledger: every row below goes through here, with who wrote it, and its receipts. */
async function insertRow(trx: Executor, actor: Actor, row: RowFields, fiscal: FiscalContext = {}): Promise<PaymentRow> {
  const payment = await insertPayment(trx, {
    ...row,
    telegram_payment_charge_id: row.telegram_payment_charge_id ?? null,
    provider_payment_charge_id: row.provider_payment_charge_id ?? null,
    recorded_by_kind: actor.kind,
    recorded_by_user_id: actor.kind === 'staff' ? actor.user_id : null,
  });
  await fiscalizePayment(trx, payment, actor, fiscal);
  return payment;
}

/** The event of a row that belongs to no booking of today (credit, a gone booking, an owed refund). */
const bookinglessEvent = (
  actor: Actor,
  payment: PaymentRow,
  before: MoneyEvent['before'],
  after: MoneyEvent['after'],
): MoneyEvent => ({ type: 'money.recorded', actor, payment, record: null, schedule: null, before, after });

export interface Append {
  amount: number;
  method: PaymentInsert['method'];
  kind: PaymentInsert['kind'];
  note?: string | null;
  telegram_payment_charge_id?: string | null;
  provider_payment_charge_id?: string | null;
  /** What the receipts need to know beyond the row (a certificate spent, the day a transfer arrived). */
  fiscal?: FiscalContext;
}

/** Appends a row to a booking's ledger and returns its event (the booking's money before → after). */
export async function appendToRecord(
  trx: Executor,
  actor: Actor,
  r: RecordRow,
  schedule: RecordSchedule | null,
  s: MoneySettings,
  row: Append,
  tell?: MoneyEvent['tell'],
): Promise<MoneyEvent> {
  const before = await recordMoney(trx, r, s);
  if (row.method === 'credit' && r.telegram_id !== null) await lockCredit(trx, r.telegram_id);
  const { fiscal, ...fields } = row;
  const payment = await insertRow(
    trx,
    actor,
    { ...fields, record_id: r.id, telegram_id: r.telegram_id, note: row.note ?? null },
    fiscal,
  );
  const after = await recordMoney(trx, r, s);
  return {
    type: 'money.recorded',
    actor,
    payment,
    record: r,
    schedule,
    before: { amount_paid: before.amount_paid, status: before.status },
    after: { amount_paid: after.amount_paid, status: after.status },
    tell,
  };
}

/**
 * The money a gift certificate was sold for: a row of the studio's ledger that belongs to no booking
 * (`certificate_id`: the certificate it sells; without it, money kept for its payer).
 */
export const appendCertificateSale = (
  trx: Executor,
  actor: Actor,
  {
    certificate_id,
    ...sale
  }: {
    amount: number;
    method: 'cash' | 'card' | 'bank_transfer' | 'telegram';
    telegram_id: number | null;
    note: string;
    telegram_payment_charge_id?: string;
    provider_payment_charge_id?: string;
    certificate_id?: number;
  },
) =>
  insertRow(
    trx,
    actor,
    { ...sale, record_id: null, kind: 'payment' },
    certificate_id !== undefined ? { certificate_id } : {},
  );

/**
 * A Telegram charge whose booking no longer exists (its session was deleted after the customer passed
 * pre-checkout): the money is the studio's (a row of no booking, by its charge id) and at once the
 * payer's studio credit, so it is neither lost nor owed to nobody. Returns the credit's event.
 */
export async function appendUnbookedCharge(
  trx: Executor,
  actor: Actor,
  charge: {
    amount: number;
    telegram_id: number;
    note: string;
    telegram_payment_charge_id: string;
    provider_payment_charge_id: string;
  },
): Promise<MoneyEvent> {
  await lockCredit(trx, charge.telegram_id);
  const before = await creditBalance(trx, charge.telegram_id);
  const row = { record_id: null, telegram_id: charge.telegram_id, amount: charge.amount, note: charge.note };
  await insertRow(trx, actor, { ...charge, ...row, method: 'telegram', kind: 'payment' }, { to_credit: true });
  const payment = await insertRow(trx, actor, { ...row, method: 'credit', kind: 'refund' });
  return bookinglessEvent(
    actor,
    payment,
    { amount_paid: before, status: 'credit' },
    { amount_paid: before + charge.amount, status: 'credit' },
  );
}

/**
 * A row on the ledger of a booking that no longer exists (its session was deleted with money on it):
 * the row keeps the booking's number, so the money the gone booking held is settled on its own ledger.
 */
export async function appendToGoneRecord(
  trx: Executor,
  actor: Actor,
  gone: { record_id: number; telegram_id: number | null },
  row: Append,
): Promise<MoneyEvent> {
  if (row.method === 'credit' && gone.telegram_id !== null) await lockCredit(trx, gone.telegram_id);
  const { fiscal, ...fields } = row;
  const payment = await insertRow(trx, actor, { ...fields, ...gone, note: row.note ?? null }, fiscal);
  return bookinglessEvent(actor, payment, null, { amount_paid: row.amount, status: 'gone' });
}

/** A superuser's change of a customer's studio credit (signed), with the reason. */
export async function adjustCredit(
  trx: Executor,
  actor: Actor,
  telegramId: number,
  amount: number,
  note: string,
): Promise<MoneyEvent> {
  await lockCredit(trx, telegramId);
  const before = await creditBalance(trx, telegramId);
  const payment = await insertRow(trx, actor, {
    record_id: null,
    telegram_id: telegramId,
    amount,
    method: 'credit',
    kind: 'adjustment',
    note,
  });
  return bookinglessEvent(
    actor,
    payment,
    { amount_paid: before, status: 'credit' },
    { amount_paid: before + amount, status: 'credit' },
  );
}

/** The booking's money as a message tells it (from `ledger` when the caller has it whole). */
export async function moneySnapshot(trx: Executor, r: RecordRow, ledger?: PaymentRow[]) {
  return snapshotOf(r, ledger ?? (await listPaymentsOfRecord(trx, r.id)), await getBusinessSettings(trx));
}

/** The same from a ledger already read (a list of bookings reads all their ledgers at once). */
export function snapshotOf(r: RecordRow, ledger: PaymentRow[], s: MoneySettings) {
  const m = moneyOf(r, ledger, s);
  const toCredit = -ledger
    .filter((p) => p.kind === 'refund' && p.method === 'credit')
    .reduce((sum, p) => sum + p.amount, 0);
  return {
    price: m.price,
    amount_paid: m.amount_paid,
    balance: m.balance,
    status: m.status,
    required_now: m.required_now,
    pay_by: m.pay_by,
    paid_by_credit: m.paid_by_credit,
    to_credit: toCredit,
  };
}

/** A booking's money as committed (views read it after the command, so it includes what followed it). */
export async function moneyOfRecord(
  db: Executor,
  recordId: number,
  /** The settings, when the caller has read them already. */
  settings?: MoneySettings,
): Promise<RecordMoney | undefined> {
  const r = await getRecord(db, recordId);
  return r && recordMoney(db, r, settings ?? (await getBusinessSettings(db)));
}

/**
 * A customer who erases their data takes no credit with them: what they hold leaves their credit as a
 * row that names nobody (the money is then owed back). Null when they hold none.
 */
export async function appendErasedCredit(trx: Executor, actor: Actor, telegramId: number): Promise<PaymentRow | null> {
  await lockCredit(trx, telegramId);
  const balance = await creditBalance(trx, telegramId);
  if (balance <= 0) {
    await forgetCreditAdvances(trx, telegramId);
    return null;
  }
  return insertRow(
    trx,
    actor,
    {
      record_id: null,
      telegram_id: null,
      amount: -balance,
      method: 'credit',
      kind: 'adjustment',
      note: 'Клиент удалил свои данные: баланс в студии к возврату',
    },
    { erased_telegram_id: telegramId },
  );
}

/**
 * Staff paid back what an erased customer's credit left owed (owed_refunds): money out of the studio
 * that names nobody, as the credit's way out did (`owed_payment_id`: the row that took the credit).
 * Returns the row's event.
 */
export async function appendOwedRefundPayout(
  trx: Executor,
  actor: Actor,
  payout: { amount: number; method: 'cash' | 'card' | 'bank_transfer'; note: string; owed_payment_id: number },
): Promise<MoneyEvent> {
  const payment = await insertRow(
    trx,
    actor,
    {
      record_id: null,
      telegram_id: null,
      amount: -payout.amount,
      method: payout.method,
      kind: 'refund',
      note: payout.note,
    },
    { owed_payment_id: payout.owed_payment_id },
  );
  return bookinglessEvent(
    actor,
    payment,
    { amount_paid: payout.amount, status: 'refund_owed' },
    { amount_paid: 0, status: 'refunded' },
  );
}
