import http from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import {
  BUYER_ID_CODES,
  NOT_A_FISCAL_RECEIPT,
  PFR_CODES,
  invoiceCounterExtension,
  isFiscalInvoiceType,
  type EnvironmentParameters,
  type InvoiceRequest,
  type InvoiceResult,
  type InvoiceType,
  type PaymentType,
  type PfrStatus,
  type TaxItem,
  type TaxRateGroup,
  type TransactionType,
} from '../../core/fiscal/protocol';

/**
 * A fake PFR (an L-PFR as the TaxCore ESIR ↔ PFR protocol v3 describes it): a real HTTP server on
 * loopback answering `/api/v3/attention`, `/status`, `/pin`, `/environment-parameters`, `POST /invoices`
 * (with `RequestId`) and `GET /invoices/{requestId}`. It signs receipts with sequential counters, a
 * verification URL, a real QR code (a GIF, as the PFR sends) and a journal; locks on the PIN; keeps one
 * receipt per RequestId; refuses what the PFR refuses with its codes in `modelState`; and can be told to
 * time out after signing, answer 500, or drop the connection after signing (before or halfway through the
 * answer). Point the `lpfr` adapter at `url`.
 */

/** Where a fake keeps its device memory, for a restart with `from`. */
const MEMORY = Symbol('memory');

export type FailureKind = 'timeout' | '5xx' | 'drop' | 'cut';

/** A receipt the fake signed. */
export interface IssuedInvoice {
  requestId: string | null;
  request: InvoiceRequest;
  result: InvoiceResult;
}

/** Every request the fake saw, whatever it answered. */
export interface SeenRequest {
  method: string;
  path: string;
  /** The `RequestId` header. */
  requestId: string | null;
  acceptLanguage: string | null;
  /** The body, parsed as JSON when it is. */
  body: unknown;
  /** The HTTP status answered; null when the fake did not answer (timeout, drop). */
  status: number | null;
  at: number;
}

export interface FakePfrOptions {
  /** Listen on this port (to start a stopped fake again where it was). */
  port?: number;
  /** A stopped fake whose receipts and counters this one keeps, as a PFR restart does. */
  from?: FakePfr;
  pin?: string;
  pinRequired?: boolean;
  /** Wrong PINs in a row before the secure element locks (2110). */
  pinAttempts?: number;
  /** A PFR kept for rehearsal: it signs only invoice type Training (a test aid, not the protocol). */
  training?: boolean;
  /** The secure element's UID: `requestedBy`, `signedBy` and the invoice numbers carry it. */
  uid?: string;
  taxpayer?: Partial<Taxpayer>;
  taxRates?: TaxRateGroup;
  /**
   * Whether an Advance Refund without `buyerId` is refused (`2800`, the default) or signed: the sources
   * do not settle it for the Advance Refund that closes advances at the final sale. A Normal Refund
   * always needs it.
   */
  advanceRefundBuyerId?: 'required' | 'optional';
}

interface Taxpayer {
  businessName: string;
  tin: string;
  locationName: string;
  address: string;
  district: string;
}

export interface FakePfr {
  url: string;
  port: number;
  /** Receipts signed, in order (kept across a restart with `from`). */
  invoices: IssuedInvoice[];
  requests: SeenRequest[];
  /** While true, `POST /invoices` answers 1500 and `/status` says so; `POST /pin` with the right PIN clears it. */
  pinRequired: boolean;
  setPin(pin: string): void;
  /**
   * The next `count` `POST /invoices`: `timeout` signs and never answers, `5xx` answers 500 and signs
   * nothing, `drop` signs and closes the socket, `cut` signs and closes it halfway through the answer.
   */
  failNext(kind: FailureKind, count?: number): void;
  /** Delay every answer. */
  delayMs: number;
  training: boolean;
  /** The receipt signed for a RequestId. */
  invoiceFor(requestId: string): IssuedInvoice | undefined;
  waitFor(pred: (fake: FakePfr) => boolean, timeoutMs?: number): Promise<void>;
  /** A fresh device: no receipts, counters from zero, no failures, no delay, unlocked. */
  reset(): void;
  /** Stops listening; open requests (a held timeout) are cut. */
  close(): Promise<void>;
}

