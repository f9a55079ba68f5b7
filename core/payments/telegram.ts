import type { BusinessSettings, RecordSchedule } from '../../contract';
import type { Database, Executor } from '../../db/database';
import { withLocks, withWriteTransaction } from '../../db/lock';
import { findPaymentByCharge, setPayBy } from '../../db/repositories/payments';
import { getRecord, type RecordRow } from '../../db/repositories/records';
import { getRecordSchedule } from '../../db/repositories/schedules';
import { customerActor, type Actor } from '../kernel/actor';
import { Conflict, type FixedRefusalCode } from '../kernel/errors';
import type { MoneyEvent } from '../kernel/events';
import { publish, type Published } from '../notify/publish';
import { getBusinessSettings } from '../kernel/settings';
import { loadForActor } from '../booking/command';
import {
  certificatePurchaseRefusal,
  findCertificate,
  recordCertificatePayment,
  type CertificateRef,
} from '../certificates/purchase';
import { appendToRecord, appendUnbookedCharge, recordMoney } from '../ledger/ledger';
import { api as ruApi, type ApiTexts } from '../../contract/texts/ru/api';
import { telegramCharge } from '../../contract/telegram-limits';

/*
 * Telegram payments: the invoice (the same for the mini-app's link and the bot's pay button), the
 * answer to Telegram's last check before it charges (pre_checkout_query), and the payment it reports
 * (successful_payment), recorded once per charge id. Telegram takes whole RSD × 100.
 */

export const CURRENCY = 'RSD';
/** Telegram's minor units per dinar. */
const MINOR = 100;

export const MONEY_MSG = {
  noInvoices: 'noInvoices',
  nothingToPay: 'nothingToPay',
  cancelled: 'paymentCancelled',
  queued: 'paymentQueued',
  expired: 'paymentExpired',
  amountChanged: 'amountChanged',
  notFound: 'recordNotFound',
  currency: 'currency',
} as const;

/** The invoice's payload: names the booking (≤ 128 bytes). */
export const invoicePayload = (recordId: number) => `record:${recordId}`;
export function recordIdOfPayload(payload: string): number | null {
  const m = /^record:(\d{1,10})$/.exec(payload);
  return m ? Number(m[1]) : null;
}
/** A gift certificate's invoice names the certificate by its invoice token: `gift:<token>`. */
export const certificateInvoicePayload = (token: string) => `gift:${token}`;
/** The certificate an invoice names: by its token, or by its id (`cert:<id>`, invoices made before tokens). */
export function certificateOfPayload(payload: string): CertificateRef | null {
  const token = /^gift:([A-Za-z0-9_-]{1,32})$/.exec(payload);
  if (token) return { token: token[1]! };
  const id = /^cert:(\d{1,10})$/.exec(payload);
  return id ? { id: Number(id[1]) } : null;
}

/** The invoice of a gift certificate bought in the mini-app (named by its token), in the buyer's language (`t`). */
export function certificateInvoiceParams(c: { token: string; amount: number }, t: ApiTexts = ruApi): InvoiceParams {
  return {
    title: t.invoice.certificateTitle,
    description: t.invoice.certificateDescription(t.format.money(c.amount)),
    payload: certificateInvoicePayload(c.token),
    currency: CURRENCY,
    prices: [{ label: t.invoice.certificateLabel, amount: c.amount * MINOR }],
  };
}

export interface InvoiceParams {
  title: string;
  description: string;
  payload: string;
  currency: string;
  prices: { label: string; amount: number }[];
}

/** An invoice's texts in one language: title ≤ 32 characters, description ≤ 255, price label ≤ 32. */
export interface InvoiceTexts {
  title(workshop: string): string;
  description(workshop: string, date: string, people: number, id: number): string;
  label(id: number): string;
}

/** The invoice's texts in Russian (every language's: the catalogue's api section). */
export const INVOICE_TEXTS: InvoiceTexts = ruApi.invoice;

/** The invoice for `amount` dinars of a booking, in the customer's language (`texts`, `dateText`). */
export function invoiceParams(
  r: Pick<RecordRow, 'id' | 'people_count'>,
  s: { workshop_title: string; date: string },
  amount: number,
  dateText: string,
  texts: InvoiceTexts = INVOICE_TEXTS,
): InvoiceParams {
  return {
    title: texts.title(s.workshop_title),
    description: texts.description(s.workshop_title, dateText, r.people_count, r.id),
    payload: invoicePayload(r.id),
    currency: CURRENCY,
    prices: [{ label: texts.label(r.id), amount: amount * MINOR }],
  };
}

/**
 * What a booking asks to be paid now from afar (Telegram invoice, pre-checkout, IPS QR), or why nothing:
 * a cancelled booking owes nothing, and a queued one pays only once promoted (money for a seat it may
 * never get would be owed to nobody). The amount is the money's own `pay_now`, which follows the state.
 */
