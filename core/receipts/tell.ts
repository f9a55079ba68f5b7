import type { Database, Executor } from '../../db/database';
import { withLocks } from '../../db/lock';
import type { FiscalReceiptRow } from '../../db/repositories/fiscal';
import {
  getReceiptConsent,
  insertReceiptConsentAsked,
  listIssuedReceiptsOfCustomerSince,
  receiptCustomer,
  upsertReceiptConsent,
} from '../../db/repositories/customer-receipts';
import { nowIso } from '../../db/database';
import type { FiscalReceiptPayload } from '../notify/notifications';
import { publish, type MessageEvent } from '../notify/publish';

/*
 * The receipt reaches the customer: when the PFR has issued a receipt, its Telegram customer gets it
 * (its text, the verification link and QR code) if they agreed to receive receipts. The first receipt
 * of a customer who was never asked asks them, once; a «Да» then sends the receipts issued since.
 */

/** What the customer is sent of a receipt: only a real fiscal document the PFR rendered (not training, not typed by staff). */
const tellable = (r: FiscalReceiptRow) =>
  r.state === 'issued' &&
  !r.training &&
  r.invoice_number !== null &&
  (r.journal !== null || r.verification_url !== null);

function receiptMessage(r: FiscalReceiptRow, telegramId: number): MessageEvent {
  const payload: FiscalReceiptPayload = {
    receipt_id: r.id,
    record_id: r.record_id,
    telegram_id: telegramId,
    invoice_number: r.invoice_number!,
    invoice_type: r.invoice_type,
    transaction_type: r.transaction_type,
    amount: r.total_amount ?? r.amount,
    sdc_time: r.sdc_time,
    verification_url: r.verification_url,
    journal: r.journal,
    qr: r.verification_qr,
  };
  // Once per receipt, however often it is told (the issue, then a «Да» to the question).
  return {
    type: 'message',
    chat_id: telegramId,
    notification: { kind: 'fiscal.receipt', payload },
    dedupe_key: `fiscal.receipt:${r.id}`,
  };
}

/**
 * Tells a receipt's customer of it, in the transaction that stored the PFR's answer (the fiscal
 * sender calls it with the issued row): the receipt when they agreed, the question when they were
 * never asked, nothing otherwise (they said no, or have not answered yet: a «Да» sends it then).
 */
export async function tellReceipt(trx: Executor, receipt: FiscalReceiptRow): Promise<void> {
  if (!tellable(receipt)) return;
  const telegramId = await receiptCustomer(trx, receipt);
  if (telegramId === null) return;
  const consent = await getReceiptConsent(trx, telegramId);
  if (consent?.given === true) {
    await publish(trx, [receiptMessage(receipt, telegramId)]);
    return;
  }
  if (consent) return;
  // Asked once: the receipts issued from this one on are sent if they answer «Да».
  if (await insertReceiptConsentAsked(trx, telegramId, receipt.issued_at ?? nowIso()))
    await publish(trx, [
      {
        type: 'message',
        chat_id: telegramId,
        notification: { kind: 'fiscal.consent', payload: { receipt_id: receipt.id } },
      },
    ]);
}

/**
 * The customer's answer to the question, or a change of mind later (/mydata). Answering «Да» to the
 * question sends the receipts issued since it was asked; a later «Да» only the ones to come.
 * Returns how many receipts it sent.
 */
export async function answerReceiptConsent(database: Database, telegramId: number, given: boolean): Promise<number> {
  // The customer's lock: an erasure running now finishes first (and this answer is then a new one).
  return withLocks(database, { telegramIds: [telegramId] }, async (trx) => {
    const before = await getReceiptConsent(trx, telegramId);
    await upsertReceiptConsent(trx, telegramId, given);
    if (!given || !before || before.given !== null) return 0;
    const pending = (await listIssuedReceiptsOfCustomerSince(trx, telegramId, before.asked_at)).filter(tellable);
    await publish(
      trx,
      pending.map((r) => receiptMessage(r, telegramId)),
    );
    return pending.length;
  });
}

/** The customer's answer: true, false, null (asked, not answered) or undefined (never asked). */
export async function receiptConsentOf(db: Executor, telegramId: number): Promise<boolean | null | undefined> {
  return (await getReceiptConsent(db, telegramId))?.given;
}
