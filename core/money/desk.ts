import type {
  CashDesk,
  CashDeskRow,
  CreditAdjustment,
  PaymentCreate,
  PaymentMethod,
  PaymentPublic,
  PriceOverride,
  RecordLedger,
  RefundCreate,
} from '../../contract';
import { PAYMENT_KIND_LABELS, PAYMENT_METHOD_LABELS } from '../../contract/money';
import { formatDateTime } from '../../contract/format';
import type { Database, Executor } from '../../db/database';
import {
  creditBalance,
  creditOutstanding,
  ledgerSumsByRecord,
  listPaymentsBetween,
  listPaymentsOfRecord,
  listRecordsByIds,
  setPayBy,
  setPriceOverride,
  type PaymentRow,
} from '../../db/repositories/payments';
import { type RecordRow } from '../../db/repositories/records';
import { certificateSumsBetween, certificatesOutstanding } from '../../db/repositories/certificates';
import { promoCodeName } from '../../db/repositories/promo-codes';
import { assertStaff, type Actor } from '../kernel/actor';
import { Conflict } from '../kernel/errors';
import { assertHostMayTake } from '../staff/roles';
import { loadForActor, onRecord, type OnRecord } from '../booking/command';
import { adjustCredit, appendToRecord, recordMoney } from './ledger';
import { withLocks } from '../../db/lock';
import { publish } from '../notify/publish';
import { moneyOf, priceOf } from './price';

/*
 * The studio's side of money: a booking's ledger, payments taken at the desk, refunds made, a price
 * set by hand, and the cash desk (what came in and went out, what is owed back, the credit held).
 * Every write runs under the booking's session lock and refuses what would overpay: two staff
 * recording the same cash at once get one row and one 409.
 */

export const DESK_MSG = {
  paidAlready: 'Запись уже оплачена полностью',
  aboveBalance: (balance: number) => `Сумма больше остатка к оплате (${balance} дин.): проверьте, не внесена ли оплата`,
  nothingToRefund: 'Возвращать нечего',
  aboveRefundable: (paid: number) => `Вернуть можно не больше оплаченного (${paid} дин.)`,
  noCustomer: 'Запись сделана не из Telegram: вернуть на депозит клиента нельзя',
  creditShort: (balance: number) => `На депозите клиента только ${balance} дин.`,
} as const;

export const toPaymentPublic = (p: PaymentRow): PaymentPublic => ({
  id: p.id,
  record_id: p.record_id,
  amount: p.amount,
  method: p.method,
  kind: p.kind,
  recorded_by_kind: p.recorded_by_kind,
  recorded_by_user_id: p.recorded_by_user_id,
  telegram_payment_charge_id: p.telegram_payment_charge_id,
  provider_payment_charge_id: p.provider_payment_charge_id,
  note: p.note,
  at: p.at,
});

async function ledgerOf(trx: Executor, c: Pick<OnRecord, 'record' | 'settings'>): Promise<RecordLedger> {
  const rows = await listPaymentsOfRecord(trx, c.record.id);
  return {
    money: moneyOf(c.record, rows, c.settings),
    payments: rows.map(toPaymentPublic),
    promo_code: await promoCodeName(trx, c.record.promo_code_id),
  };
}

/** A booking's money and its ledger (staff). */
export async function viewLedger(db: Executor, actor: Actor, recordId: number): Promise<RecordLedger> {
  assertStaff(actor);
  return ledgerOf(db, await loadForActor(db, actor, recordId));
}

/** Money taken at the studio (cash, card) or a transfer that arrived; by default the whole balance. */
export function recordDeskPayment(
  database: Database,
  actor: Actor,
  recordId: number,
  input: PaymentCreate,
): Promise<RecordLedger> {
  assertStaff(actor);
  assertHostMayTake(actor, input.method);
  return onRecord(database, actor, recordId, async (c) => {
    const { trx, settings } = c;
    const m = await recordMoney(trx, c.record, settings);
    if (m.balance <= 0) throw new Conflict(DESK_MSG.paidAlready);
    const amount = input.amount ?? m.balance;
    if (amount > m.balance) throw new Conflict(DESK_MSG.aboveBalance(m.balance));
    const event = await appendToRecord(trx, actor, c.record, c.schedule, settings, {
      amount,
      method: input.method,
      kind: 'payment',
      note: input.note ?? null,
    });
    let record: RecordRow = c.record;
    // Paid enough: the seat hold is over.
    if (record.pay_by !== null && m.amount_paid + amount >= m.required_now)
      record = await setPayBy(trx, record.id, null);
    return { value: await ledgerOf(trx, { record, settings }), events: [event] };
  });
}

/** A refund staff made (cash, card, transfer, in the payment provider's dashboard) or moved to the customer's credit. */
export function recordRefund(
  database: Database,
  actor: Actor,
  recordId: number,
  input: RefundCreate,
): Promise<RecordLedger> {
  assertStaff(actor);
  return onRecord(database, actor, recordId, async (c) => {
    const { trx, settings, record } = c;
    const m = await recordMoney(trx, record, settings);
    const amount = input.amount ?? Math.max(0, -m.balance);
    if (amount <= 0 || m.amount_paid <= 0) throw new Conflict(DESK_MSG.nothingToRefund);
    if (amount > m.amount_paid) throw new Conflict(DESK_MSG.aboveRefundable(m.amount_paid));
    if (input.method === 'credit' && record.telegram_id === null) throw new Conflict(DESK_MSG.noCustomer);
    const event = await appendToRecord(trx, actor, record, c.schedule, settings, {
      amount: -amount,
      method: input.method,
      kind: 'refund',
      note: input.note ?? null,
    });
    return { value: await ledgerOf(trx, c), events: [event] };
  });
}

