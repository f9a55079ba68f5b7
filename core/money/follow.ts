import type { BusinessSettings, RecordSchedule } from '../../contract';
import type { Executor } from '../../db/database';
import { creditBalance, lockCredit, setPayBy, setUnitPrice } from '../../db/repositories/payments';
import type { RecordRow } from '../../db/repositories/records';
import { SYSTEM } from '../kernel/actor';
import type { DomainEvent, MoneyEvent } from '../notify/events';
import { getBusinessSettings } from '../staff/business-settings';
import { returnToCertificates, spendCertificate } from './certificates-spend';
import { appendToRecord, recordMoney } from './ledger';

/*
 * What a booking's money does when the booking changes, decided here for every command at once
 * (the publisher runs it before it tells anyone, so the messages say where the money went):
 * - a booking that becomes ACTIVE (booked, restored, promoted) first spends its gift certificate
 *   (if it has one), then the customer's studio credit, up to what it costs; with prepayment,
 *   whatever is still required holds its seats until
 *   pay_by = now + payment_hold_minutes, never past the start. A QUEUED booking pays nothing, and a
 *   booking staff took for someone without Telegram is not held (they pay at the studio).
 * - a cancelled booking (by anyone, or with its session deleted) gives back all that was paid, a
 *   smaller party what it paid beyond its new price: a gift certificate's part goes back to the
 *   certificate first; what came from credit goes back to credit; the
 *   rest to credit with refund_to credit, else it is owed back until staff record the refund.
 * The price itself was fixed when the booking was made: the workshop's price of that moment.
 */

type Settings = BusinessSettings;

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
): Promise<{ record: RecordRow; events: MoneyEvent[] }> {
  // A gift certificate pays first (it expires; credit does not), then the customer's credit.
  const events: MoneyEvent[] = await spendCertificate(trx, SYSTEM, r, schedule, s);
  if (r.telegram_id !== null) {
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
          note: 'Оплачено с депозита в студии',
        }),
      );
  }
  const m = await recordMoney(trx, r, s);
  // Only a Telegram customer can pay from afar: a booking staff took for someone else is not held.
  const payBy = r.telegram_id !== null && m.amount_paid < m.required_now ? holdUntil(now, schedule.date, s) : null;
  const record = payBy !== r.pay_by ? await setPayBy(trx, r.id, payBy) : r;
  return { record, events };
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
  const m = await recordMoney(trx, r, s);
  const fromCredit = Math.min(amount, m.paid_by_credit);
  const toCredit = r.telegram_id === null ? fromCredit : s.refund_to === 'credit' ? amount : fromCredit;
  if (toCredit <= 0) return certificates.events;
  return [
    ...certificates.events,
    await appendToRecord(trx, SYSTEM, r, schedule, s, {
      amount: -toCredit,
      method: 'credit',
      kind: 'refund',
      note: 'Возвращено на депозит в студии',
    }),
  ];
}

async function afterCancel(trx: Executor, r: RecordRow, schedule: RecordSchedule, s: Settings) {
  const record = r.pay_by !== null ? await setPayBy(trx, r.id, null) : r;
  const paid = (await recordMoney(trx, record, s)).amount_paid;
  return { record, events: await giveBack(trx, record, schedule, s, paid) };
}

async function afterPeopleChange(
  trx: Executor,
  before: RecordRow,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Settings,
  now: Date,
) {
  if (r.state === 'QUEUED') return { record: r.pay_by !== null ? await setPayBy(trx, r.id, null) : r, events: [] };
  const excess = -(await recordMoney(trx, r, s)).balance;
  const events = await giveBack(trx, r, schedule, s, excess);
  if (before.state !== 'ACTIVE' && r.state === 'ACTIVE') {
    const active = await becameActive(trx, r, schedule, s, now);
    return { record: active.record, events: [...events, ...active.events] };
  }
  // A larger party of an ACTIVE booking: its certificate pays the difference while it holds something.
  if (excess < 0) events.push(...(await spendCertificate(trx, SYSTEM, r, schedule, s)));
  return { record: r, events };
}

/** The money rows and holds that follow `events`; refreshes the events' booking rows (pay_by, price). */
export async function moneyFollowing(trx: Executor, events: DomainEvent[], now = new Date()): Promise<MoneyEvent[]> {
  if (!events.some((e) => e.type.startsWith('record.') || e.type === 'schedule.deleted')) return [];
  const s = await getBusinessSettings(trx);
  const out: MoneyEvent[] = [];
  for (const e of events) {
    let step: { record: RecordRow; events: MoneyEvent[] } | null = null;
    switch (e.type) {
      case 'record.created': {
        // The price is fixed now: a later change of the workshop's price leaves this booking as it is.
        const priced = await setUnitPrice(trx, e.record.id, e.schedule.workshop.price);
        step =
          priced.state === 'ACTIVE'
            ? await becameActive(trx, priced, e.schedule, s, now)
            : { record: priced, events: [] };
        break;
      }
      case 'record.restored':
      case 'record.promoted':
        if (e.record.state === 'ACTIVE') step = await becameActive(trx, e.record, e.schedule, s, now);
        break;
      case 'record.cancelled':
        step = await afterCancel(trx, e.record, e.schedule, s);
        break;
      case 'record.people_changed':
        step = await afterPeopleChange(trx, e.before!, e.record, e.schedule, s, now);
        break;
      case 'schedule.deleted':
        for (const r of e.told) out.push(...(await afterCancel(trx, r, e.schedule, s)).events);
        break;
    }
    if (step && e.type.startsWith('record.')) {
      (e as { record: RecordRow }).record = step.record;
      out.push(...step.events);
    }
  }
  return out;
}
