import type { Executor } from '../../db/database';
import { creditBalance } from '../../db/repositories/payments';
import { insertOwedRefund } from '../../db/repositories/owed-refunds';
import type { Actor } from '../kernel/actor';
import { appendErasedCredit, moneyOfRecord } from '../ledger/ledger';
import type { StaffAlertEvent } from '../notify/publish';

/*
 * An erasure never swallows money. The customer's upcoming bookings are cancelled with what they paid
 * owed back on each booking (credit needs a person to hold it); their studio credit leaves them as a
 * ledger row that names nobody and is owed back (owed_refunds); staff are alerted with the amounts only.
 * The confirmation states the same amounts before the customer agrees.
 */

export interface ErasureMoney {
  /** Their studio credit now. */
  credit: number;
  /** Paid on the upcoming bookings the erasure cancels (what certificates paid goes back to them). */
  paid: number;
  /** Everything owed back after the erasure: the credit, that money, and refunds already owed on earlier bookings. */
  owed: number;
}

/** What a customer's erasure would leave owed back, from their bookings (`upcoming`: those it cancels). */
export async function erasureMoney(
  db: Executor,
  telegramId: number,
  bookings: { id: number; upcoming: boolean }[],
): Promise<ErasureMoney> {
  const credit = await creditBalance(db, telegramId);
  let paid = 0;
  let earlier = 0;
  for (const b of bookings) {
    const m = await moneyOfRecord(db, b.id);
    if (!m) continue;
    if (b.upcoming) paid += m.amount_paid - (m.paid_by_certificate ?? 0);
    else earlier += Math.max(0, -m.balance);
  }
  return { credit, paid, owed: credit + paid + earlier };
}

/**
 * After the cancels, before the customer's ledger rows lose their name: the credit they hold (what they
 * had, with what the cancels gave back to it) becomes a refund owed; staff hear of what is owed.
 */
export async function leaveOwed(
  trx: Executor,
  actor: Actor,
  telegramId: number,
  money: ErasureMoney,
): Promise<StaffAlertEvent[]> {
  const payment = await appendErasedCredit(trx, actor, telegramId);
  if (payment) await insertOwedRefund(trx, { amount: -payment.amount, payment_id: payment.id, reason: 'erasure' });
  if (money.owed <= 0) return [];
  return [{ type: 'staff.alert', notification: { kind: 'staff.erased_money', payload: money } }];
}