/** Serbia's labels as the Tax Administration's PFRs publish them (names illustrative). */
export const FAKE_TAX_RATES: TaxRateGroup = {
  validFrom: '2024-01-01T00:00:00.000+01:00',
  groupId: 7,
  taxCategories: [
    {
      name: 'ПДВ',
      categoryType: 0,
      orderId: 1,
      taxRates: [
        { rate: 20, label: 'Ђ' },
        { rate: 10, label: 'Е' },
      ],
    },
    { name: 'без ПДВ', categoryType: 0, orderId: 2, taxRates: [{ rate: 0, label: 'Г' }] },
    { name: 'Није у ПДВ', categoryType: 0, orderId: 3, taxRates: [{ rate: 0, label: 'А' }] },
  ],
};

export const FAKE_TAXPAYER: Taxpayer = {
  businessName: 'Кулинарски студио ДОО',
  tin: '112233445',
  locationName: 'Кулинарски студио',
  address: 'Краља Петра 10',
  district: 'Београд',
};

const INVOICE_TYPES: InvoiceType[] = ['Normal', 'Proforma', 'Copy', 'Training', 'Advance'];
const TRANSACTION_TYPES: TransactionType[] = ['Sale', 'Refund'];
const PAYMENT_LABELS: Record<PaymentType, string> = {
  Other: 'Друго безготовинско плаћање',
  Cash: 'Готовина',
  Card: 'Платна картица',
  Check: 'Чек',
  WireTransfer: 'Пренос на рачун',
  Voucher: 'Ваучер',
  MobileMoney: 'Инстант плаћање',
};
const TYPE_TITLES: Record<InvoiceType, string> = {
  Normal: 'ПРОМЕТ',
  Proforma: 'ПРЕДРАЧУН',
  Copy: 'КОПИЈА',
  Training: 'ОБУКА',
  Advance: 'АВАНС',
};
const TRANSACTION_TITLES: Record<TransactionType, string> = { Sale: 'ПРОДАЈА', Refund: 'РЕФУНДАЦИЈА' };

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const isDate = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** 3.000,00: the receipt's number format. */
const money = (n: number) => {
  const [whole, cents] = Math.abs(n).toFixed(2).split('.');
  return `${n < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${cents}`;
};

/** The counters and receipts a PFR keeps on its secure element: a restart (with `from`) keeps them. */
interface Memory {
  invoices: IssuedInvoice[];
  byRequestId: Map<string, IssuedInvoice>;
  /** Per invoice type + transaction type: `transactionTypeCounter`. */
  typeCounters: Map<string, number>;
}

type FieldErrors = { property: string; errors: string[] }[];

