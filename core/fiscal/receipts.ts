import type { FiscalSettings } from '../../contract/fiscal';
import { priceOf } from '../../contract/money';
import type { Executor } from '../../db/database';
import { advancesTakenBy, getLedgerRow } from '../../db/repositories/fiscal-advances';
import { getFiscalReceipt, type FiscalReceiptRow } from '../../db/repositories/fiscal';
import { promoCodeName } from '../../db/repositories/promo-codes';
import { getRecord } from '../../db/repositories/records';
import { getRecordSchedule } from '../../db/repositories/schedules';
import type { InvoiceItem, InvoicePayment, InvoiceRequest, PaymentType, TaxRateGroup } from './protocol';
import { getFiscalSettings } from './settings';

/*
 * Which receipts the money needs: one row of CASES per case, each naming when it applies, the
 * document (invoice and transaction type), its key, how its payments and items are made and what it
 * refers to. enqueue.ts classifies a ledger row or a delivery into a Movement and writes what the
 * matching rows say; requestFor turns a written row into the PFR's request body. Sources and the
 * decisions behind each case: docs/fiscal.md, «Cases».
 */

/** What happened, as the table reads it. */
export interface Movement {
  /** Real money in or out (cash, card, transfer, Telegram), money that is not (credit, certificates, adjustments), a service given. */
  what: 'in' | 'out' | 'other' | 'delivery';
  /** The booking's service was delivered already (its sale exists). */
  delivered: boolean;
  /** Cash or card staff took on the session's day for a booking not yet delivered: the delivery happens now. */
  door: boolean;
  /** A gift certificate sold, under the studio's setting (null: not a certificate's sale). */
  certificate: FiscalSettings['fiscal_certificate_receipts'] | null;
}

export type CaseName =
  | 'certificate_sold_uncounted'
  | 'door'
  | 'later_sale'
  | 'advance'
  | 'refund'
  | 'advance_refund'
  | 'close'
  | 'sale'
  | 'not_money';

export interface ReceiptCase {
  name: CaseName;
  /** When it applies, in words (docs/fiscal.md repeats the table). */
  when: string;
  applies: (m: Movement) => boolean;
  /** The document, or null: no receipt of its own (`note` says what happens instead). */
  receipt: {
    invoiceType: 'Normal' | 'Advance';
    transactionType: 'Sale' | 'Refund';
    /** `payment:<ledger id>`, `close:<record id>`, `sale:<record id>`. */
    key: 'payment' | 'close' | 'sale';
    /**
     * row: the ledger row's own amount and type; closed: the advances the booking holds, each by its
     * payment type; delivered: those, the door money and the certificate's part (Voucher).
     */
    payments: 'row' | 'closed' | 'delivered';
    /** advance: «Аванс» at the label of what it is for; workshop: the workshop (per person when paid in full). */
    items: 'advance' | 'workshop';
    /**
     * previous_advance: the booking's previous advance (each advance names the one before); returned:
     * the latest advance this money returns; closed: the latest advance the delivery closes; sale: the
     * booking's delivery sale; close: the delivery's advance refund.
     */
    references: 'none' | 'previous_advance' | 'returned' | 'closed' | 'sale' | 'close';
    /** A refund names the buyer (`needs_buyer` until the ID is known); the close only under fiscal_close_buyer_id `ask`. */
    buyer: boolean;
  } | null;
  note?: string;
}

const certificateSale = (m: Movement) => m.what === 'in' && m.certificate !== null;