export async function payableNow(
  db: Executor,
  r: RecordRow,
  s: Pick<BusinessSettings, 'prepayment' | 'deposit_percent'>,
): Promise<{ amount: number; balance: number } | { refusal: FixedRefusalCode }> {
  if (r.state === 'CANCELLED')
    return { refusal: r.cancel_reason === HOLD_EXPIRED_REASON ? MONEY_MSG.expired : MONEY_MSG.cancelled };
  if (r.state === 'QUEUED') return { refusal: MONEY_MSG.queued };
  const m = await recordMoney(db, r, s);
  return m.pay_now > 0 ? { amount: m.pay_now, balance: m.balance } : { refusal: MONEY_MSG.nothingToPay };
}

/** What a Telegram invoice asks of a booking now: payableNow within Telegram's limits for one payment. */
export async function telegramPayable(
  db: Executor,
  r: RecordRow,
  s: Pick<BusinessSettings, 'prepayment' | 'deposit_percent'>,
): Promise<{ amount: number } | { refusal: FixedRefusalCode }> {
  const due = await payableNow(db, r, s);
  return 'refusal' in due ? due : telegramCharge(due.amount, due.balance);
}

/** What the owner may pay by Telegram now, for the invoice; Conflict when nothing. */
export async function invoiceFor(
  database: Database,
  actor: Actor,
  recordId: number,
): Promise<{ record: RecordRow; schedule: RecordSchedule; amount: number }> {
  const c = await loadForActor(database.db, actor, recordId);
  const due = await telegramPayable(database.db, c.record, c.settings);
  if ('refusal' in due) throw new Conflict(due.refusal);
  return { record: c.record, schedule: c.schedule, amount: due.amount };
}

export interface PreCheckout {
  from_id: number;
  currency: string;
  total_amount: number;
  invoice_payload: string;
}

/** Telegram's last check before charging: null to accept, else the Russian reason shown to the customer. */
export async function preCheckoutRefusal(
  database: Database,
  q: PreCheckout,
  now = new Date(),
): Promise<FixedRefusalCode | null> {
  const certificate = certificateOfPayload(q.invoice_payload);
  if (certificate !== null)
    return q.currency !== CURRENCY
      ? MONEY_MSG.currency
      : certificatePurchaseRefusal(database.db, certificate, q.from_id, q.total_amount / MINOR);
  const id = recordIdOfPayload(q.invoice_payload);
  const r = id === null ? undefined : await getRecord(database.db, id);
  if (!r || r.telegram_id !== q.from_id) return MONEY_MSG.notFound;
  if (q.currency !== CURRENCY) return MONEY_MSG.currency;
  if (r.state === 'ACTIVE' && r.pay_by !== null && new Date(r.pay_by) <= now) return MONEY_MSG.expired;
  const due = await telegramPayable(database.db, r, await getBusinessSettings(database.db));
  if ('refusal' in due) return due.refusal;
  if (q.total_amount !== due.amount * MINOR) return MONEY_MSG.amountChanged;
  return null;
}

/** The reason of a booking cancelled because its seat hold ran out unpaid. */
export const HOLD_EXPIRED_REASON = ruApi.cancelReasons.holdExpired;
/** The reason of a queued booking whose session started without a seat for it. */
export const QUEUE_PASSED_REASON = ruApi.cancelReasons.queuePassed;

export interface PaymentReport extends PreCheckout {
  telegram_payment_charge_id: string;
  provider_payment_charge_id: string;
  /** The payer as Telegram names them (for staff's alert when the booking is gone). */
  payer_name?: string | null;
}

/**
 * Records a Telegram payment once per charge id: a replayed or concurrent delivery finds it and
 * changes nothing. Money for a booking that no longer takes it (cancelled, or already paid) is kept
 * on the booking's ledger and moved straight to the customer's credit, and staff are alerted; money
 * for a booking that no longer exists (its session deleted) is kept without a booking, as the payer's
 * credit. A charge is never refused here: the customer has paid. Returns whether it was new.
 */
