import { CERTIFICATE_MONTHS, type RecordSchedule } from '../../contract';
import type { Database, Executor } from '../../db/database';
import type { Actor } from '../kernel/actor';
import { Conflict } from '../kernel/errors';
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

/** Telegram payments as the studio set them up: absent (null) without a provider token or a bot. */
export interface Invoicing {
  providerToken: string;
  createInvoiceLink(params: InvoiceParams & { provider_token: string }): Promise<string>;
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
  return { url: await invoicing.createInvoiceLink({ ...params, provider_token: invoicing.providerToken }), amount };
}

/** What the mini-app offers to buy: the studio's amounts, whether Telegram takes the payment, how long it lasts. */
export const certificateOptions = async (db: Executor, invoicing: Invoicing | null) => ({
  amounts: await certificateAmounts(db),
  telegram: invoicing !== null,
  months: CERTIFICATE_MONTHS,
});

/**
 * A Telegram customer buys a certificate: it waits for its payment, with an invoice link when Telegram
 * takes payments (else staff are told and confirm it when the money arrives).
 */
export async function buyCertificate(
  database: Database,
  actor: Actor,
  input: { amount: number; recipient_name?: string | null; greeting?: string | null },
  buyerName: string | null,
  invoicing: Invoicing | null,
) {
  const c = await startPurchase(database, actor, input, {
    name: buyerName,
    telegramInvoices: invoicing !== null,
    amounts: await certificateAmounts(database.db),
  });
  const invoiceUrl = invoicing
    ? await invoicing.createInvoiceLink({ ...certificateInvoiceParams(c), provider_token: invoicing.providerToken })
    : null;
  return { id: c.id, amount: c.amount, status: 'pending' as const, invoice_url: invoiceUrl };
}
