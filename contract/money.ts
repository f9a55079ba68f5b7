import { z } from './zod';
import { idParam } from './common';
import { DateRange, PageQuery } from './paging';
import { FiscalMode, FiscalReceiptBrief } from './fiscal';

/*
 * Money as the API carries it: whole RSD everywhere (Telegram's invoices alone use minor units).
 */

export const PREPAYMENTS = ['none', 'deposit', 'full'] as const;
export const Prepayment = z.enum(PREPAYMENTS);
export type Prepayment = z.infer<typeof Prepayment>;
export const PREPAYMENT_LABELS: Record<Prepayment, string> = {
  none: 'Оплата на месте',
  deposit: 'Депозит при записи',
  full: 'Полная предоплата',
};

export const REFUND_TO = ['credit', 'refund'] as const;
export const RefundTo = z.enum(REFUND_TO);
export type RefundTo = z.infer<typeof RefundTo>;
export const REFUND_TO_LABELS: Record<RefundTo, string> = {
  credit: 'На баланс клиента в студии',
  refund: 'Возврат денег',
};

export const PAYMENT_METHODS = ['cash', 'card', 'bank_transfer', 'telegram', 'credit', 'certificate'] as const;
export const PaymentMethod = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof PaymentMethod>;
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Наличные',
  card: 'Карта в студии',
  bank_transfer: 'Банковский перевод',
  telegram: 'Telegram',
  credit: 'Баланс в студии',
  certificate: 'Сертификат',
};