/** Staff set the booking's total instead of unit price × people (null: back to the fixed price), with a reason. */
export function overridePrice(
  database: Database,
  actor: Actor,
  recordId: number,
  input: PriceOverride,
): Promise<RecordLedger> {
  assertStaff(actor);
  return onRecord(database, actor, recordId, async (c) => {
    const { trx, record: before } = c;
    const record = await setPriceOverride(trx, before.id, input.price, input.price === null ? null : input.reason);
    return {
      value: await ledgerOf(trx, { ...c, record }),
      events: [
        {
          type: 'entity.updated',
          actor,
          entity: 'record',
          entity_id: record.id,
          before: { price: priceOf(before), price_override: before.price_override },
          after: { price: priceOf(record), price_override: record.price_override, reason: input.reason },
        },
      ],
    };
  });
}

/** A superuser adds to or takes from a customer's studio credit, with the reason (logged, never below zero). */
export async function adjustCustomerCredit(
  database: Database,
  actor: Actor,
  telegramId: number,
  input: CreditAdjustment,
): Promise<{ balance: number }> {
  assertStaff(actor, 'owner');
  return withLocks(database, { telegramIds: [telegramId] }, async (trx) => {
    const event = await adjustCredit(trx, actor, telegramId, input.amount, input.reason);
    const balance = event.after!.amount_paid;
    if (balance < 0) throw new Conflict(DESK_MSG.creditShort(event.before!.amount_paid));
    await publish(trx, [event]);
    return { balance };
  });
}

/** A Telegram customer's studio credit. */
export const customerCredit = async (db: Executor, telegramId: number) => ({
  balance: await creditBalance(db, telegramId),
});

/** What bookings owe their customers back: paid beyond what each costs now (a deleted booking costs nothing). */
async function refundsOwed(db: Executor): Promise<number> {
  const sums = (await ledgerSumsByRecord(db)).filter((s) => Number(s.paid) > 0);
  if (sums.length === 0) return 0;
  const ids = sums.map((s) => s.record_id!);
  const records = new Map<number, RecordRow>();
  for (let i = 0; i < ids.length; i += 500)
    for (const r of await listRecordsByIds(db, ids.slice(i, i + 500))) records.set(r.id, r);
  return sums.reduce((owed, s) => {
    const r = records.get(s.record_id!);
    const due = !r || r.state === 'CANCELLED' ? 0 : priceOf(r);
    return owed + Math.max(0, Number(s.paid) - due);
  }, 0);
}

/**
 * Gift certificates at the desk: sold, spent and written off in the range, and what they hold now. A
 * places certificate counts in RSD as sold (what was paid) and redeemed (what its places covered); its
 * places held and written off are counted apart.
 */
async function certificatesDesk(
  db: Executor,
  range: { from?: string; to?: string },
): Promise<CashDesk['certificates']> {
  const { amount: sums, places } = await certificateSumsBetween(db, range);
  const outstanding = await certificatesOutstanding(db, new Date().toISOString());
  return {
    sold: sums.sale ?? 0,
    redeemed: -((sums.redemption ?? 0) + (sums.return ?? 0)),
    expired: -(sums.expiry ?? 0),
    voided: -(sums.void ?? 0),
    outstanding: outstanding.amount,
    outstanding_places: outstanding.places,
    expired_places: -(places.expiry ?? 0),
    voided_places: -(places.void ?? 0),
  };
}

/** The cash desk over a time range: every ledger row, the net per method, received and refunded, owed and held. */
export async function cashDesk(
  db: Executor,
  range: { from?: string; to?: string; method?: PaymentMethod },
): Promise<CashDesk> {
  const rows = await listPaymentsBetween(db, range);
  const totals: Record<string, number> = {};
  let received = 0;
  let refunded = 0;
  for (const p of rows) {
    totals[p.method] = (totals[p.method] ?? 0) + p.amount;
    // Credit and gift certificates spend money the studio already holds: neither received nor paid out.
    if (p.method === 'credit' || p.method === 'certificate') continue;
    if (p.amount > 0) received += p.amount;
    else refunded -= p.amount;
  }
  const payments: CashDeskRow[] = rows.map((p) => ({
    ...toPaymentPublic(p),
    workshop_title: p.workshop_title ?? null,
    schedule_date: p.schedule_date ?? null,
  }));
  return {
    totals,
    received,
    refunded,
    refunds_owed: await refundsOwed(db),
    credit_outstanding: await creditOutstanding(db),
    certificates: await certificatesDesk(db, range),
    payments,
  };
}

export const CASH_DESK_COLUMNS = [
  'Когда',
  'Запись',
  'Мастер-класс',
  'Дата занятия',
  'Операция',
  'Способ',
  'Сумма, дин.',
  'Внёс',
  'Платёж Telegram',
  'Платёж провайдера',
  'Комментарий',
] as const;

const BY = { staff: 'Сотрудник', customer: 'Клиент', system: 'Система' } as const;

export const cashDeskCells = (p: CashDeskRow, timeZone: string) => [
  formatDateTime(p.at, timeZone),
  p.record_id,
  p.workshop_title,
  p.schedule_date ? formatDateTime(p.schedule_date, timeZone) : null,
  PAYMENT_KIND_LABELS[p.kind],
  PAYMENT_METHOD_LABELS[p.method],
  p.amount,
  p.recorded_by_kind === 'staff' && p.recorded_by_user_id !== null
    ? `${BY.staff} #${p.recorded_by_user_id}`
    : BY[p.recorded_by_kind],
  p.telegram_payment_charge_id,
  p.provider_payment_charge_id,
  p.note,
];