/** First match wins for a ledger row; a delivery gets every row that applies (its close, then its sale). */
export const CASES: readonly ReceiptCase[] = [
  {
    name: 'certificate_sold_uncounted',
    when: 'a gift certificate sold, with fiscal_certificate_receipts = redemption',
    applies: (m) => certificateSale(m) && m.certificate === 'redemption',
    receipt: null,
    note: 'a multi-purpose voucher: no receipt at its sale; the service it pays is sold with payment type Voucher',
  },
  {
    name: 'door',
    when: 'cash or card staff take on the session’s day for an ACTIVE booking not yet delivered',
    applies: (m) => m.what === 'in' && m.door && !m.delivered,
    receipt: null,
    note: 'the booking is delivered now: its close and sale are written, the sale covering this row',
  },
  {
    name: 'later_sale',
    when: 'real money in for a booking whose sale was issued already',
    applies: (m) => m.what === 'in' && m.delivered,
    receipt: {
      invoiceType: 'Normal',
      transactionType: 'Sale',
      key: 'payment',
      payments: 'row',
      items: 'workshop',
      references: 'none',
      buyer: false,
    },
  },
  {
    name: 'advance',
    when: 'real money in before the service: a booking not delivered, an unbooked Telegram charge kept as credit, a certificate sold (setting sale)',
    applies: (m) => m.what === 'in',
    receipt: {
      invoiceType: 'Advance',
      transactionType: 'Sale',
      key: 'payment',
      payments: 'row',
      items: 'advance',
      references: 'previous_advance',
      buyer: false,
    },
  },
  {
    name: 'refund',
    when: 'real money out of a booking whose sale was issued',
    applies: (m) => m.what === 'out' && m.delivered,
    receipt: {
      invoiceType: 'Normal',
      transactionType: 'Refund',
      key: 'payment',
      payments: 'row',
      items: 'workshop',
      references: 'sale',
      buyer: true,
    },
  },
  {
    name: 'advance_refund',
    when: 'real money out before the service: a booking not delivered, an erased customer’s owed refund paid out',
    applies: (m) => m.what === 'out',
    receipt: {
      invoiceType: 'Advance',
      transactionType: 'Refund',
      key: 'payment',
      payments: 'row',
      items: 'advance',
      references: 'returned',
      buyer: true,
    },
  },
  {
    name: 'close',
    when: 'a delivery (check-in «пришёл», the session started, door money) of a booking holding advances',
    applies: (m) => m.what === 'delivery',
    receipt: {
      invoiceType: 'Advance',
      transactionType: 'Refund',
      key: 'close',
      payments: 'closed',
      items: 'advance',
      references: 'closed',
      buyer: true,
    },
  },
  {
    name: 'sale',
    when: 'a delivery of a booking that was paid anything',
    applies: (m) => m.what === 'delivery',
    receipt: {
      invoiceType: 'Normal',
      transactionType: 'Sale',
      key: 'sale',
      payments: 'delivered',
      items: 'workshop',
      references: 'close',
      buyer: false,
    },
  },
  {
    name: 'not_money',
    when: 'studio credit, certificate rows, adjustments',
    applies: (m) => m.what === 'other',
    receipt: null,
    note: 'no receipt: the advances behind the money move with it (booking ↔ credit ↔ certificate)',
  },
];

/** The rows of CASES a movement gets: the first that applies, or every delivery row. */
export function casesFor(m: Movement): ReceiptCase[] {
  if (m.what === 'delivery') return CASES.filter((c) => c.applies(m));
  const first = CASES.find((c) => c.applies(m));
  return first ? [first] : [];
}

export function caseNamed(name: string): ReceiptCase & { receipt: NonNullable<ReceiptCase['receipt']> } {
  const c = CASES.find((x) => x.name === name);
  if (!c?.receipt) throw new Error(`fiscal: no receipt case «${name}»`);
  return c as ReceiptCase & { receipt: NonNullable<ReceiptCase['receipt']> };
}

/** The ledger's real-money methods as the protocol's payment types. */
export const PAYMENT_TYPE_OF_METHOD: Record<string, PaymentType> = {
  cash: 'Cash',
  card: 'Card',
  // Paid through Telegram's payment provider: a card.
  telegram: 'Card',
  // IPS QR transfers arrive on the bank statement: a transfer to the account.
  bank_transfer: 'WireTransfer',
};

/** The `parts` column: the body's payments. */
export const partsOf = (r: Pick<FiscalReceiptRow, 'parts'>): InvoicePayment[] =>
  r.parts ? (JSON.parse(r.parts) as InvoicePayment[]) : [];

/** The PFR's label a studio chose is not one the PFR has (or none was chosen): the receipt cannot be sent as it is. */
export class FiscalLabelError extends Error {}

/** The receipt refers to one not yet issued: send that one first (see isReady). */
export class FiscalNotReady extends Error {}

/** The receipt it refers to is issued (or it refers to none): the sender may send it. */
export async function isReady(db: Executor, r: Pick<FiscalReceiptRow, 'referent_receipt_id'>): Promise<boolean> {
  if (r.referent_receipt_id === null) return true;
  return (await getFiscalReceipt(db, r.referent_receipt_id))?.state === 'issued';
}

const labelsOf = (rates: TaxRateGroup) => rates.taxCategories.flatMap((c) => c.taxRates.map((t) => t.label));

function checkedLabel(chosen: string, what: string, rates: TaxRateGroup): string {
  if (!chosen) throw new FiscalLabelError(`Не выбрана налоговая метка ${what}: Настройки → Фискализация`);
  const have = labelsOf(rates);
  if (!have.includes(chosen))
    throw new FiscalLabelError(
      `Налоговой метки «${chosen}» нет среди ставок PFR (есть: ${have.join(', ') || 'никаких'}): выберите метку ${what} в Настройки → Фискализация`,
    );
  return chosen;
}

/** The label a part of an advance carries: a certificate's sale the certificates' label (when chosen), else the workshops'. */
const advanceLabel = (s: FiscalSettings, certificateId: number | null) =>
  certificateId !== null && s.fiscal_label_certificate ? s.fiscal_label_certificate : s.fiscal_label_workshop;

const line = (name: string, quantity: number, unitPrice: number, label: string): InvoiceItem => ({
  name,
  quantity,
  unitPrice,
  labels: [label],
  totalAmount: quantity * unitPrice,
});

/**
 * The codebook's advance items, by the tax label they are at (the PFR prints the label beside the
 * name, so the name does not repeat it); written in Cyrillic, as the journal and our other items are.
 */
const ADVANCE_ITEM_CODE: Readonly<Record<string, number>> = { Ђ: 10, Е: 11, Г: 12, А: 13 };

