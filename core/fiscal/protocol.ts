/*
 * The TaxCore ESIR ↔ PFR protocol, version 3 (the Serbian Tax Administration's L-PFR and V-PFR), as
 * plain types: what the ESIR (this product) sends and what the PFR answers. Field names are the
 * protocol's own. Amounts are decimal numbers in RSD on the wire; the product's are whole dinars.
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
  /** The ESIR's time of the transaction (ISO 8601). */
  dateAndTimeOfIssue?: string | null;
  cashier?: string | null;
  /** `<code>:<number>`: 10 PIB, 11 JMBG, 20 domestic ID card, 21 refugee ID, 22 foreigner's ID, 23 passport … */
  buyerId?: string | null;
  buyerCostCenterId?: string | null;
  invoiceType: InvoiceType;
  transactionType: TransactionType;
  payment: InvoicePayment[];
  /** The ESIR's own number of the document (optional). */
  invoiceNumber?: string | null;
  /** The PFR invoice number of the document this one refers to (a refund's sale, a final sale's advance refund). */
  referentDocumentNumber?: string | null;
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
  requestedBy: string;
  signedBy: string;
  sdcDateTime: string;
  invoiceCounter: string;
  invoiceCounterExtension: string;
  invoiceNumber: string;
  taxItems: TaxItem[];
  verificationUrl: string;
  /** Base64 GIF of the verification QR code. */
  verificationQRCode: string | null;
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

/** `GET /api/v3/status`. */
export interface PfrStatus {
  isPinRequired: boolean;
  auditRequired: boolean;
  sdcDateTime: string;
  lastInvoiceNumber: string;
  protocolVersion: string;
  /** General status codes (e.g. `0000` all fine, `1300` no secure element, `1500` PIN required). */
  gsc: string[];
  mssc?: string[];
  uid: string;
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
  ntpServer?: string;
  supportedLanguages: string[];
}
