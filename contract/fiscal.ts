import { z } from './zod';
import { normalizeBuyerNumber, parseBuyerId, type BuyerDocument } from './receipts';

/*
 * Fiscal receipts (Serbian e-fiscalization): the studio's settings and what staff see of each
 * receipt. The receipts themselves come from the PFR; the product never invents a tax rate.
 */

/** `lpfr`: the TaxCore ESIR ↔ PFR protocol v3 (L-PFR or V-PFR); `manual`: staff type the number from their own register; `off`. */
export const FiscalMode = z.enum(['off', 'lpfr', 'manual'], { error: 'Выберите: выключено, L-PFR/V-PFR или вручную' });
export type FiscalMode = z.infer<typeof FiscalMode>;

/**
 * When a gift certificate (a multi-purpose amount voucher) is fiscalized: `redemption` (no receipt at
 * the sale, the service's receipt is paid by Voucher) or `sale` (an advance receipt at the sale,
 * closed by the service's receipt). The law leaves multi-purpose vouchers open: the studio chooses.
 */
export const CertificateReceipts = z.enum(['redemption', 'sale'], {
  error: 'Выберите, когда выдавать чек за сертификат',
});
export type CertificateReceipts = z.infer<typeof CertificateReceipts>;

/**
 * Whether the delivery's Advance Refund (closing the advances when the final sale is issued; not
 * handed to the customer) carries the buyer's ID: `ask` (the conservative reading: unknown, it waits
 * for the customer's document) or `omit` (sent without it). Money actually paid back always names the
 * buyer. The law does not settle it: the studio chooses.
 */
export const CloseBuyerId = z.enum(['ask', 'omit'], {
  error: 'Выберите, нужен ли документ покупателя для закрытия аванса',
});
export type CloseBuyerId = z.infer<typeof CloseBuyerId>;

/** A tax label as the PFR's current rates define it (one or two letters, e.g. «Ђ», «А», «Г»). */
const TaxLabel = z.string().trim().min(1, 'Выберите налоговую метку').max(2, 'Налоговая метка: одна или две буквы');

export const FiscalSettings = z.object({
  fiscal_mode: FiscalMode,
  /** The PFR's base URL, e.g. `http://127.0.0.1:7555` for an L-PFR on the studio's computer. */
  fiscal_pfr_url: z.union([z.literal(''), z.url({ error: 'Адрес PFR: полный адрес, например http://127.0.0.1:7555' })]),
  /** Training: every receipt is sent as invoice type Training (no fiscal effect). */
  fiscal_training: z.boolean(),
  /** The cashier named on receipts. */
  fiscal_cashier: z.string().trim().max(50, 'Кассир: не больше 50 символов'),
  /** The labels the studio's workshops, certificates and passes carry. */
  fiscal_label_workshop: z.union([z.literal(''), TaxLabel]),
  fiscal_label_certificate: z.union([z.literal(''), TaxLabel]),
  fiscal_label_pass: z.union([z.literal(''), TaxLabel]),
  fiscal_certificate_receipts: CertificateReceipts,
  fiscal_close_buyer_id: CloseBuyerId,
});
export type FiscalSettings = z.infer<typeof FiscalSettings>;

export const DEFAULT_FISCAL_SETTINGS: FiscalSettings = {
  fiscal_mode: 'off',
  fiscal_pfr_url: '',
  fiscal_training: false,
  fiscal_cashier: '',
  fiscal_label_workshop: '',
  fiscal_label_certificate: '',
  fiscal_label_pass: '',
  fiscal_certificate_receipts: 'redemption',
  fiscal_close_buyer_id: 'ask',
};

export const FiscalSettingsUpdate = FiscalSettings.partial();
export type FiscalSettingsUpdate = z.infer<typeof FiscalSettingsUpdate>;

/** A receipt's state as staff see it: waiting (to send or, manual, to type), needs_buyer, issued, refused. */
export const FiscalReceiptState = z.enum(['waiting', 'needs_buyer', 'issued', 'refused']);
export type FiscalReceiptState = z.infer<typeof FiscalReceiptState>;

/* ---------- what staff see of receipts ---------- */

