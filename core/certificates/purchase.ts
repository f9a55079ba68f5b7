import { randomBytes } from 'node:crypto';
import { CERTIFICATE_MONTHS, CERTIFICATE_MSG, formatCertificateCode } from '../../contract';
import { type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import {
  getCertificate,
  getCertificateByInvoiceToken,
  insertCertificate,
  type CertificateWithBalance,
} from '../../db/repositories/certificates';
import { findPaymentByCharge } from '../../db/repositories/payments';
import { customerActor, type Actor } from '../kernel/actor';
import { Forbidden, Invalid, type FixedRefusalCode } from '../kernel/errors';
import { publish, type Published } from '../notify/publish';
import { getBusinessSettings } from '../kernel/settings';
import { CERTIFICATE_TEXTS } from '../ledger/certificate-spend';
import { appendCertificateSale } from '../ledger/ledger';
import { certificateAudit, freshCode, inMonths, onCertificate } from './certificate-rows';
import { recordSale } from './sale';

/* A certificate bought in Telegram: the request, Telegram's last check, and the payment. */

/** The amounts the mini-app offers: the studio's list. */
export const certificateAmounts = async (db: Executor): Promise<number[]> =>
  (await getBusinessSettings(db)).certificate_amounts;

/** How a Telegram invoice names a certificate: its invoice token, or its id (invoices made before tokens). */
export type CertificateRef = { id: number } | { token: string };

export const findCertificate = (db: Executor, ref: CertificateRef) =>
  'token' in ref ? getCertificateByInvoiceToken(db, ref.token) : getCertificate(db, ref.id);

/** A certificate's invoice token: random, so the invoice can name a certificate not written yet. */
const newInvoiceToken = () => randomBytes(16).toString('base64url');

/**
 * A Telegram customer starts a purchase: a certificate waiting for its payment (usable once paid).
 * Without Telegram payments staff are told, and confirm it when the money arrives. `invoice` makes its
 * Telegram invoice for the certificate's token first, outside any transaction (Telegram may take
 * seconds, and SQLite's one write lock must not wait on it): when it throws, no certificate is written;
 * then the certificate is written with its token in a short transaction.
 */
export async function startPurchase(
  database: Database,
  actor: Actor,
  input: { amount: number; recipient_name?: string | null; greeting?: string | null },
  buyer: {
    name: string | null;
    telegramInvoices: boolean;
    amounts: readonly number[];
    invoice?: (token: string) => Promise<void>;
  },
): Promise<CertificateWithBalance> {
  if (actor.kind !== 'customer') throw new Forbidden(CERTIFICATE_TEXTS.telegramOnly);
  if (!buyer.amounts.includes(input.amount)) throw new Invalid(CERTIFICATE_TEXTS.amountNotOffered);
  const token = buyer.invoice ? newInvoiceToken() : null;
  if (token) await buyer.invoice!(token);
  return withWriteTransaction(database, async (trx) => {
    const row = await insertCertificate(trx, {
      code: await freshCode(trx),
      kind: 'amount',
      amount: input.amount,
      places: null,
      buyer_name: buyer.name,
      buyer_telegram_id: actor.telegram_id,
      recipient_name: input.recipient_name || null,
      greeting: input.greeting || null,
      expires_at: inMonths(CERTIFICATE_MONTHS),
      created_by_user_id: null,
      invoice_token: token,
    });
    const c = { ...row, balance: 0 };
    const events: Published[] = [certificateAudit(actor, c, 'created', { amount: c.amount, requested: true })];
    if (!buyer.telegramInvoices)
      events.push({
        type: 'staff.alert',
        notification: {
          kind: 'staff.certificate',
          payload: {
            event: 'requested',
            code: formatCertificateCode(c.code),
            amount: c.amount,
            buyer_name: buyer.name,
          },
        },
      });
    await publish(trx, events);
    return c;
  });
}

/** Telegram's last check before charging for a certificate: null to accept, else the reason. */
export async function certificatePurchaseRefusal(
  db: Executor,
  ref: CertificateRef,
  fromId: number,
  amount: number,
): Promise<FixedRefusalCode | null> {
  const c = await findCertificate(db, ref);
  if (!c || c.buyer_telegram_id === null || Number(c.buyer_telegram_id) !== fromId) return CERTIFICATE_MSG.notFound;
  if (c.voided_at !== null) return CERTIFICATE_MSG.voided;
  if (c.paid_at !== null) return CERTIFICATE_TEXTS.notPending;
  if (amount !== c.amount) return 'certificateAmountChanged';
  return null;
}

/**
 * A Telegram payment for certificate `id` (one that exists: money for one that does not is the payer's
 * credit, as for a gone booking), recorded once per charge id (a replayed or concurrent delivery finds
 * the first and changes nothing). Money for a certificate no longer waiting (voided, or paid by another
 * charge) is kept in the ledger and staff are told to return it.
 */
export async function recordCertificatePayment(
  database: Database,
  id: number,
  p: { from_id: number; amount: number; telegram_payment_charge_id: string; provider_payment_charge_id: string },
): Promise<boolean> {
  const actor = customerActor(p.from_id);
  return onCertificate(database, id, async (trx, c) => {
    // The charge id is unique in the ledger: under the lock, a second delivery sees the first.
    if (await findPaymentByCharge(trx, p.telegram_payment_charge_id)) return { value: false, events: [] };
    const charge = {
      telegram_payment_charge_id: p.telegram_payment_charge_id,
      provider_payment_charge_id: p.provider_payment_charge_id,
    };
    if (c.paid_at === null && c.voided_at === null && p.amount === c.amount)
      return { value: true, events: await recordSale(trx, actor, c, 'telegram', charge) };
    // Not wanted any more: the money is the studio's to give back.
    const payment = await appendCertificateSale(trx, actor, {
      amount: p.amount,
      method: 'telegram',
      telegram_id: p.from_id,
      note: `${CERTIFICATE_TEXTS.saleNote(c.code)}: не ждал оплаты, вернуть покупателю`,
      ...charge,
    });
    return {
      value: true,
      events: [
        certificateAudit(actor, c, 'updated', { late_payment: p.amount, payment_id: payment.id }),
        {
          type: 'staff.alert',
          notification: {
            kind: 'staff.certificate',
            payload: {
              event: 'late',
              code: formatCertificateCode(c.code),
              amount: p.amount,
              buyer_telegram_id: p.from_id,
              buyer_name: c.buyer_name,
            },
          },
        },
      ],
    };
  });
}
