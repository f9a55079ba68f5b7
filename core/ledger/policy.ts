import type { BusinessSettings, RecordMoney, RecordSchedule } from '../../contract';
import type { Executor } from '../../db/database';
import { creditBalance, lockCredit, setPayBy, setUnitPrice, type PaymentRow } from '../../db/repositories/payments';
import type { RecordRow } from '../../db/repositories/records';
import { SYSTEM } from '../kernel/actor';
import type { MoneyEvent } from '../kernel/events';
import { returnToCertificates, spendCertificate } from './certificate-spend';
import { appendToRecord, recordMoney } from './ledger';
import { moneyOf } from './price';

/*
 * What a booking's money does when the booking changes. Each booking command calls the step of its
 * change under the session's lock and returns what it gives back with its own events, so the
 * messages tell where the money went:
 * - a booking that becomes ACTIVE (booked, restored, promoted) first spends its gift certificate
 *   (if it has one), then the customer's studio credit, up to what it costs (a booking staff made
 *   without the customer's agreement, credit_declined, never spends it); with prepayment,
 *   whatever is still required holds its seats until
 *   pay_by = now + payment_hold_minutes, never past the start. A QUEUED booking pays nothing, and a
 *   booking staff took for someone without Telegram is not held (they pay at the studio).
 * - a cancelled booking (by anyone, or with its session deleted) gives back all that was paid, a
 *   smaller party what it paid beyond its new price: a gift certificate's part goes back to the
 *   certificate first; what came from credit goes back to credit; the
 *   rest to credit with refund_to credit, else it is owed back until staff record the refund.
 * The price itself is fixed when the booking is made: the workshop's price of that moment.
 */

type Settings = BusinessSettings;

/** The booking row after its money followed (pay_by, price), and the ledger rows appended. */
export interface MoneyStep {
  record: RecordRow;
  events: MoneyEvent[];
}

export function holdUntil(now: Date, start: string, s: Pick<Settings, 'payment_hold_minutes'>): string {
  const until = new Date(now.getTime() + s.payment_hold_minutes * 60_000).toISOString();
  return until < start ? until : new Date(start).toISOString();
}

async function becameActive(
  trx: Executor,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Settings,
  now: Date,
  /** A booking just made: no ledger yet. */
  fresh = false,
): Promise<MoneyStep> {
  // A gift certificate pays first (it expires; credit does not), then the customer's credit.
  const events: MoneyEvent[] = await spendCertificate(trx, SYSTEM, r, schedule, s);
  // Credit only grows by a committed row, so a balance of nothing read unlocked has nothing to spend;
  // one to spend is locked and read again (PostgreSQL), so two bookings never spend it twice.
  if (r.telegram_id !== null && !r.credit_declined && (await creditBalance(trx, r.telegram_id)) > 0) {
    await lockCredit(trx, r.telegram_id);
    const credit = await creditBalance(trx, r.telegram_id);
    const owed = (await recordMoney(trx, r, s)).balance;
    const spend = Math.min(credit, owed);
    if (spend > 0)
      events.push(
        await appendToRecord(trx, SYSTEM, r, schedule, s, {
          amount: spend,
          method: 'credit',
          kind: 'payment',
          note: 'Оплачено с баланса в студии',
        }),
      );
  }
  // A new booking that paid nothing in this step has an empty ledger (ids are never reused).
  const ledger = fresh && events.length === 0 ? [] : undefined;
  return { record: await holdShortfall(trx, r, schedule, s, now, ledger), events };
}

/**
 * What an ACTIVE booking has not paid of what prepayment asks holds its seats until pay_by (a hold
 * already running keeps its time, so changing the party again does not extend it); paid enough, no
 * hold. Only a Telegram customer can pay from afar: a booking staff took for someone else is not held.
 */
async function holdShortfall(
  trx: Executor,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Settings,
  now: Date,
  /** The booking's ledger, when known without reading it. */
  ledger?: readonly PaymentRow[],
): Promise<RecordRow> {
  const m = ledger ? moneyOf(r, ledger, s) : await recordMoney(trx, r, s);
  const short = r.telegram_id !== null && m.amount_paid < m.required_now;
  const payBy = short ? (r.pay_by ?? holdUntil(now, schedule.date, s)) : null;
  return payBy !== r.pay_by ? setPayBy(trx, r.id, payBy) : r;
}

/**
 * Of `amount` given back (what certificates paid already returned to them), what goes to the customer's studio
 * credit: what credit paid, and the rest too when the studio refunds to credit and the customer has a balance
 * (a Telegram customer). What is left is owed back until staff record the refund.
 */