export const PAYMENT_KINDS = ['payment', 'refund', 'adjustment'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
export const PAYMENT_KIND_LABELS: Record<PaymentKind, string> = {
  payment: 'Оплата',
  refund: 'Возврат',
  adjustment: 'Корректировка баланса в студии',
};

export const PAYMENT_STATUSES = ['unpaid', 'deposit_paid', 'paid', 'refund_owed', 'refunded', 'credited'] as const;
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;
/** The badge on a booking row. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  unpaid: 'Не оплачено',
  deposit_paid: 'Депозит',
  paid: 'Оплачено',
  refund_owed: 'К возврату',
  refunded: 'Возвращено',
  credited: 'На балансе в студии',
};

/** What staff record at the desk. */
export const DESK_METHODS = ['cash', 'card', 'bank_transfer'] as const;
/** Where a refund went. */
export const REFUND_METHODS = ['cash', 'card', 'bank_transfer', 'telegram', 'credit'] as const;

const amount = z
  .number({ error: 'Укажите сумму в динарах' })
  .int('Сумма — целое число динаров')
  .min(1, 'Сумма должна быть больше нуля')
  .max(10_000_000, 'Сумма слишком большая');
const note = z.string().trim().max(500, 'Комментарий: не больше 500 символов').nullable().optional();

/** A payment recorded by staff; without an amount, the booking's balance. */
export const PaymentCreate = z.object({
  amount: amount.optional(),
  method: z.enum(DESK_METHODS, { error: 'Способ оплаты: наличные, карта или перевод' }),
  note,
});
export type PaymentCreate = z.input<typeof PaymentCreate>;

/**
 * A refund recorded by staff after they made it; without an amount, what is owed. More than is owed
 * (a goodwill refund) only when it says so, with the reason in `note`.
 */
export const RefundCreate = z
  .object({
    amount: amount.optional(),
    method: z.enum(REFUND_METHODS, { error: 'Укажите, куда вернули деньги' }),
    note,
    over_owed: z.boolean().optional(),
  })
  .refine((r) => !r.over_owed || !!r.note, {
    path: ['note'],
    error: 'Укажите, почему возвращаете больше причитающегося',
  });
export type RefundCreate = z.input<typeof RefundCreate>;

/** A staff price per person for a booking (it follows the party; null: back to the fixed price), with the reason (audited). */
export const PriceOverride = z.object({
  price: z.number({ error: 'Укажите цену' }).int('Цена — целое число динаров').min(0).max(10_000_000).nullable(),
  reason: z.string().trim().min(1, 'Укажите причину').max(500),
});
export type PriceOverride = z.infer<typeof PriceOverride>;

/** A booking's money, derived from its price and its ledger. */
export const RecordMoney = z.object({
  /** The price fixed at booking (× people, less a promo code's discount), or staff's price per person × people. */
  price: z.number().int(),
  unit_price: z.number().int(),
  /** What a promo code took off unit_price × people (a part of the price, not a payment). */
  discount: z.number().int().optional(),
  /** Staff's price per person (null: none); an older total override is shown as its price per person. */
  price_override: z.number().int().nullable(),
  /** What the booking costs now: its price, nothing once cancelled. */
  amount_due: z.number().int(),
  /** Received minus returned, on this booking. */
  amount_paid: z.number().int(),
  /** Still to pay (> 0) or to give back (< 0). */
  balance: z.number().int(),
  status: PaymentStatus,
  /** What must be paid by pay_by to keep the seats (the deposit or the whole price); 0 without prepayment. */
  required_now: z.number().int(),
  /** The end of the seat hold, null when none. */
  pay_by: z.string().nullable(),
  /** Paid from the customer's studio credit. */
  paid_by_credit: z.number().int(),
  /** Paid from gift certificates (net of what cancels gave back to them). */
  paid_by_certificate: z.number().int().optional(),
  /** What a payment now should be (the rest of the deposit while it is short, else the balance); 0: nothing to pay. */
  pay_now: z.number().int(),
});
export type RecordMoney = z.infer<typeof RecordMoney>;

/** How the customer can pay this booking now. */
export const PayOptions = z.object({
  /** A Telegram invoice can be created (the provider token is set). */
  telegram: z.boolean(),
  /** An IPS QR bank transfer is possible (the studio's account is set). */
  ips_qr: z.boolean(),
  /** The plain transfer details when ips_qr. */
  bank_account: z.string().nullable(),
  bank_recipient: z.string().nullable(),
});
export type PayOptions = z.infer<typeof PayOptions>;

export const PaymentPublic = z.object({
  id: z.number().int(),
  record_id: z.number().int().nullable(),
  amount: z.number().int(),
  method: PaymentMethod,
  kind: z.enum(PAYMENT_KINDS),
  recorded_by_kind: z.enum(['staff', 'customer', 'system']),
  recorded_by_user_id: z.number().int().nullable(),
  telegram_payment_charge_id: z.string().nullable(),
  provider_payment_charge_id: z.string().nullable(),
  note: z.string().nullable(),
  at: z.string(),
});
export type PaymentPublic = z.infer<typeof PaymentPublic>;

/** What the staff member reading a booking's ledger may do with it (computed on the server). */
export const LedgerAllowed = z.object({
  pay: z.boolean(),
  /** The desk methods they may record (a host: cash or card). */
  methods: z.array(z.enum(DESK_METHODS)),
  refund: z.boolean(),
  override_price: z.boolean(),
  adjust_credit: z.boolean(),
});
export type LedgerAllowed = z.infer<typeof LedgerAllowed>;

/** The studio's fiscal mode and whether its receipts are training ones: what a staff page says beside receipts. */
export const FiscalState = z.object({ mode: FiscalMode, training: z.boolean() });
export type FiscalState = z.infer<typeof FiscalState>;

/** A ledger row with its fiscal receipt (its own, or the delivery's that covers it); null: none written. */
export const LedgerPayment = PaymentPublic.extend({ receipt: FiscalReceiptBrief.nullable() });
export type LedgerPayment = z.infer<typeof LedgerPayment>;

export const RecordLedger = z.object({
  money: RecordMoney,
  payments: z.array(LedgerPayment),
  /** Every fiscal receipt of the booking, oldest first (the delivery's among them). */
  receipts: z.array(FiscalReceiptBrief),
  fiscal: FiscalState,
  /** The promo code whose discount (money.discount) is a part of the price; null: none. */
  promo_code: z.string().nullable().optional(),
  allowed: LedgerAllowed,
});
export type RecordLedger = z.infer<typeof RecordLedger>;

/** The cash desk's period (at most EXPORT_MAX_DAYS; without dates the bookings export's default) and method. */
export const CashDeskQuery = DateRange.extend({
  method: PaymentMethod.optional(),
  /** `missing`: real money whose receipt is not issued yet («без чека»). */
  receipt: z.enum(['missing'], { error: 'receipt: только missing (без чека)' }).optional(),
});
export type CashDeskQuery = z.input<typeof CashDeskQuery>;
/** The same with a page of its rows. */
export const CashDeskListQuery = CashDeskQuery.extend(PageQuery.shape);
export type CashDeskListQuery = z.input<typeof CashDeskListQuery>;

/** A ledger row in the cash desk list, with its booking's customer and session (kept after they are gone). */
export const CashDeskRow = LedgerPayment.extend({
  customer_name: z.string().nullable(),
  workshop_title: z.string().nullable(),
  schedule_date: z.string().nullable(),
});
export type CashDeskRow = z.infer<typeof CashDeskRow>;

export const CashDesk = z.object({
  /** Net per method in the range (payments minus refunds). */
  totals: z.record(z.string(), z.number().int()),
  /** Received in the range (positive rows, credit spending excluded: it is not new money). */
  received: z.number().int(),
  /** Returned in the range (refunds paid out, credit excluded). */
  refunded: z.number().int(),
  /** What bookings owe their customers back now. */
  refunds_owed: z.number().int(),
  /** Customers' studio credit, all together, now. */
  credit_outstanding: z.number().int(),
  /**
   * Gift certificates: sold in the range (money received, counted in `received` too), spent on
   * bookings net of what cancels gave back (money used), written off at expiry or by a void, and
   * what usable certificates hold now (owed to their holders). Places certificates count here in RSD as
   * sold (what the buyer paid) and as redeemed (the value their places covered); what they hold and what
   * of them was written off are places, apart (their value is unknown until used).
   */
  certificates: z.object({
    sold: z.number().int(),
    redeemed: z.number().int(),
    expired: z.number().int(),
    voided: z.number().int(),
    outstanding: z.number().int(),
    /** Places left on usable places certificates, now. */
    outstanding_places: z.number().int(),
    /** Places written off in the range: at expiry, by a void. */
    expired_places: z.number().int(),
    voided_places: z.number().int(),
  }),
  /** One page of the period's ledger rows, newest first. */
  payments: z.array(CashDeskRow),
  fiscal: FiscalState,
  /** The period's ledger rows, all pages together. */
  count: z.number().int(),
  /** The period applied (`to` exclusive): the one asked for, or the default when none was. */
  from: z.string(),
  to: z.string(),
});
export type CashDesk = z.infer<typeof CashDesk>;

export const CustomerCredit = z.object({ balance: z.number().int() });

/** A superuser's change of a customer's studio credit: signed whole dinars and why. */
export const CreditAdjustment = z.object({
  amount: z
    .number({ error: 'Укажите сумму в динарах' })
    .int('Сумма — целое число динаров')
    .min(-10_000_000, 'Сумма слишком большая')
    .max(10_000_000, 'Сумма слишком большая')
    .refine((n) => n !== 0, 'Сумма не может быть нулевой'),
  reason: z.string().trim().min(1, 'Укажите причину').max(500, 'Причина: не больше 500 символов'),
});
export type CreditAdjustment = z.infer<typeof CreditAdjustment>;
export type CustomerCredit = z.infer<typeof CustomerCredit>;

export const InvoiceLink = z.object({ url: z.string(), amount: z.number().int() });
export type InvoiceLink = z.infer<typeof InvoiceLink>;

export const IpsQr = z.object({ text: z.string(), image: z.string() });
export type IpsQr = z.infer<typeof IpsQr>;

export const RecordIdParam = z.object({ id: idParam });

/** A Serbian account number: 3 digits of the bank, 13 of the account, 2 control digits. */
export const BANK_ACCOUNT_MSG = 'Номер счёта: 18 цифр (банк-счёт-контрольные цифры), контрольные цифры не сходятся';

/**
 * The account as 18 digits: "160-5100000000000-12" or "160-51-12" (the middle part is padded to 13
 * digits with zeros, as banks print it short), spaces allowed. Null when it is not one.
 */
export function normalizeBankAccount(input: string): string | null {
  const s = input.replace(/\s/g, '');
  const parts = s.split('-');
  let digits: string;
  if (parts.length === 3 && /^\d{3}$/.test(parts[0]) && /^\d{1,13}$/.test(parts[1]) && /^\d{2}$/.test(parts[2]))
    digits = parts[0] + parts[1].padStart(13, '0') + parts[2];
  else if (/^\d{18}$/.test(s)) digits = s;
  else return null;
  return bankAccountValid(digits) ? digits : null;
}

/** ISO 7064 MOD 97-10: the 18-digit number leaves 1 when divided by 97. */
export function bankAccountValid(digits: string): boolean {
  if (!/^\d{18}$/.test(digits)) return false;
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97;
  return rest === 1;
}

/*
 * A booking's money, derived in this one place from its fixed price and its ledger: what it costs,
 * what was paid, the balance and the badge. The server, the staff list and nothing else compute these.
 */

/** What of a booking its money depends on. */
export interface Priced {
  state: 'ACTIVE' | 'QUEUED' | 'CANCELLED';
  people_count: number;
  unit_price: number;
  /** Staff's price per person (it follows the party), or a total set for price_override_party people before. */
  price_override: number | null;
  price_override_party?: number | null;
  pay_by: string | null;
  /** A promo code's discount (whole RSD). */
  discount?: number;
}
/** What of a ledger row its money depends on. */
export interface LedgerEntry {
  amount: number;
  method: PaymentMethod;
  kind: PaymentKind;
}

/**
 * The price fixed at booking: the workshop's price then × people less a promo discount, unless staff set a
 * price per person (× people, no discount). An older total override scales with the party (whole RSD).
 */
export function priceOf(
  r: Pick<Priced, 'people_count' | 'unit_price' | 'price_override' | 'price_override_party' | 'discount'>,
): number {
  if (r.price_override === null) return Math.max(0, r.unit_price * r.people_count - (r.discount ?? 0));
  const party = r.price_override_party ?? null;
  return party === null ? r.price_override * r.people_count : Math.round((r.price_override * r.people_count) / party);
}

/**
 * What a booking holds by where it came from: money paid in (cash, card, transfer, Telegram), studio
 * credit and gift certificates, each net of what went back; a refund to credit beyond what credit paid
 * came out of the money part.
 */
export const paidBySource = (m: Pick<RecordMoney, 'amount_paid' | 'paid_by_credit' | 'paid_by_certificate'>) => ({
  money: m.amount_paid - m.paid_by_credit - (m.paid_by_certificate ?? 0),
  credit: m.paid_by_credit,
  certificate: m.paid_by_certificate ?? 0,
});

/** What must be paid when booking to keep the seats: the deposit (rounded up) or the whole price. */
export function requiredOf(price: number, s: { prepayment: Prepayment; deposit_percent: number }): number {
  if (s.prepayment === 'full') return price;
  if (s.prepayment === 'deposit') return Math.ceil((price * s.deposit_percent) / 100);
  return 0;
}

/** Net paid on the booking: payments in, refunds out (credit included both ways). */
export const paidOf = (ledger: readonly Pick<LedgerEntry, 'amount'>[]) => ledger.reduce((sum, p) => sum + p.amount, 0);

export function moneyOf(
  r: Priced,
  ledger: readonly LedgerEntry[],
  s: { prepayment: Prepayment; deposit_percent: number },
): RecordMoney {
  const price = priceOf(r);
  const cancelled = r.state === 'CANCELLED';
  const due = cancelled ? 0 : price;
  const paid = paidOf(ledger);
  const balance = due - paid;
  const refunds = ledger.filter((p) => p.kind === 'refund');
  let status: PaymentStatus;
  if (balance < 0) status = 'refund_owed';
  else if (cancelled && refunds.length > 0)
    status = refunds.every((p) => p.method === 'credit') ? 'credited' : 'refunded';
  else if (paid > 0 && balance === 0) status = 'paid';
  else if (paid > 0) status = 'deposit_paid';
  else status = 'unpaid';
  const byCredit = ledger.filter((p) => p.method === 'credit').reduce((sum, p) => sum + p.amount, 0);
  const required = cancelled || r.state === 'QUEUED' ? 0 : requiredOf(price, s);
  return {
    price,
    unit_price: r.unit_price,
    discount: r.discount ?? 0,
    price_override:
      r.price_override === null || !r.price_override_party
        ? r.price_override
        : Math.round(r.price_override / r.price_override_party),
    amount_due: due,
    amount_paid: paid,
    balance,
    status,
    required_now: required,
    pay_by: r.pay_by,
    paid_by_credit: Math.max(0, byCredit),
    paid_by_certificate: Math.max(0, paidOf(ledger.filter((p) => p.method === 'certificate'))),
    pay_now: r.state === 'ACTIVE' ? payNow({ required_now: required, amount_paid: paid, balance }) : 0,
  };
}

/** The booking has paid what its hold asks for (the deposit or all). */
export const holdSatisfied = (m: RecordMoney) => m.amount_paid >= m.required_now;

/** What a payment now should be: the rest of the deposit while it is short, else the whole balance. */
export function payNow(m: Pick<RecordMoney, 'required_now' | 'amount_paid' | 'balance'>): number {
  if (m.required_now > m.amount_paid) return m.required_now - m.amount_paid;
  return Math.max(0, m.balance);
}