/** What the PFR checks in a `POST /invoices` body, with its codes per field. */
function validate(
  body: unknown,
  labels: Set<string>,
  training: boolean,
  advanceRefundBuyerId: 'required' | 'optional',
): FieldErrors {
  const out: FieldErrors = [];
  const fail = (property: string, code: string) => {
    const entry = out.find((e) => e.property === property);
    if (entry) entry.errors.push(code);
    else out.push({ property, errors: [code] });
  };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    fail('', PFR_CODES.fieldRequired);
    return out;
  }
  const b = body as Record<string, unknown>;
  if (blank(b.invoiceType)) fail('invoiceType', PFR_CODES.fieldRequired);
  else if (!INVOICE_TYPES.includes(b.invoiceType as InvoiceType)) fail('invoiceType', PFR_CODES.invalidValue);
  else if (training && b.invoiceType !== 'Training') fail('invoiceType', PFR_CODES.invalidValue);
  if (blank(b.transactionType)) fail('transactionType', PFR_CODES.fieldRequired);
  else if (!TRANSACTION_TYPES.includes(b.transactionType as TransactionType))
    fail('transactionType', PFR_CODES.invalidValue);
  if (!blank(b.dateAndTimeOfIssue) && !isDate(b.dateAndTimeOfIssue)) fail('dateAndTimeOfIssue', PFR_CODES.invalidValue);
  for (const field of ['cashier', 'buyerId', 'buyerCostCenterId', 'invoiceNumber', 'referentDocumentNumber'] as const) {
    if (!blank(b[field]) && (typeof b[field] !== 'string' || (b[field] as string).length > 50))
      fail(field, PFR_CODES.invalidLength);
  }
  if (!blank(b.buyerId) && typeof b.buyerId === 'string') {
    const m = /^(\d{2}):(.+)$/.exec(b.buyerId);
    if (!m || !(BUYER_ID_CODES as readonly string[]).includes(m[1])) fail('buyerId', PFR_CODES.invalidValue);
  }
  // A refund names the buyer and the receipt it refunds; a copy names the receipt it copies.
  const buyerOptional = advanceRefundBuyerId === 'optional' && b.invoiceType === 'Advance';
  if (b.transactionType === 'Refund' && blank(b.buyerId) && !buyerOptional) fail('buyerId', PFR_CODES.fieldRequired);
  if (b.transactionType === 'Refund' || b.invoiceType === 'Copy') {
    if (blank(b.referentDocumentNumber)) fail('referentDocumentNumber', PFR_CODES.fieldRequired);
    if (blank(b.referentDocumentDT)) fail('referentDocumentDT', PFR_CODES.fieldRequired);
  }
  if (!blank(b.referentDocumentNumber) && typeof b.referentDocumentNumber === 'string') {
    if (!/^[A-Z0-9]{8}-[A-Z0-9]{4,8}-\d+$/.test(b.referentDocumentNumber))
      fail('referentDocumentNumber', PFR_CODES.invalidValue);
  }
  if (!blank(b.referentDocumentDT) && !isDate(b.referentDocumentDT)) fail('referentDocumentDT', PFR_CODES.invalidValue);

  let itemsTotal = 0;
  if (!Array.isArray(b.items) || b.items.length === 0) fail('items', PFR_CODES.fieldRequired);
  else
    b.items.forEach((raw: unknown, i) => {
      const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      const at = `items[${i}]`;
      if (blank(item.name)) fail(`${at}.name`, PFR_CODES.fieldRequired);
      else if (typeof item.name !== 'string' || item.name.length > 2048) fail(`${at}.name`, PFR_CODES.invalidLength);
      for (const field of ['quantity', 'unitPrice', 'totalAmount'] as const) {
        if (blank(item[field])) fail(`${at}.${field}`, PFR_CODES.fieldRequired);
        else if (!isNumber(item[field]) || (item[field] as number) < 0) fail(`${at}.${field}`, PFR_CODES.invalidValue);
      }
      if (isNumber(item.quantity) && item.quantity === 0) fail(`${at}.quantity`, PFR_CODES.invalidValue);
      if (isNumber(item.quantity) && isNumber(item.unitPrice) && isNumber(item.totalAmount)) {
        if (round2(item.quantity * item.unitPrice) !== round2(item.totalAmount))
          fail(`${at}.totalAmount`, PFR_CODES.invalidValue);
        itemsTotal += item.totalAmount;
      }
      if (!Array.isArray(item.labels) || item.labels.length === 0) fail(`${at}.labels`, PFR_CODES.fieldRequired);
      else if (item.labels.some((l) => typeof l !== 'string' || !labels.has(l)))
        fail(`${at}.labels`, PFR_CODES.invalidTaxLabels);
    });

  let paid = 0;
  if (!Array.isArray(b.payment) || b.payment.length === 0) fail('payment', PFR_CODES.fieldRequired);
  else {
    b.payment.forEach((raw: unknown, i) => {
      const p = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      const at = `payment[${i}]`;
      if (blank(p.paymentType)) fail(`${at}.paymentType`, PFR_CODES.fieldRequired);
      else if (!Object.hasOwn(PAYMENT_LABELS, String(p.paymentType))) fail(`${at}.paymentType`, PFR_CODES.invalidValue);
      if (blank(p.amount)) fail(`${at}.amount`, PFR_CODES.fieldRequired);
      else if (!isNumber(p.amount) || p.amount < 0) fail(`${at}.amount`, PFR_CODES.invalidValue);
      else paid += p.amount;
    });
    // Stricter than a PFR that prints change: this product always pays exactly what the items total.
    if (out.length === 0 && round2(paid) !== round2(itemsTotal)) fail('payment', PFR_CODES.invalidValue);
  }
  return out;
}

