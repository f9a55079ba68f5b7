import type { FiscalReceiptBrief, FiscalReceiptPublic, FiscalReceiptType, FiscalReport } from '../../contract/fiscal';
import type { FiscalState, PaymentPublic, RecordLedger } from '../../contract/money';
import { startOfStudioDay } from '../../contract/format';
import { bool, type Executor } from '../../db/database';
import { getFiscalReceipt, type FiscalReceiptRow } from '../../db/repositories/fiscal';
import {
  getReceiptWithSubject,
  listRealMoneyBetween,
  listReceiptsBetween,
  listReceiptsOfPaymentsOrRecords,
} from '../../db/repositories/fiscal-staff';
import { NotFound } from '../kernel/errors';
import { PAYMENT_TYPE_OF_METHOD, partsOf } from './receipts';
import { getFiscalSettings } from './settings';

/*
 * What staff read of fiscal receipts: each ledger row's receipt, one receipt in full (to print), and
 * the day's report that sets the issued receipts beside the ledger's real money. Reads only.
 */

export const RECEIPT_NOT_FOUND = 'fiscalReceiptNotFound';

/**
 * Staff's name of the document: an advance and its refund, a sale and its refund. A training receipt
 * goes to the PFR as Training, so its case (the mapping's `kind`) tells whether it stands for an advance.
 */
export function receiptType(
  r: Pick<FiscalReceiptRow, 'invoice_type' | 'transaction_type' | 'kind'>,
): FiscalReceiptType {
  const advance = r.invoice_type === 'Advance' || (r.invoice_type === 'Training' && /advance|close/.test(r.kind));
  if (r.transaction_type === 'Refund') return advance ? 'advance_refund' : 'refund';
  return advance ? 'advance' : 'sale';
}

export const toReceiptBrief = (r: FiscalReceiptRow): FiscalReceiptBrief => ({
  id: r.id,
  type: receiptType(r),
  state: r.state,
  invoice_number: r.invoice_number,
  amount: r.amount,
  payment_type: r.payment_type,
  mode: r.mode,
  training: bool(r.training) || r.invoice_type === 'Training',
  last_error: r.last_error,
  issued_at: r.issued_at,
});