/** Staff's names of the four fiscal documents a ledger movement or a delivery gets. */
export const FiscalReceiptType = z.enum(['advance', 'sale', 'refund', 'advance_refund']);
export type FiscalReceiptType = z.infer<typeof FiscalReceiptType>;
export const FISCAL_RECEIPT_TYPE_LABELS: Record<FiscalReceiptType, string> = {
  advance: 'Аванс',
  sale: 'Продажа',
  refund: 'Возврат',
  advance_refund: 'Аванс: возврат',
};

export const FISCAL_RECEIPT_STATE_LABELS: Record<FiscalReceiptState, string> = {
  waiting: 'Ожидает',
  needs_buyer: 'Нужен документ покупателя',
  issued: 'Выдан',
  refused: 'Отклонён',
};

export const FISCAL_MODE_LABELS: Record<FiscalMode, string> = {
  off: 'Выключено',
  lpfr: 'L-PFR или V-PFR',
  manual: 'Вручную',
};

/** The protocol's payment types as staff read them. */
export const FISCAL_PAYMENT_TYPE_LABELS: Record<string, string> = {
  Cash: 'Наличные',
  Card: 'Карта',
  WireTransfer: 'Перевод',
  Voucher: 'Ваучер (сертификат)',
  MobileMoney: 'Мобильный платёж',
  Check: 'Чек',
  Other: 'Другое',
};

/** The invoice types and transactions as the daily report names them. */
export const FISCAL_INVOICE_TYPE_LABELS: Record<string, string> = {
  Normal: 'Промет',
  Advance: 'Аванс',
  Training: 'Обука (учебный)',
  Copy: 'Копия',
  Proforma: 'Предрачун',
};
export const FISCAL_TRANSACTION_LABELS: Record<string, string> = { Sale: 'Продажа', Refund: 'Возврат' };

/** A receipt as a row of the ledger or Касса shows it. */
export const FiscalReceiptBrief = z.object({
  id: z.number().int(),
  type: FiscalReceiptType,
  state: FiscalReceiptState,
  /** The PFR's number `<requestedBy>-<signedBy>-<counter>`; null until issued. */
  invoice_number: z.string().nullable(),
  /** Whole RSD, positive: the type says the direction. */
  amount: z.number().int(),
  payment_type: z.string(),
  mode: z.enum(['lpfr', 'manual']),
  /** A training receipt (no fiscal effect). */
  training: z.boolean(),
  /** Why it waits or was refused, as the sender last saw it. */
  last_error: z.string().nullable(),
  issued_at: z.string().nullable(),
});
export type FiscalReceiptBrief = z.infer<typeof FiscalReceiptBrief>;

/** One receipt in full: what the printable receipt shows. */
export const FiscalReceiptPublic = FiscalReceiptBrief.extend({
  invoice_type: z.string(),
  transaction_type: z.string(),
  /** The moment the money moved: the request's ESIR time. */
  esir_time: z.string(),
  /** The PFR's time of signing; null until issued. */
  sdc_time: z.string().nullable(),
  invoice_counter: z.string().nullable(),
  verification_url: z.string().nullable(),
  /** The verification QR code as an image (data URL); null when the PFR sent none. */
  verification_qr: z.string().nullable(),
  /** The receipt's text as the PFR rendered it, to print as it is. */
  journal: z.string().nullable(),
  record_id: z.number().int().nullable(),
  payment_id: z.number().int().nullable(),
  certificate_id: z.number().int().nullable(),
  /** The receipt this one refers to (a refund's sale, a final sale's advance refund). */
  referent: z.object({ id: z.number().int(), invoice_number: z.string().nullable() }).nullable(),
  /** Whether the buyer's identification is on it (the number itself is not shown back). */
  has_buyer_id: z.boolean(),
  /** The booking's customer and workshop, as the ledger row kept them. */
  customer_name: z.string().nullable(),
  workshop_title: z.string().nullable(),
  /** When it was first printed from the admin (the original); null: never. */
  printed_at: z.string().nullable(),
});
export type FiscalReceiptPublic = z.infer<typeof FiscalReceiptPublic>;

/** A receipt to print now: `copy` when it was printed before (then it is marked «ОВО НИЈЕ ФИСКАЛНИ РАЧУН»). */
export const FiscalReceiptPrint = FiscalReceiptPublic.extend({ copy: z.boolean() });
export type FiscalReceiptPrint = z.infer<typeof FiscalReceiptPrint>;