/**
 * A GIF of the QR code's modules, as the PFR's `verificationQRCode` is. LZW with a clear code every two
 * pixels keeps every code a literal of three bits, so no string table is needed.
 */
function qrGif(text: string, scale = 4, margin = 4): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = (modules.size + 2 * margin) * scale;
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  const put = (code: number) => {
    acc |= code << bits;
    bits += 3;
    while (bits >= 8) {
      bytes.push(acc & 0xff);
      acc >>= 8;
      bits -= 8;
    }
  };
  const CLEAR = 4;
  const END = 5;
  put(CLEAR);
  let run = 0;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const r = Math.floor(y / scale) - margin;
      const c = Math.floor(x / scale) - margin;
      const dark = r >= 0 && c >= 0 && r < modules.size && c < modules.size && modules.get(r, c);
      put(dark ? 1 : 0);
      if (++run === 2) {
        put(CLEAR);
        run = 0;
      }
    }
  }
  put(END);
  if (bits > 0) bytes.push(acc & 0xff);
  const le = (n: number) => [n & 0xff, n >> 8];
  const out = [
    ...Buffer.from('GIF89a'),
    ...le(side),
    ...le(side),
    0x80, // a global table of two colours
    0,
    0,
    ...[0xff, 0xff, 0xff, 0, 0, 0],
    0x2c,
    ...le(0),
    ...le(0),
    ...le(side),
    ...le(side),
    0,
    2, // LZW minimum code size
  ];
  for (let i = 0; i < bytes.length; i += 255) {
    const block = bytes.slice(i, i + 255);
    out.push(block.length, ...block);
  }
  out.push(0, 0x3b);
  return Buffer.from(out).toString('base64');
}

const WIDTH = 40;
const center = (text: string, fill = ' ') => {
  const pad = Math.max(0, WIDTH - text.length);
  return fill.repeat(Math.floor(pad / 2)) + text + fill.repeat(Math.ceil(pad / 2));
};
const pair = (left: string, right: string) => left + right.padStart(Math.max(1, WIDTH - left.length));