/** The ledger rows a delivery's receipt covers besides its own (`covers`, a JSON list of ids). */
function coveredIds(r: FiscalReceiptRow): number[] {
  if (!r.covers) return [];
  try {
    const ids: unknown = JSON.parse(r.covers);
    return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
}

/**
 * Each ledger row's receipt: its own (the movement's), else the delivery's receipt that covers it (money
 * taken at the door, a certificate, credit spent on the day the service was given).
 */
function receiptsByPayment(receipts: FiscalReceiptRow[], paymentIds: number[]): Map<number, FiscalReceiptBrief> {
  const out = new Map<number, FiscalReceiptBrief>();
  const own = new Map(receipts.filter((r) => r.payment_id !== null).map((r) => [r.payment_id!, r]));
  const covering = new Map<number, FiscalReceiptRow>();
  // A sale covers a row before an advance refund does: the sale is the receipt the money ends up on.
  for (const r of [...receipts].sort((a, b) => Number(receiptType(a) === 'sale') - Number(receiptType(b) === 'sale')))
    for (const id of coveredIds(r)) covering.set(id, r);
  for (const id of paymentIds) {
    const r = own.get(id) ?? covering.get(id);
    if (r) out.set(id, toReceiptBrief(r));
  }
  return out;
}

/** The receipts of some ledger rows (a desk page): by ledger id. */
export async function receiptsOfPayments(
  db: Executor,
  payments: { id: number; record_id: number | null }[],
): Promise<Map<number, FiscalReceiptBrief>> {
  if (payments.length === 0) return new Map();
  const recordIds = [...new Set(payments.map((p) => p.record_id).filter((id): id is number => id !== null))];
  const receipts = await listReceiptsOfPaymentsOrRecords(
    db,
    payments.map((p) => p.id),
    recordIds,
  );
  return receiptsByPayment(
    receipts,
    payments.map((p) => p.id),
  );
}

/** A booking's receipts: each ledger row's, and every receipt of the booking (the delivery's among them), oldest first. */
export async function receiptsOfRecord(
  db: Executor,
  recordId: number,
  paymentIds: number[],
): Promise<{ byPayment: Map<number, FiscalReceiptBrief>; all: FiscalReceiptBrief[] }> {
  const receipts = await listReceiptsOfPaymentsOrRecords(db, paymentIds, [recordId]);
  return { byPayment: receiptsByPayment(receipts, paymentIds), all: receipts.map(toReceiptBrief) };
}

/** A booking's ledger rows with their receipts, every receipt of the booking, and the studio's fiscal mode. */
export async function ledgerWithReceipts(
  db: Executor,
  recordId: number,
  payments: PaymentPublic[],
): Promise<Pick<RecordLedger, 'payments' | 'receipts' | 'fiscal'>> {
  const { byPayment, all } = await receiptsOfRecord(
    db,
    recordId,
    payments.map((p) => p.id),
  );
  return {
    payments: payments.map((p) => ({ ...p, receipt: byPayment.get(p.id) ?? null })),
    receipts: all,
    fiscal: await fiscalState(db),
  };
}

/** The fiscal mode and training, as pages beside receipts say them. */
export async function fiscalState(db: Executor): Promise<FiscalState> {
  const s = await getFiscalSettings(db);
  return { mode: s.fiscal_mode, training: s.fiscal_training };
}

/** The PFR sends the QR code as base64 GIF; the page shows it as an image. */
const qrImage = (qr: string | null) =>
  qr === null || qr === '' ? null : qr.startsWith('data:') ? qr : `data:image/gif;base64,${qr}`;

/** One receipt in full, with what it refers to and whose it is. */
export async function receiptView(db: Executor, id: number): Promise<FiscalReceiptPublic> {
  const r = await getReceiptWithSubject(db, id);
  if (!r) throw new NotFound(RECEIPT_NOT_FOUND);
  const referent = r.referent_receipt_id === null ? undefined : await getFiscalReceipt(db, r.referent_receipt_id);
  return {
    ...toReceiptBrief(r),
    invoice_type: r.invoice_type,
    transaction_type: r.transaction_type,
    esir_time: r.esir_time,
    sdc_time: r.sdc_time,
    invoice_counter: r.invoice_counter,
    verification_url: r.verification_url,
    verification_qr: qrImage(r.verification_qr),
    journal: r.journal,
    record_id: r.record_id,
    payment_id: r.payment_id,
    certificate_id: r.certificate_id,
    referent: referent ? { id: referent.id, invoice_number: referent.invoice_number } : null,
    has_buyer_id: r.buyer_id !== null && r.buyer_id !== '',
    customer_name: r.customer_name,
    workshop_title: r.workshop_title,
    printed_at: r.printed_at,
  };
}

/** What a receipt was paid in: its parts (a delivery's sale has several), else its own amount and type. */
function paymentsOf(r: FiscalReceiptRow): { paymentType: string; amount: number }[] {
  const parts = partsOf(r);
  return parts.length > 0
    ? parts.map((p) => ({ paymentType: p.paymentType, amount: Math.round(p.amount) }))
    : [{ paymentType: r.payment_type, amount: r.amount }];
}

/** Invoice types that move money in the books: a copy or a proforma does not. */
const COUNTED = new Set(['Normal', 'Advance', 'Training']);
/** The payment types real money of the ledger is paid in: only these are compared. */
const MONEY_TYPES = new Set<string>(Object.values(PAYMENT_TYPE_OF_METHOD));
const TYPE_ORDER = ['Cash', 'Card', 'WireTransfer', 'MobileMoney', 'Check', 'Voucher', 'Other'];
const byTypeOrder = (a: string, b: string) =>
  (TYPE_ORDER.indexOf(a) + 1 || 99) - (TYPE_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b);

/**
 * The studio's fiscal day (in its time zone): the issued receipts by invoice type × transaction ×
 * payment type, their net per payment type beside the ledger's real money that moved that day, and what
 * keeps them apart (receipts not issued, money with no receipt). They agree when nothing does.
 */
export async function fiscalReport(db: Executor, date: string, timeZone: string): Promise<FiscalReport> {
  const from = startOfStudioDay(date, timeZone);
  const to = startOfStudioDay(date, timeZone, 1);
  const settings = await getFiscalSettings(db);
  const receipts = await listReceiptsBetween(db, from, to);
  const groups = new Map<string, FiscalReport['rows'][number]>();
  const net = new Map<string, number>();
  for (const r of receipts) {
    if (r.state !== 'issued' || !COUNTED.has(r.invoice_type)) continue;
    const sign = r.transaction_type === 'Refund' ? -1 : 1;
    for (const p of paymentsOf(r)) {
      const key = `${r.invoice_type}|${r.transaction_type}|${p.paymentType}`;
      const g = groups.get(key) ?? {
        invoice_type: r.invoice_type,
        transaction_type: r.transaction_type,
        payment_type: p.paymentType,
        count: 0,
        amount: 0,
      };
      g.count += 1;
      g.amount += p.amount;
      groups.set(key, g);
      net.set(p.paymentType, (net.get(p.paymentType) ?? 0) + sign * p.amount);
    }
  }
  const fiscalizing = settings.fiscal_mode !== 'off';
  const ledger = new Map<string, number>();
  const unreceipted: FiscalReport['unreceipted'] = [];
  for (const p of await listRealMoneyBetween(db, from, to)) {
    const exempt = bool(p.certificate_sale) && settings.fiscal_certificate_receipts === 'redemption';
    if (!bool(p.has_receipt) && fiscalizing)
      unreceipted.push({
        payment_id: p.id,
        record_id: p.record_id,
        amount: p.amount,
        method: p.method,
        at: p.at,
        exempt,
      });
    if (exempt) continue;
    const type = PAYMENT_TYPE_OF_METHOD[p.method];
    ledger.set(type, (ledger.get(type) ?? 0) + p.amount);
  }
  const types = [...new Set([...net.keys(), ...ledger.keys()])].sort(byTypeOrder);
  const totals = types.map((payment_type) => {
    const receiptsNet = net.get(payment_type) ?? 0;
    const money = MONEY_TYPES.has(payment_type) ? (ledger.get(payment_type) ?? 0) : null;
    return {
      payment_type,
      receipts: receiptsNet,
      ledger: money,
      difference: money === null ? null : receiptsNet - money,
    };
  });
  const pending = receipts
    .filter((r) => r.state !== 'issued')
    .map((r) => ({ ...toReceiptBrief(r), record_id: r.record_id, payment_id: r.payment_id }));
  const rows = [...groups.values()].sort(
    (a, b) =>
      a.invoice_type.localeCompare(b.invoice_type) ||
      a.transaction_type.localeCompare(b.transaction_type) ||
      byTypeOrder(a.payment_type, b.payment_type),
  );
  return {
    date,
    from,
    to,
    mode: settings.fiscal_mode,
    training: receipts.some((r) => bool(r.training) || r.invoice_type === 'Training'),
    rows,
    totals,
    agrees:
      totals.every((t) => t.difference === null || t.difference === 0) &&
      pending.length === 0 &&
      unreceipted.every((u) => u.exempt),
    pending,
    unreceipted,
  };
}