export async function recordTelegramPayment(database: Database, p: PaymentReport): Promise<boolean> {
  const certificateRef = certificateOfPayload(p.invoice_payload);
  if (certificateRef !== null) {
    const c = await findCertificate(database.db, certificateRef);
    if (c) return recordCertificatePayment(database, c.id, { ...p, amount: Math.round(p.total_amount / MINOR) });
    // A certificate that is not there: the money is the payer's credit, as for a gone booking.
    return recordUnbooked(database, p, { certificate: true });
  }
  const id = recordIdOfPayload(p.invoice_payload);
  const ref = id === null ? undefined : await getRecord(database.db, id);
  const actor = customerActor(p.from_id);
  const amount = Math.round(p.total_amount / MINOR);
  // The payer's lock serialises deliveries of one charge even when the session (and its lock) is gone.
  const keys = { telegramIds: [p.from_id], scheduleIds: ref ? [ref.schedule_id] : [] };
  return withLocks(database, keys, async (trx) => {
    // The charge id is unique in the ledger: under the lock, a second delivery sees the first.
    if (await findPaymentByCharge(trx, p.telegram_payment_charge_id)) return false;
    const r = ref && (await getRecord(trx, ref.id));
    if (!r) {
      await publish(trx, await keepUnbooked(trx, actor, p, { record_id: id }));
      return true;
    }
    const schedule = (await getRecordSchedule(trx, r.schedule_id))!;
    const s = await getBusinessSettings(trx);
    const owed = (await recordMoney(trx, r, s)).balance;
    const late = r.state === 'CANCELLED' || owed < amount;
    const events: MoneyEvent[] = [
      await appendToRecord(
        trx,
        actor,
        r,
        schedule,
        s,
        {
          amount,
          method: 'telegram',
          kind: 'payment',
          telegram_payment_charge_id: p.telegram_payment_charge_id,
          provider_payment_charge_id: p.provider_payment_charge_id,
        },
        late ? 'late' : 'paid',
      ),
    ];
    const excess = late ? amount - Math.max(owed, 0) : 0;
    if (excess > 0 && r.telegram_id !== null)
      events.push(
        await appendToRecord(trx, actor, r, schedule, s, {
          amount: -excess,
          method: 'credit',
          kind: 'refund',
          note: 'Оплата после отмены или сверх цены: на баланс в студии',
        }),
      );
    const m = await recordMoney(trx, r, s);
    if (r.pay_by !== null && m.amount_paid >= m.required_now) await setPayBy(trx, r.id, null);
    await publish(trx, events);
    return true;
  });
}

/** A charge for a certificate that is not there, kept once by its charge id (under the payer's lock) as their credit. */
async function recordUnbooked(database: Database, p: PaymentReport, paidFor: PaidFor): Promise<boolean> {
  return withLocks(database, { telegramIds: [p.from_id] }, async (trx) => {
    if (await findPaymentByCharge(trx, p.telegram_payment_charge_id)) return false;
    await publish(trx, await keepUnbooked(trx, customerActor(p.from_id), p, paidFor));
    return true;
  });
}

/** What a charge without its object was for: a booking (its number, if the payload named one) or a gift certificate. */
type PaidFor = { record_id: number | null } | { certificate: true };

/**
 * A charge for no booking or certificate that exists: the payer's credit, and staff told who paid, how
 * much, for what, where it went.
 */
async function keepUnbooked(trx: Executor, actor: Actor, p: PaymentReport, paidFor: PaidFor): Promise<Published[]> {
  const amount = Math.round(p.total_amount / MINOR);
  const recordId = 'record_id' in paidFor ? paidFor.record_id : null;
  const credit = await appendUnbookedCharge(trx, actor, {
    amount,
    telegram_id: p.from_id,
    note:
      'record_id' in paidFor
        ? `Оплата за запись №${recordId ?? '—'}, которой больше нет: на баланс клиента в студии`
        : 'Оплата за подарочный сертификат, которого нет: на баланс клиента в студии',
    telegram_payment_charge_id: p.telegram_payment_charge_id,
    provider_payment_charge_id: p.provider_payment_charge_id,
  });
  return [
    credit,
    {
      type: 'message',
      chat_id: p.from_id,
      notification: { kind: 'money.unbooked', payload: { amount, balance: credit.after?.amount_paid ?? amount } },
    },
    {
      type: 'staff.alert',
      notification: {
        kind: 'staff.money',
        payload: {
          event: 'record_id' in paidFor ? 'no_booking' : 'no_certificate',
          amount,
          record_id: recordId,
          payer_telegram_id: p.from_id,
          payer_name: p.payer_name ?? null,
          charge_id: p.telegram_payment_charge_id,
        },
      },
    },
  ];
}

/** A charge whose handling was given up: staff are told to record it by hand, unless the ledger has it after all. */
export async function alertChargeNotRecorded(database: Database, p: PaymentReport): Promise<void> {
  await withWriteTransaction(database, async (trx) => {
    if (await findPaymentByCharge(trx, p.telegram_payment_charge_id)) return;
    await publish(trx, [
      {
        type: 'staff.alert',
        notification: {
          kind: 'staff.money',
          payload: {
            event: 'not_recorded',
            amount: Math.round(p.total_amount / MINOR),
            record_id: recordIdOfPayload(p.invoice_payload),
            payer_telegram_id: p.from_id,
            payer_name: p.payer_name ?? null,
            charge_id: p.telegram_payment_charge_id,
          },
        },
      },
    ]);
  });
}
