/*
 * The TaxCore ESIR ↔ PFR protocol, version 3 (the Serbian Tax Administration's L-PFR and V-PFR), as
 * plain types: what the ESIR (this product) sends and what the PFR answers. Field names are the
 * protocol's own. Amounts are decimal numbers in RSD on the wire; the product's are whole dinars.
 * Sources and what is not published: docs/fiscal.md, «The PFR protocol».
 */

export type InvoiceType = 'Normal' | 'Proforma' | 'Copy' | 'Training' | 'Advance';
export type TransactionType = 'Sale' | 'Refund';
export type PaymentType = 'Other' | 'Cash' | 'Card' | 'Check' | 'WireTransfer' | 'Voucher' | 'MobileMoney';

export interface InvoicePayment {
  amount: number;
  paymentType: PaymentType;
}

export interface InvoiceItem {
  gtin?: string | null;
  name: string;
  quantity: number;
  unitPrice: number;
  /** The tax labels (e.g. «Ђ», «А») the PFR's current rates define. */
  labels: string[];
  totalAmount: number;
}

/** `POST /api/v3/invoices`, with the `RequestId` header. */
export interface InvoiceRequest {
  /**
   * The ESIR's time of the transaction (ISO 8601). Sent only when the money came before the PFR sees it
   * (an Advance Sale for a bank transfer booked late); otherwise absent and the PFR's time stands.
   */
  dateAndTimeOfIssue?: string | null;
  cashier?: string | null;
  /**
   * `<code>:<number>` from the rulebook's table: 10 PIB, 11 JMBG, 12 PIB and JBKJS, 20 domestic ID card,
   * 21 refugee ID, 22 foreigner's ID (EBS), 23 passport … Required on every Refund.
   */
  buyerId?: string | null;
  buyerCostCenterId?: string | null;
  invoiceType: InvoiceType;
  transactionType: TransactionType;
  payment: InvoicePayment[];
  /** The ESIR's own number of the document (optional). */
  invoiceNumber?: string | null;
  /**
   * The PFR invoice number (`<requestedBy>-<signedBy>-<totalCounter>`) of the document this one refers to:
   * required on a Refund and a Copy (the sale refunded or copied), and on a final sale (its Advance Refund).
   */
  referentDocumentNumber?: string | null;
  /** That document's `sdcDateTime`; required with `referentDocumentNumber`. */
  referentDocumentDT?: string | null;
  options?: { omitQRCodeGen?: '0' | '1'; omitTextualRepresentation?: '0' | '1' };
  items: InvoiceItem[];
}

export interface TaxItem {
  categoryType: number;
  label: string;
  amount: number;
  rate: number;
  categoryName: string;
}

/** The PFR's answer to an invoice (also to `GET /api/v3/invoices/{requestId}`). */
export interface InvoiceResult {
  /** The UID (8 characters) of the secure element that was asked, and of the one that signed. */
  requestedBy: string;
  signedBy: string;
  sdcDateTime: string;
  /** `<transactionTypeCounter>/<totalCounter><extension>`, e.g. `100/138ПП`. */
  invoiceCounter: string;
  /** Invoice type letter then transaction letter: see INVOICE_COUNTER_EXTENSION. */
  invoiceCounterExtension: string;
  /** `<requestedBy>-<signedBy>-<totalCounter>`: what a refund or a copy names as its referent document. */
  invoiceNumber: string;
  taxItems: TaxItem[];
  verificationUrl: string;
  /** Base64 GIF of the verification QR code; null when the request's options omitted it. */
  verificationQRCode: string | null;
  /** The receipt as text, to print or send as is; null when the request's options omitted it. */
  journal: string | null;
  messages: string;
  signature: string;
  encryptedInternalData: string;
  totalCounter: number;
  transactionTypeCounter: number;
  totalAmount: number;
  taxGroupRevision: number;
  businessName: string;
  tin: string;
  locationName: string;
  address: string;
  district: string;
  mrc: string;
}

