import { CERTIFICATE_MONTHS, type RecordSchedule } from '../../contract';
import type { Database, Executor } from '../../db/database';
import type { Actor } from '../kernel/actor';
import { Conflict, Unavailable } from '../kernel/errors';
import type { ApiTexts } from '../language/api-texts';
import { certificateAmounts, startPurchase } from '../certificates/purchase';
import {
  certificateInvoiceParams,
  invoiceFor,
  invoiceParams,
  MONEY_MSG,
  type InvoiceParams,
  type InvoiceTexts,
} from './telegram';

/*
 * Telegram invoice links: for what a booking asks now, and for a gift certificate bought in the
 * mini-app. Whether one may be made, for which booking and how much is decided here; the caller only
 * says how the invoice reads in the customer's language.
 */

/**
 * Telegram payments as the studio set them up: absent (null) without a provider token or a bot.
 * createInvoiceLink throws Telegram's refusal as the Bot API says it (`error_code`, `description`),
 * or an error without a code when Telegram could not be reached.
 */
export interface Invoicing {
  providerToken: string;
  createInvoiceLink(params: InvoiceParams & { provider_token: string }): Promise<string>;
}

/**
 * An invoice link, or Telegram's refusal as an answer the customer can act on: a 400 refuses this
 * invoice whenever it is asked again (Conflict); unreachable, its 5xx or a rate limit pass (Unavailable).
 */
async function invoiceLink(invoicing: Invoicing, params: InvoiceParams): Promise<string> {
  try {
    return await invoicing.createInvoiceLink({ ...params, provider_token: invoicing.providerToken });
  } catch (err) {
    const code = (err as { error_code?: unknown } | null)?.error_code;
    if (code === 400) throw new Conflict('invoiceRefused');
    throw new Unavailable('invoiceUnavailable');
  }
}

/** How an invoice reads in the customer's language. */
export interface InvoiceWording {
  texts: InvoiceTexts;
  workshopTitle(workshop: RecordSchedule['workshop']): string;
  dateTime(iso: string): string;
}

/** A link to pay by Telegram what the caller's booking asks now; Conflict when Telegram payments are off or nothing is due. */
export async function bookingInvoice(
  database: Database,
  actor: Actor,
  recordId: number,
  invoicing: Invoicing | null,
  wording: InvoiceWording,
): Promise<{ url: string; amount: number }> {
  if (!invoicing) throw new Conflict(MONEY_MSG.noInvoices);
  const { record, schedule, amount } = await invoiceFor(database, actor, recordId);
  const params = invoiceParams(
    record,
    { workshop_title: wording.workshopTitle(schedule.workshop), date: schedule.date },
    amount,
    wording.dateTime(schedule.date),
    wording.texts,
  );
  return { url: await invoiceLink(invoicing, params), amount };
}

/** What the mini-app offers to buy: the studio's amounts, whether Telegram takes the payment, how long it lasts. */
export const certificateOptions = async (db: Executor, invoicing: Invoicing | null) => ({
  amounts: await certificateAmounts(db),
  telegram: invoicing !== null,
  months: CERTIFICATE_MONTHS,
});

/**
 * A Telegram customer buys a certificate: it waits for its payment, with an invoice link in the
 * buyer's language (`texts`) when Telegram takes payments (else staff are told and confirm it when the
 * money arrives). The link is made before the certificate is written: when Telegram refuses it, no
 * certificate is left waiting for a payment that cannot come.
 */
export async function buyCertificate(
  database: Database,
  actor: Actor,
  input: { amount: number; recipient_name?: string | null; greeting?: string | null },
  buyerName: string | null,
  invoicing: Invoicing | null,
  texts: ApiTexts,
) {
  let invoiceUrl: string | null = null;
  const c = await startPurchase(database, actor, input, {
    name: buyerName,
    telegramInvoices: invoicing !== null,
    amounts: await certificateAmounts(database.db),
    invoice: invoicing
      ? async (token) =>
          void (invoiceUrl = await invoiceLink(
            invoicing,
            certificateInvoiceParams({ token, amount: input.amount }, texts),
          ))
      : undefined,
  });
  return { id: c.id, amount: c.amount, status: 'pending' as const, invoice_url: invoiceUrl };
}
