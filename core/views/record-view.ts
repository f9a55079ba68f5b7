import type { RecordAllowed, RecordView } from '../../contract';
import type { Language } from '../../contract/language';
import type { Executor } from '../../db/database';
import { promoCodeName } from '../../db/repositories/promo-codes';
import { toRecordPublic } from '../../db/repositories/records';
import type { RecordResult } from '../booking/engine';
import type { Actor } from '../kernel/actor';
import { calendarPath } from '../journey/calendar';
import { localizeAllowed, sayCancelReason } from '../language/api-texts';
import { customerLanguage } from '../language/customer-language';
import { moneyOfRecord } from '../ledger/ledger';
import { moneyOf } from '../ledger/price';
import { payOptions } from '../payments/pay-options';
import { telegramCharge } from '../../contract/telegram-limits';
import { listShownReceiptsOfRecord } from '../../db/repositories/customer-receipts';

/*
 * The booking page's view, built in this one place for every command that returns it (the API's
 * records, attendance and a gift's acceptance): the booking, its money, the ways to pay, its promo
 * code, the signed calendar link, its fiscal receipts and what the caller may do, in the caller's language.
 */

/** What the page needs from the installation beyond the database. */
export interface RecordPage {
  /** Signs the calendar link (left out without it). */
  secretKey?: string;
  /** Whether a booking can be paid by a Telegram invoice. */
  telegramInvoices: boolean;
}

/** The page of this installation: invoices need both the payment provider's token and the bot. */
export const recordPage = (c: {
  secretKey?: string;
  botToken?: string;
  paymentProviderToken?: string;
}): RecordPage => ({ secretKey: c.secretKey, telegramInvoices: Boolean(c.paymentProviderToken && c.botToken) });

/** `allowed` as `actor` reads it: a customer in their language, staff in Russian. */
export async function allowedFor(db: Executor, actor: Actor, allowed: RecordAllowed): Promise<RecordAllowed> {
  return actor.kind === 'customer' ? sayAllowed(allowed, await customerLanguage(db, actor.telegram_id)) : allowed;
}

/** The one seam through which the reasons of what may not be done are said in a language. */
export const sayAllowed = (allowed: RecordAllowed, language: Language): RecordAllowed =>
  localizeAllowed(allowed, language);

/**
 * The view of a command's result for `actor`. Money is read after the command committed: it includes
 * what followed it (credit spent or returned, the hold), unless the result carries its ledger (a view, or a
 * booking just made that paid nothing).
 */
export async function recordView(db: Executor, actor: Actor, r: RecordResult, page: RecordPage): Promise<RecordView> {
  const language = actor.kind === 'customer' ? await customerLanguage(db, actor.telegram_id) : 'ru';
  const reason = r.record.cancel_reason;
  const money = r.ledger ? moneyOf(r.record, r.ledger, r.settings) : await moneyOfRecord(db, r.record.id, r.settings);
  // Telegram's pay button only for an amount Telegram takes (else the page says to pay at the studio).
  const telegram =
    page.telegramInvoices && (money === undefined || !('refusal' in telegramCharge(money.pay_now, money.balance)));
  return {
    record: {
      ...toRecordPublic(r.record),
      cancel_reason: reason === null ? null : sayCancelReason(reason, language),
      promo_code: await promoCodeName(db, r.record.promo_code_id),
      schedule: r.schedule,
    },
    places_available: r.places_available,
    queue_position: r.queue_position,
    change_until: r.change_until,
    contact: r.contact,
    calendar_url: page.secretKey ? calendarPath(page.secretKey, r.record.id) : null,
    allowed: sayAllowed(r.allowed, language),
    money,
    pay: await payOptions(db, telegram, r.settings),
    receipts: (r.created ? [] : await listShownReceiptsOfRecord(db, r.record.id)).map((x) => ({
      id: x.id,
      invoice_number: x.invoice_number!,
      invoice_type: x.invoice_type,
      transaction_type: x.transaction_type,
      amount: x.total_amount ?? x.amount,
      issued_at: x.issued_at,
      verification_url: x.verification_url,
    })),
  };
}