export interface TaxRate {
  rate: number;
  label: string;
}

export interface TaxCategory {
  name: string;
  categoryType: number;
  taxRates: TaxRate[];
  orderId: number;
}

export interface TaxRateGroup {
  validFrom: string;
  groupId: number;
  taxCategories: TaxCategory[];
}

/** `GET /api/v3/status`. Answered with 200 even while the PIN is required (then `gsc` has `1500`). */
export interface PfrStatus {
  isPinRequired: boolean;
  auditRequired: boolean;
  sdcDateTime: string;
  lastInvoiceNumber: string;
  protocolVersion: string;
  /** General status codes (see PFR_CODES: `0000` all fine, `1300` no secure element, `1500` PIN required). */
  gsc: string[];
  mssc?: string[];
  uid: string;
  taxCoreApi?: string;
  deviceSerialNumber?: string;
  make?: string;
  model?: string;
  softwareVersion?: string;
  hardwareVersion?: string;
  secureElementVersion?: string;
  currentTaxRates: TaxRateGroup;
  allTaxRates?: TaxRateGroup[];
  supportedLanguages?: string[];
}

/** `GET /api/v3/environment-parameters`. */
export interface EnvironmentParameters {
  organizationName: string;
  serverTimeZone: string;
  street: string;
  city: string;
  country: string;
  endpoints: Record<string, string>;
  environmentName: string;
  logo?: string;
  ntpServer?: string;
  supportedLanguages: string[];
}

/**
 * A 4xx answer of the JSON kind: the codes per field (`property` is the request's path, e.g.
 * `items[0].labels`, `buyerId`). Some L-PFRs answer a bare code as text/plain instead.
 */
export interface PfrErrorBody {
  message?: string;
  modelState?: { property: string; errors: string[] }[];
}

/**
 * The protocol's status and error codes this product acts on. 0xxx information, 1xxx warnings
 * (the device cannot sign now: waiting helps), 2xxx errors (the request or the PIN is wrong).
 */
export const PFR_CODES = {
  allOk: '0000',
  pinOk: '0100',
  internetAvailable: '0210',
  internetUnavailable: '0220',
  secureElementMissing: '1300',
  auditRequired: '1400',
  pinRequired: '1500',
  wrongPin: '2100',
  /** Too many wrong PINs: the secure element is locked until it is unblocked with its PUK. */
  cardLocked: '2110',
  invalidTaxLabels: '2310',
  fieldRequired: '2800',
  invalidLength: '2803',
  invalidValue: '2805',
} as const;

/**
 * `invoiceCounterExtension`: the invoice type's letter (Промет, Предрачун, Копија, Обука, Аванс) then
 * the transaction's (Продаја, Рефундација). Proforma's letter is not in the published texts we found:
 * `Р` (пРедрачун) as one simulator prints it, so that it differs from Normal.
 */
export const INVOICE_TYPE_LETTER: Record<InvoiceType, string> = {
  Normal: 'П',
  Proforma: 'Р',
  Copy: 'К',
  Training: 'О',
  Advance: 'А',
};
export const TRANSACTION_TYPE_LETTER: Record<TransactionType, string> = { Sale: 'П', Refund: 'Р' };
export const invoiceCounterExtension = (invoiceType: InvoiceType, transactionType: TransactionType) =>
  INVOICE_TYPE_LETTER[invoiceType] + TRANSACTION_TYPE_LETTER[transactionType];

/** Copies, proformas and training receipts carry this line: they are not fiscal receipts. */
export const NOT_A_FISCAL_RECEIPT = 'ОВО НИЈЕ ФИСКАЛНИ РАЧУН';
export const isFiscalInvoiceType = (t: InvoiceType) => t === 'Normal' || t === 'Advance';

/** The rulebook's buyer identification codes (`buyerId` = `<code>:<number>`). */
export const BUYER_ID_CODES = [
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '20',
  '21',
  '22',
  '23',
  '30',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '40',
] as const;