/** A PFR invoice number as staff type it in manual mode: `<8 letters or digits>-<8 letters or digits>-<counter>`. */
export const FISCAL_INVOICE_NUMBER = /^[A-Z0-9]{8}-[A-Z0-9]{8}-[1-9]\d{0,9}$/;

export const FiscalManualNumber = z.object({
  invoice_number: z
    .string({ error: 'Укажите номер чека' })
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(
      z
        .string()
        .regex(
          FISCAL_INVOICE_NUMBER,
          'Номер чека — как его печатает PFR: XXXXXXXX-XXXXXXXX-N (например RX4F7Y5L-RX4F7Y5L-138)',
        ),
    ),
});
export type FiscalManualNumber = z.input<typeof FiscalManualNumber>;

/**
 * The buyer's identification on a refund, as staff type it: the rulebook's code and the document's
 * number. The customers' documents (contract/buyer-id.ts: their shapes, a PIB's control digit) and,
 * for staff reading a domestic ID card, the JMBG.
 */
export const BUYER_ID_KINDS = {
  '20': { label: 'Лична карта (Сербия)', hint: '9 цифр' },
  '23': { label: 'Пасош (Сербия)', hint: '9 цифр' },
  '30': { label: 'Пасош (иностранный)', hint: 'от 5 до 17 букв и цифр' },
  '22': { label: 'ЕБС (иностранец)', hint: '13 цифр' },
  '11': { label: 'ЈМБГ', hint: '13 цифр' },
  '10': { label: 'ПИБ', hint: '9 цифр' },
} as const satisfies Record<BuyerDocument | '11', { label: string; hint: string }>;
export type BuyerIdCode = keyof typeof BUYER_ID_KINDS;
export const BUYER_ID_CODES_OFFERED = Object.keys(BUYER_ID_KINDS) as BuyerIdCode[];

const JMBG = /^\d{13}$/;

export const FiscalBuyerId = z
  .object({
    code: z.enum(BUYER_ID_CODES_OFFERED as [BuyerIdCode, ...BuyerIdCode[]], { error: 'Выберите вид документа' }),
    number: z
      .string({ error: 'Укажите номер документа' })
      .trim()
      .transform(normalizeBuyerNumber)
      .pipe(z.string().min(1, 'Укажите номер документа')),
  })
  .superRefine((b, ctx) => {
    const kind = BUYER_ID_KINDS[b.code];
    const problem =
      b.code === '11'
        ? JMBG.test(b.number)
          ? null
          : 'format'
        : ((r) => (r.ok ? null : r.problem))(parseBuyerId(b.code, b.number));
    if (problem === 'format')
      ctx.addIssue({ code: 'custom', path: ['number'], message: `${kind.label}: ${kind.hint}` });
    if (problem === 'checksum')
      ctx.addIssue({
        code: 'custom',
        path: ['number'],
        message: 'ПИБ: контрольная цифра не сходится, проверьте номер',
      });
  });
export type FiscalBuyerId = z.input<typeof FiscalBuyerId>;

/** `<code>:<number>` as the protocol's `buyerId` carries it. */
export const buyerIdOf = (b: { code: string; number: string }) => `${b.code}:${b.number}`;

/** The PIN of the PFR's secure element: four digits, sent to the PFR and never kept. */
export const FiscalPin = z.object({
  pin: z
    .string({ error: 'Введите PIN' })
    .trim()
    .regex(/^\d{4}$/, 'PIN: четыре цифры'),
});
export type FiscalPin = z.infer<typeof FiscalPin>;

/** «Проверить связь» with an address typed but not yet saved. */
export const FiscalCheck = FiscalSettings.pick({ fiscal_pfr_url: true });
export type FiscalCheck = z.infer<typeof FiscalCheck>;

/** A tax label the PFR's current rates define, to choose from. */
export const FiscalTaxLabel = z.object({ label: z.string(), rate: z.number(), category: z.string() });
export type FiscalTaxLabel = z.infer<typeof FiscalTaxLabel>;

