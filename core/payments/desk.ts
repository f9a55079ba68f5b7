import type { CreditAdjustment, PaymentCreate, PriceOverride, RecordLedger, RefundCreate } from '../../contract';
import type { Database, Executor } from '../../db/database';
import { creditBalance, listPaymentsOfRecord, setPayBy, setPriceOverride } from '../../db/repositories/payments';
import { type RecordRow } from '../../db/repositories/records';
import { promoCodeName } from '../../db/repositories/promo-codes';
import { ledgerAllowed } from '../booking/staff-allowed';
import { assertCan, type Actor } from '../kernel/actor';
import { Conflict, type RefusalRef } from '../kernel/errors';
import type { DomainEvent } from '../kernel/events';
import { assertHostMayTake } from '../kernel/roles';
import { loadForActor, onRecord, type OnRecord } from '../booking/command';
import { adjustCredit, appendToRecord, recordMoney } from '../ledger/ledger';
import { toPaymentPublic } from '../ledger/payment-public';
import { withLocks } from '../../db/lock';
import { publish } from '../notify/publish';
import { moneyOf, paidBySource, priceOf } from '../ledger/price';
import { ledgerWithReceipts } from '../fiscal/staff';

/*
 * The studio's side of money: a booking's ledger, payments taken at the desk, refunds made, a price
 * set by hand, and the cash desk (what came in and went out, what is owed back, the credit held).
 * Every write runs under the booking's session lock and refuses what would overpay: two staff
 * recording the same cash at once get one row and one 409.
 */

export const DESK_MSG = {
  paidAlready: 'deskPaidAlready',
  aboveBalance: (balance: number): RefusalRef => ({ code: 'deskAboveBalance', args: { balance } }),
  nothingToRefund: 'deskNothingToRefund',
  aboveRefundable: (paid: number): RefusalRef => ({ code: 'deskAboveRefundable', args: { paid } }),
  nothingOwed: 'deskNothingOwed',
  aboveOwed: (owed: number): RefusalRef => ({ code: 'deskAboveOwed', args: { owed } }),
  noCustomer: 'deskNoCustomer',
  aboveMoneyPaid: (paid: number): RefusalRef => ({ code: 'deskAboveMoneyPaid', args: { paid } }),
  aboveCreditRefundable: (paid: number): RefusalRef => ({ code: 'deskAboveCreditRefundable', args: { paid } }),
  creditShort: (balance: number): RefusalRef => ({ code: 'deskCreditShort', args: { balance } }),
} as const;

async function ledgerOf(trx: Executor, c: Pick<OnRecord, 'actor' | 'record' | 'settings'>): Promise<RecordLedger> {
  const rows = await listPaymentsOfRecord(trx, c.record.id);
  const money = moneyOf(c.record, rows, c.settings);
  return {
    money,
    ...(await ledgerWithReceipts(trx, c.record.id, rows.map(toPaymentPublic))),
    promo_code: await promoCodeName(trx, c.record.promo_code_id),
    allowed: ledgerAllowed(c.actor, money),
  };
}

/** A booking's money and its ledger (staff). */
export async function viewLedger(db: Executor, actor: Actor, recordId: number): Promise<RecordLedger> {
  assertCan(actor, 'desk.pay');
  return ledgerOf(db, await loadForActor(db, actor, recordId));
}

/** Money taken at the studio (cash, card) or a transfer that arrived; by default the whole balance. */
export function recordDeskPayment(
  database: Database,
  actor: Actor,
  recordId: number,
  input: PaymentCreate,
): Promise<RecordLedger> {
  assertCan(actor, 'desk.pay');
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
    return { value: await ledgerOf(trx, { actor, record, settings }), events: [event] };
  });
}

/**
 * A refund staff made (cash, card, transfer, in the payment provider's dashboard) or moved to the customer's credit.
 * Decided under the lock against what is owed now, so two managers (or a stale dialog) cannot return the same
 * money twice; more than is owed only when the request says so, with a reason (the row's note, logged).
 */
export function recordRefund(
  database: Database,
  actor: Actor,
  recordId: number,
  input: RefundCreate,
): Promise<RecordLedger> {
  assertCan(actor, 'money.refund');
  return onRecord(database, actor, recordId, async (c) => {
    const { trx, settings, record } = c;
    const m = await recordMoney(trx, record, settings);
    const owed = Math.max(0, -m.balance);
    const amount = input.amount ?? owed;
    if (m.amount_paid <= 0) throw new Conflict(DESK_MSG.nothingToRefund);
    if (amount > owed && !input.over_owed)
      throw owed === 0 ? new Conflict(DESK_MSG.nothingOwed) : new Conflict(DESK_MSG.aboveOwed(owed));
    if (amount <= 0) throw new Conflict(DESK_MSG.nothingToRefund);
    if (amount > m.amount_paid) throw new Conflict(DESK_MSG.aboveRefundable(m.amount_paid));
    if (input.method === 'credit' && record.telegram_id === null) throw new Conflict(DESK_MSG.noCustomer);
    // Money goes back where it came from: only money paid in (cash, card, transfer, Telegram) can leave
    // as money; what credit paid can only go back to credit, and a certificate's part to the certificate.
    const { money, credit } = paidBySource(m);
    if (input.method !== 'credit' && amount > money) throw new Conflict(DESK_MSG.aboveMoneyPaid(money));
    if (input.method === 'credit' && amount > money + credit)
      throw new Conflict(DESK_MSG.aboveCreditRefundable(money + credit));
    const event = await appendToRecord(trx, actor, record, c.schedule, settings, {
      amount: -amount,
      method: input.method,
      kind: 'refund',
      note: input.note ?? null,
    });
    const events: DomainEvent[] = [event];
    if (amount > owed)
      events.push({
        type: 'entity.updated',
        actor,
        entity: 'record',
        entity_id: record.id,
        before: { refund_owed: owed },
        after: { refunded: amount, over_owed: true, reason: input.note },
      });
    return { value: await ledgerOf(trx, c), events };
  });
}

/** Staff set a price per person instead of the fixed one, so it follows the party (null: back to the fixed price), with a reason. */
export function overridePrice(
  database: Database,
  actor: Actor,
  recordId: number,
  input: PriceOverride,
): Promise<RecordLedger> {
  assertCan(actor, 'price.override');
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
  assertCan(actor, 'credit.adjust');
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