/** The receipt as text, laid out as the PFR prints it (40 columns). */
function journalOf(req: InvoiceRequest, res: Omit<InvoiceResult, 'journal'>): string {
  const fiscal = isFiscalInvoiceType(req.invoiceType);
  const refund = req.transactionType === 'Refund';
  const frame = fiscal ? center(' ФИСКАЛНИ РАЧУН ', '=') : center(` ${NOT_A_FISCAL_RECEIPT} `, '=');
  const lines = [frame, res.tin, res.businessName, res.locationName, res.address, res.district];
  if (req.cashier) lines.push(pair('Касир:', req.cashier));
  if (req.buyerId) lines.push(pair('ИД купца:', req.buyerId));
  if (req.buyerCostCenterId) lines.push(pair('Опционо поље купца:', req.buyerCostCenterId));
  if (req.invoiceNumber) lines.push(pair('ЕСИР број:', req.invoiceNumber));
  if (req.dateAndTimeOfIssue) lines.push(pair('ЕСИР време:', req.dateAndTimeOfIssue));
  if (req.referentDocumentNumber) lines.push(pair('Реф. број:', req.referentDocumentNumber));
  if (req.referentDocumentDT) lines.push(pair('Реф. време:', req.referentDocumentDT));
  lines.push(center(`${TYPE_TITLES[req.invoiceType]} ${TRANSACTION_TITLES[req.transactionType]}`, '-'));
  lines.push('Артикли', center('', '='), 'Назив   Цена         Кол.         Укупно');
  const sign = refund ? -1 : 1;
  for (const item of req.items) {
    lines.push(`${item.name} (${item.labels.join(', ')})`);
    lines.push(
      `${money(item.unitPrice).padStart(14)}${String(item.quantity).padStart(10)}${money(sign * item.totalAmount).padStart(16)}`,
    );
  }
  lines.push(center('', '-'));
  lines.push(pair(refund ? 'Укупан износ рефундације:' : 'Укупан износ:', money(sign * res.totalAmount)));
  for (const p of req.payment) lines.push(pair(`${PAYMENT_LABELS[p.paymentType]}:`, money(sign * p.amount)));
  lines.push(center('', '='));
  if (!fiscal) lines.push(center(NOT_A_FISCAL_RECEIPT), center('', '='));
  lines.push('Ознака       Име      Стопа        Порез');
  let tax = 0;
  for (const t of res.taxItems) {
    tax += t.amount;
    lines.push(
      `${t.label.padEnd(6)}${t.categoryName.padEnd(12)}${`${t.rate}%`.padStart(8)}${money(sign * t.amount).padStart(14)}`,
    );
  }
  lines.push(center('', '-'), pair('Укупан износ пореза:', money(sign * round2(tax))), center('', '='));
  lines.push(pair('ПФР време:', res.sdcDateTime), pair('ПФР број рачуна:', res.invoiceNumber));
  lines.push(pair('Бројач рачуна:', res.invoiceCounter), center('', '='));
  lines.push(fiscal ? center(' КРАЈ ФИСКАЛНОГ РАЧУНА ', '=') : frame);
  return lines.join('\r\n') + '\r\n';
}