/** What the PFR answered to `attention`, `status` and `environment-parameters`. */
export const FiscalProbe = z.object({
  url: z.string(),
  reachable: z.boolean(),
  /** Why it could not be asked (unreachable, refused), in Russian. */
  error: z.string().nullable(),
  pin_required: z.boolean(),
  /** The PFR's general status codes (`0000`, `1500` PIN required …). */
  gsc: z.array(z.string()),
  uid: z.string().nullable(),
  last_invoice_number: z.string().nullable(),
  environment: z.string().nullable(),
  labels: z.array(FiscalTaxLabel),
});
export type FiscalProbe = z.infer<typeof FiscalProbe>;

/** The fiscal outbox as the sender sees it. */
export const FiscalHealth = z.object({
  /** The PFR's state when the sender last spoke to it. */
  state: z.enum(['ok', 'pin_required', 'unreachable']),
  since: z.string().nullable(),
  last_error: z.string().nullable(),
  waiting: z.number().int(),
  needs_buyer: z.number().int(),
  refused: z.number().int(),
  oldest_waiting_at: z.string().nullable(),
});
export type FiscalHealth = z.infer<typeof FiscalHealth>;

export const FiscalStatus = z.object({
  mode: FiscalMode,
  training: z.boolean(),
  /** The PFR's answers (lpfr only; null otherwise). */
  pfr: FiscalProbe.nullable(),
  /** The sender's view of the PFR and its receipts (lpfr). */
  health: FiscalHealth,
  /** Manual mode's receipts still waiting for their number from the studio's register. */
  manual_waiting: z.number().int(),
});
export type FiscalStatus = z.infer<typeof FiscalStatus>;

/** Without `probe=false` the status asks the PFR (lpfr); the admin's banner reads it without. */
export const FiscalStatusQuery = z.object({
  probe: z.stringbool({ error: 'probe: true или false' }).default(true),
});
export type FiscalStatusQuery = z.input<typeof FiscalStatusQuery>;

export const FiscalReportQuery = z.object({
  date: z.iso
    .date({ error: 'Укажите дату: ГГГГ-ММ-ДД' })
    .refine((s) => Number(s.slice(0, 4)) >= 1900 && Number(s.slice(0, 4)) <= 2999, {
      message: 'Укажите дату с 1900 по 2999 год',
    }),
});
export type FiscalReportQuery = z.infer<typeof FiscalReportQuery>;

/** A receipt that keeps the report from agreeing, with the ledger row it is for. */
export const FiscalReportPending = FiscalReceiptBrief.extend({
  record_id: z.number().int().nullable(),
  payment_id: z.number().int().nullable(),
});

/** A real-money ledger row of the day that has no receipt at all. */
export const FiscalReportUnreceipted = z.object({
  payment_id: z.number().int(),
  record_id: z.number().int().nullable(),
  amount: z.number().int(),
  method: z.string(),
  at: z.string(),
  /** A certificate sold while the studio fiscalizes certificates when they are used: no receipt by its rule, not counted. */
  exempt: z.boolean(),
});

/** The studio's fiscal day: issued receipts by type and payment type beside the ledger's real money. */
export const FiscalReport = z.object({
  date: z.string(),
  /** The day's bounds (the studio's time zone), as instants. */
  from: z.string(),
  to: z.string(),
  mode: FiscalMode,
  /** Training receipts are among the day's. */
  training: z.boolean(),
  /** Issued receipts: invoice type × transaction × payment type. */
  rows: z.array(
    z.object({
      invoice_type: z.string(),
      transaction_type: z.string(),
      payment_type: z.string(),
      count: z.number().int(),
      amount: z.number().int(),
    }),
  ),
  /**
   * Per payment type: the issued receipts' net (sales less refunds) and the ledger's real money of the
   * day; a type no real money is paid in (Voucher) has no ledger figure and is not compared.
   */
  totals: z.array(
    z.object({
      payment_type: z.string(),
      receipts: z.number().int(),
      ledger: z.number().int().nullable(),
      difference: z.number().int().nullable(),
    }),
  ),
  agrees: z.boolean(),
  /** Receipts of the day not issued (waiting, needing the buyer's ID, refused). */
  pending: z.array(FiscalReportPending),
  /** Real-money rows of the day with no receipt written. */
  unreceipted: z.array(FiscalReportUnreceipted),
});
export type FiscalReport = z.infer<typeof FiscalReport>;