/** «10: Аванс» at Ђ …; a label the codebook has no advance item for is plain «Аванс». */
const advanceItemName = (label: string) =>
  Object.hasOwn(ADVANCE_ITEM_CODE, label) ? `${ADVANCE_ITEM_CODE[label]}: Аванс` : 'Аванс';

const advanceItem = (amount: number, label: string) => line(advanceItemName(label), 1, amount, label);

/** An advance receipt's items: one «Аванс» line per label of the advances it closes or returns. */
async function advanceItems(db: Executor, r: FiscalReceiptRow, s: FiscalSettings, rates: TaxRateGroup) {
  if (r.kind === 'advance') {
    const label = checkedLabel(advanceLabel(s, r.certificate_id), labelWhat(r.certificate_id), rates);
    return [advanceItem(r.amount, label)];
  }
  const byLabel = new Map<string, number>();
  let left = r.amount;
  for (const part of await advancesTakenBy(db, r.id)) {
    const advance = await getFiscalReceipt(db, part.advance_id);
    const certificateId = advance?.certificate_id ?? null;
    const label = checkedLabel(advanceLabel(s, certificateId), labelWhat(certificateId), rates);
    const amount = Math.min(left, -part.amount);
    byLabel.set(label, (byLabel.get(label) ?? 0) + amount);
    left -= amount;
  }
  // Money paid back beyond what an advance receipt took in (paid before fiscalization began).
  if (left > 0) {
    const label = checkedLabel(s.fiscal_label_workshop, labelWhat(null), rates);
    byLabel.set(label, (byLabel.get(label) ?? 0) + left);
  }
  return [...byLabel].map(([label, amount]) => advanceItem(amount, label));
}

const labelWhat = (certificateId: number | null) => (certificateId !== null ? 'сертификатов' : 'мастер-классов');

/**
 * The workshop as sold: a delivery paid its whole price is the price per person × people (after the
 * promo discount: the protocol has no discount field, so the line's price is the discounted one, the
 * code in its name; a price that does not divide by the party is two lines a dinar apart); any other
 * amount is one line of that amount.
 */
async function workshopItems(db: Executor, r: FiscalReceiptRow, s: FiscalSettings, rates: TaxRateGroup) {
  const label = checkedLabel(s.fiscal_label_workshop, labelWhat(null), rates);
  const record = r.record_id !== null ? await getRecord(db, r.record_id) : undefined;
  const schedule = record ? await getRecordSchedule(db, record.schedule_id) : undefined;
  const payment = r.payment_id !== null ? await getLedgerRow(db, r.payment_id) : undefined;
  const title = schedule?.workshop.title ?? payment?.workshop_title ?? 'Мастер-клас';
  if (!record || r.kind !== 'sale' || priceOf(record) !== r.amount) return [line(title, 1, r.amount, label)];
  const code =
    record.price_override === null && record.discount > 0 ? await promoCodeName(db, record.promo_code_id) : null;
  const name = code ? `${title} (попуст ${code})` : title;
  const people = record.people_count;
  const unit = Math.floor(r.amount / people);
  const rest = r.amount - unit * people;
  return rest === 0
    ? [line(name, people, unit, label)]
    : [line(name, people - rest, unit, label), line(name, rest, unit + 1, label)];
}

/**
 * The request body of a written receipt, with the PFR's current tax labels (`rates`: what `/status`
 * reported). Training replaces Normal and Advance while the receipt was written in training. Throws
 * FiscalLabelError when a label the studio chose is not the PFR's (a message staff can act on), and
 * FiscalNotReady when the receipt it refers to is not issued yet.
 */
export async function requestFor(db: Executor, r: FiscalReceiptRow, rates: TaxRateGroup): Promise<InvoiceRequest> {
  const c = caseNamed(r.kind);
  const s = await getFiscalSettings(db);
  const referent = r.referent_receipt_id !== null ? await getFiscalReceipt(db, r.referent_receipt_id) : undefined;
  if (
    r.referent_receipt_id !== null &&
    (referent?.state !== 'issued' || !referent.invoice_number || !referent.sdc_time)
  )
    throw new FiscalNotReady(`Чек ${r.id} ссылается на чек ${r.referent_receipt_id}, который ещё не выдан`);
  const items =
    c.receipt.items === 'advance' ? await advanceItems(db, r, s, rates) : await workshopItems(db, r, s, rates);
  return {
    // The ESIR's time is an advance's: when the money moved (a transfer booked a day late keeps its day).
    ...(r.invoice_type === 'Advance' && { dateAndTimeOfIssue: r.esir_time }),
    ...(s.fiscal_cashier && { cashier: s.fiscal_cashier }),
    ...(r.buyer_id && { buyerId: r.buyer_id }),
    invoiceType: r.training ? 'Training' : r.invoice_type === 'Advance' ? 'Advance' : 'Normal',
    transactionType: r.transaction_type,
    payment: partsOf(r),
    ...(referent && { referentDocumentNumber: referent.invoice_number, referentDocumentDT: referent.sdc_time }),
    items,
  };
}