export function creditShare(
  amount: number,
  paidByCredit: number,
  telegramId: number | null,
  s: Pick<Settings, 'refund_to'>,
): number {
  const fromCredit = Math.min(amount, paidByCredit);
  return telegramId === null ? fromCredit : s.refund_to === 'credit' ? amount : fromCredit;
}

/**
 * Where onCancelled would send what a booking paid, written nowhere (what a session's cancel is shown to do
 * before it runs): certificates' part back to them first, then creditShare, the rest owed.
 */
export function cancelledMoney(
  r: Pick<RecordRow, 'telegram_id'>,
  m: Pick<RecordMoney, 'amount_paid' | 'paid_by_credit' | 'paid_by_certificate'>,
  s: Pick<Settings, 'refund_to'>,
): { paid: number; to_certificates: number; to_credit: number; owed: number } {
  const paid = Math.max(0, m.amount_paid);
  const toCertificates = Math.min(paid, m.paid_by_certificate ?? 0);
  const toCredit = Math.max(0, creditShare(paid - toCertificates, m.paid_by_credit, r.telegram_id, s));
  return { paid, to_certificates: toCertificates, to_credit: toCredit, owed: paid - toCertificates - toCredit };
}

/** Gives back `amount` of what the booking paid: credit-funded money to credit, the rest as the studio chose. */
async function giveBack(
  trx: Executor,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Settings,
  amount: number,
): Promise<MoneyEvent[]> {
  if (amount <= 0) return [];
  // What certificates paid goes back to them first, never to cash or credit.
  const certificates = await returnToCertificates(trx, r, schedule, s, amount);
  amount -= certificates.returned;
  if (amount <= 0) return certificates.events;
  const toCredit = creditShare(amount, (await recordMoney(trx, r, s)).paid_by_credit, r.telegram_id, s);
  if (toCredit <= 0) return certificates.events;
  return [
    ...certificates.events,
    await appendToRecord(trx, SYSTEM, r, schedule, s, {
      amount: -toCredit,
      method: 'credit',
      kind: 'refund',
      note: 'Возвращено на баланс в студии',
    }),
  ];
}

/** A new booking: its price is fixed now (a later change of the workshop's price leaves it as it is), then it pays if ACTIVE. */
export async function onBooked(
  trx: Executor,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Settings,
  now: Date,
): Promise<MoneyStep> {
  const priced = r.unit_price === schedule.workshop.price ? r : await setUnitPrice(trx, r.id, schedule.workshop.price);
  return priced.state === 'ACTIVE' ? becameActive(trx, priced, schedule, s, now, true) : { record: priced, events: [] };
}

/** The queue served the booking (or a restore found seats): it pays as a new ACTIVE booking does. */
export async function onPromoted(
  trx: Executor,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Settings,
  now: Date,
): Promise<MoneyStep> {
  return r.state === 'ACTIVE' ? becameActive(trx, r, schedule, s, now) : { record: r, events: [] };
}

/** A restored booking: it pays again when it came back ACTIVE; a queued one waits. */
export const onRestored = onPromoted;

/** A cancelled booking (or one whose session was deleted): no more hold, and all it paid goes back. */
export async function onCancelled(
  trx: Executor,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Settings,
): Promise<MoneyStep> {
  const record = r.pay_by !== null ? await setPayBy(trx, r.id, null) : r;
  const paid = (await recordMoney(trx, record, s)).amount_paid;
  return { record, events: await giveBack(trx, record, schedule, s, paid) };
}

/**
 * A party changed from `before` to `r`: a smaller one gets back what it paid beyond its price, a booking
 * sent to the queue holds nothing, one that became ACTIVE pays, a larger ACTIVE one spends its certificate
 * and holds what is still short until pay_by.
 */
export async function onPartyChanged(
  trx: Executor,
  before: RecordRow,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Settings,
  now: Date,
): Promise<MoneyStep> {
  if (r.state === 'QUEUED') return { record: r.pay_by !== null ? await setPayBy(trx, r.id, null) : r, events: [] };
  const excess = -(await recordMoney(trx, r, s)).balance;
  const events = await giveBack(trx, r, schedule, s, excess);
  if (before.state !== 'ACTIVE' && r.state === 'ACTIVE') {
    const active = await becameActive(trx, r, schedule, s, now);
    return { record: active.record, events: [...events, ...active.events] };
  }
  // A larger party of an ACTIVE booking: its certificate pays the difference while it holds something,
  // and what is still short is held like a new booking, so prepayment cannot be bypassed by growing the party.
  if (excess < 0) events.push(...(await spendCertificate(trx, SYSTEM, r, schedule, s)));
  return { record: await holdShortfall(trx, r, schedule, s, now), events };
}
