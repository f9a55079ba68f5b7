import type { BusinessSettings, PaymentStatus, RecordMoney } from '../../contract';
import type { PaymentRow } from '../../db/repositories/payments';
import type { RecordRow } from '../../db/repositories/records';

/*
 * A booking's money, derived in this one place from its fixed price and its ledger: what it costs,
 * what was paid, the balance and the badge. Nothing else computes any of these.
 */

type Priced = Pick<RecordRow, 'state' | 'people_count' | 'unit_price' | 'price_override' | 'pay_by'>;

/** The price fixed at booking: the workshop's price then × people, unless staff set the total. */
export const priceOf = (r: Pick<RecordRow, 'people_count' | 'unit_price' | 'price_override'>): number =>
  r.price_override ?? r.unit_price * r.people_count;

/** What must be paid when booking to keep the seats: the deposit (rounded up) or the whole price. */
export function requiredOf(price: number, s: Pick<BusinessSettings, 'prepayment' | 'deposit_percent'>): number {
  if (s.prepayment === 'full') return price;
  if (s.prepayment === 'deposit') return Math.ceil((price * s.deposit_percent) / 100);
  return 0;
}

/** Net paid on the booking: payments in, refunds out (credit included both ways). */
export const paidOf = (ledger: readonly Pick<PaymentRow, 'amount'>[]) => ledger.reduce((sum, p) => sum + p.amount, 0);

export function moneyOf(
  r: Priced,
  ledger: readonly Pick<PaymentRow, 'amount' | 'method' | 'kind'>[],
  s: Pick<BusinessSettings, 'prepayment' | 'deposit_percent'>,
): RecordMoney {
  const price = priceOf(r);
  const cancelled = r.state === 'CANCELLED';
  const due = cancelled ? 0 : price;
  const paid = paidOf(ledger);
  const balance = due - paid;
  const refunds = ledger.filter((p) => p.kind === 'refund');
  let status: PaymentStatus;
  if (balance < 0) status = 'refund_owed';
  else if (cancelled && refunds.length > 0)
    status = refunds.every((p) => p.method === 'credit') ? 'credited' : 'refunded';
  else if (paid > 0 && balance === 0) status = 'paid';
  else if (paid > 0) status = 'deposit_paid';
  else status = 'unpaid';
  const byCredit = ledger.filter((p) => p.method === 'credit').reduce((sum, p) => sum + p.amount, 0);
  return {
    price,
    unit_price: r.unit_price,
    price_override: r.price_override,
    amount_due: due,
    amount_paid: paid,
    balance,
    status,
    required_now: cancelled || r.state === 'QUEUED' ? 0 : requiredOf(price, s),
    pay_by: r.pay_by,
    paid_by_credit: Math.max(0, byCredit),
  };
}

/** The booking has paid what its hold asks for (the deposit or all). */
export const holdSatisfied = (m: RecordMoney) => m.amount_paid >= m.required_now;

/** What a payment now should be: the rest of the deposit while it is short, else the whole balance. */
export function payNow(m: Pick<RecordMoney, 'required_now' | 'amount_paid' | 'balance'>): number {
  if (m.required_now > m.amount_paid) return m.required_now - m.amount_paid;
  return Math.max(0, m.balance);
}