export async function startFakePfr(opts: FakePfrOptions = {}): Promise<FakePfr> {
  const uid = opts.uid ?? 'TESTPFR1';
  const taxpayer = { ...FAKE_TAXPAYER, ...opts.taxpayer };
  const taxRates = opts.taxRates ?? FAKE_TAX_RATES;
  const rates = new Map<string, { rate: number; categoryType: number; categoryName: string }>();
  for (const category of taxRates.taxCategories)
    for (const r of category.taxRates)
      rates.set(r.label, { rate: r.rate, categoryType: category.categoryType, categoryName: category.name });

  const previous = opts.from as (FakePfr & { [MEMORY]?: Memory }) | undefined;
  const memory: Memory = previous?.[MEMORY] ?? { invoices: [], byRequestId: new Map(), typeCounters: new Map() };
  let pin = opts.pin ?? '1234';
  const pinAttempts = opts.pinAttempts ?? 5;
  let wrongPins = 0;
  let locked = false;
  let failures: FailureKind[] = [];
  const held = new Set<http.ServerResponse>();

  const sdcNow = () => new Date().toISOString();

  function sign(requestId: string | null, req: InvoiceRequest): IssuedInvoice {
    const totalCounter = memory.invoices.length + 1;
    const key = `${req.invoiceType}:${req.transactionType}`;
    const transactionTypeCounter = (memory.typeCounters.get(key) ?? 0) + 1;
    memory.typeCounters.set(key, transactionTypeCounter);
    const extension = invoiceCounterExtension(req.invoiceType, req.transactionType);
    const invoiceNumber = `${uid}-${uid}-${totalCounter}`;
    const totalAmount = round2(req.items.reduce((s, i) => s + i.totalAmount, 0));
    const byLabel = new Map<string, number>();
    for (const item of req.items)
      for (const label of item.labels) byLabel.set(label, (byLabel.get(label) ?? 0) + item.totalAmount);
    // Prices include the tax: the tax in a gross amount is gross × rate / (100 + rate).
    const taxItems: TaxItem[] = [...byLabel].map(([label, gross]) => {
      const r = rates.get(label)!;
      return {
        categoryType: r.categoryType,
        label,
        amount: round2((gross * r.rate) / (100 + r.rate)),
        rate: r.rate,
        categoryName: r.categoryName,
      };
    });
    const sdcDateTime = sdcNow();
    const vl = Buffer.from(JSON.stringify({ invoiceNumber, totalAmount, sdcDateTime })).toString('base64url');
    const verificationUrl = `https://tap.sandbox.suf.purs.gov.rs/v/?vl=${vl}`;
    const result: Omit<InvoiceResult, 'journal'> = {
      requestedBy: uid,
      signedBy: uid,
      sdcDateTime,
      invoiceCounter: `${transactionTypeCounter}/${totalCounter}${extension}`,
      invoiceCounterExtension: extension,
      invoiceNumber,
      taxItems,
      verificationUrl,
      verificationQRCode: req.options?.omitQRCodeGen === '1' ? null : qrGif(verificationUrl),
      messages: 'Успешно',
      signature: Buffer.from(`${invoiceNumber}:${totalAmount}`).toString('base64'),
      encryptedInternalData: Buffer.from(`${uid}:${totalCounter}:${transactionTypeCounter}`).toString('base64'),
      totalCounter,
      transactionTypeCounter,
      totalAmount,
      taxGroupRevision: taxRates.groupId,
      ...taxpayer,
      mrc: `01-0001-${uid}`,
    };
    const issued: IssuedInvoice = {
      requestId,
      request: req,
      result: { ...result, journal: req.options?.omitTextualRepresentation === '1' ? null : journalOf(req, result) },
    };
    memory.invoices.push(issued);
    if (requestId) memory.byRequestId.set(requestId, issued);
    return issued;
  }

  function status(): PfrStatus {
    const gsc: string[] = locked
      ? [PFR_CODES.cardLocked]
      : fake.pinRequired
        ? [PFR_CODES.pinRequired]
        : [PFR_CODES.allOk];
    gsc.push(PFR_CODES.internetAvailable);
    return {
      isPinRequired: fake.pinRequired || locked,
      auditRequired: false,
      sdcDateTime: sdcNow(),
      lastInvoiceNumber: memory.invoices.at(-1)?.result.invoiceNumber ?? '',
      protocolVersion: '2.0',
      secureElementVersion: '2.0.0',
      hardwareVersion: '1.0',
      softwareVersion: '1.0.0',
      deviceSerialNumber: `01-0001-${uid}`,
      make: 'Test',
      model: 'Fake L-PFR',
      mssc: [],
      gsc,
      supportedLanguages: ['sr-Cyrl-RS', 'sr-Latn-RS', 'en-US'],
      uid,
      taxCoreApi: 'https://api.sandbox.suf.purs.gov.rs/',
      currentTaxRates: taxRates,
      allTaxRates: [taxRates],
    };
  }

  const environment: EnvironmentParameters = {
    organizationName: 'Пореска управа Републике Србије',
    serverTimeZone: 'Central Europe Standard Time',
    street: 'Саве Машковића 3-5',
    city: 'Београд',
    country: 'RS',
    endpoints: {
      taxpayerAdminPortal: 'https://tap.sandbox.suf.purs.gov.rs/',
      taxCoreApi: 'https://api.sandbox.suf.purs.gov.rs/',
      vsdc: 'https://vsdc.sandbox.suf.purs.gov.rs/',
      root: 'https://sandbox.suf.purs.gov.rs/',
    },
    environmentName: 'Sandbox',
    ntpServer: 'time.windows.com',
    supportedLanguages: ['sr-Cyrl-RS', 'sr-Latn-RS', 'en-US'],
  };

  const fake: FakePfr & { [MEMORY]: Memory } = {
    [MEMORY]: memory,
    url: '',
    port: 0,
    invoices: memory.invoices,
    requests: [],
    pinRequired: opts.pinRequired ?? false,
    delayMs: 0,
    training: opts.training ?? false,
    setPin(next) {
      pin = next;
    },
    failNext(kind, count = 1) {
      for (let i = 0; i < count; i++) failures.push(kind);
    },
    invoiceFor: (requestId) => memory.byRequestId.get(requestId),
    async waitFor(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(fake)) {
        if (Date.now() > deadline)
          throw new Error(
            `fake PFR: condition not met in ${timeoutMs} ms; requests: ${fake.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    reset() {
      memory.invoices.length = 0;
      memory.byRequestId.clear();
      memory.typeCounters.clear();
      fake.requests.length = 0;
      fake.pinRequired = false;
      fake.delayMs = 0;
      fake.training = opts.training ?? false;
      failures = [];
      wrongPins = 0;
      locked = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.socket?.destroy();
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handle(Buffer.concat(chunks).toString('utf8')));

    async function handle(raw: string) {
      const path = (req.url ?? '').split('?')[0];
      let body: unknown = raw;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        // Kept as text: a PIN may come as plain digits.
      }
      const header = (name: string) => {
        const v = req.headers[name];
        return typeof v === 'string' ? v : null;
      };
      const seen: SeenRequest = {
        method: req.method ?? '',
        path,
        requestId: header('requestid'),
        acceptLanguage: header('accept-language'),
        body,
        status: null,
        at: Date.now(),
      };
      fake.requests.push(seen);
      const answer = (status: number, json: unknown) => {
        seen.status = status;
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(json));
      };
      const refuse = (modelState: FieldErrors, status = 400) => answer(status, { message: 'Bad Request', modelState });
      if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));

      const route = `${req.method} ${path}`;
      if (route === 'GET /api/v3/attention') return answer(200, null);
      if (route === 'GET /api/v3/status') return answer(200, status());
      if (route === 'GET /api/v3/environment-parameters') return answer(200, environment);
      if (route === 'POST /api/v3/pin') {
        if (locked) return answer(200, PFR_CODES.cardLocked);
        const given = typeof body === 'number' ? String(body) : typeof body === 'string' ? body.trim() : '';
        if (given === pin) {
          wrongPins = 0;
          fake.pinRequired = false;
          return answer(200, PFR_CODES.pinOk);
        }
        if (++wrongPins >= pinAttempts) {
          locked = true;
          return answer(200, PFR_CODES.cardLocked);
        }
        return answer(200, PFR_CODES.wrongPin);
      }
      const lookup = /^\/api\/v3\/invoices\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && lookup) {
        const issued = memory.byRequestId.get(decodeURIComponent(lookup[1]));
        return issued ? answer(200, issued.result) : answer(404, { message: 'Not Found' });
      }
      if (route === 'POST /api/v3/invoices') {
        if (locked) return refuse([{ property: '', errors: [PFR_CODES.cardLocked] }]);
        if (fake.pinRequired) return refuse([{ property: '', errors: [PFR_CODES.pinRequired] }]);
        const requestId = seen.requestId;
        if (requestId !== null && (requestId.length === 0 || requestId.length > 32))
          return refuse([{ property: 'RequestId', errors: [PFR_CODES.invalidLength] }]);
        const failure = failures.shift();
        if (failure === '5xx') return answer(500, { message: 'An error has occurred.' });
        // One receipt per RequestId: a request sent again gets the receipt already signed.
        const known = requestId ? memory.byRequestId.get(requestId) : undefined;
        let issued = known;
        if (!issued) {
          const errors = validate(body, new Set(rates.keys()), fake.training, opts.advanceRefundBuyerId ?? 'required');
          if (errors.length > 0) return refuse(errors);
          issued = sign(requestId, body as InvoiceRequest);
        }
        if (failure === 'timeout') {
          held.add(res);
          res.on('close', () => held.delete(res));
          return;
        }
        if (failure === 'drop') {
          req.socket.destroy();
          return;
        }
        if (failure === 'cut') {
          const json = JSON.stringify(issued.result);
          res.writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(json),
          });
          res.write(json.slice(0, json.length >> 1), () => res.socket?.destroy());
          return;
        }
        return answer(200, issued.result);
      }
      return answer(404, { message: 'Not Found' });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}
