import { z } from './zod';
import { IsoDateTime, idField, listOf } from './common';
import { formatMoney, plural } from './format';
import { PeopleCount } from './records';
import { TelegramId } from './users';
import { refusals } from './texts/ru/refusals';

/*
 * Gift certificates: a balance behind a code a person can read aloud and type, either whole RSD
 * (`amount`) or places on any workshop (`places`, valued at the booking's price when used). The
 * balance is the sum of the certificate's own ledger (sold, spent on bookings, returned by a cancel,
 * written off at expiry or by a void); rows are only appended.
 */

/** 32 symbols without 0/O/1/I: 12 of them carry 60 bits. */
export const CERTIFICATE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CERTIFICATE_CODE_LENGTH = 12;
/** The bot's deep link parameter: `start=cert_<code>`. */
export const CERTIFICATE_START_PREFIX = 'cert_';
/** A certificate is valid this long unless staff choose otherwise. */
export const CERTIFICATE_MONTHS = 12;
/** How many people one places certificate may pay for. */
export const CERTIFICATE_PLACES_MAX = 20;
/** What the mini-app offers to buy until the studio sets its list (business settings' certificate_amounts). */
export const DEFAULT_CERTIFICATE_AMOUNTS = [3500, 5000, 7000, 10000] as const;

/** A certificate's refusals, by code (their texts: contract/texts). */
export const CERTIFICATE_MSG = {
  malformed: 'certificateMalformed',
  notFound: 'certificateNotFound',
  expired: 'certificateExpired',
  usedUp: 'certificateUsedUp',
  voided: 'certificateVoided',
  pending: 'certificatePending',
  tooMany: 'certificateTooMany',
} as const;

/**
 * The code as stored (12 symbols, upper case) from what a person typed: any case, with or without
 * dashes and spaces; null when it cannot be a code.
 */
export function normalizeCertificateCode(input: string): string | null {
  const s = input.replace(/[\s\-‐-―]/g, '').toUpperCase();
  if (s.length !== CERTIFICATE_CODE_LENGTH) return null;
  for (const ch of s) if (!CERTIFICATE_ALPHABET.includes(ch)) return null;
  return s;
}

/** The code as printed: ABCD-EFGH-JKLM. */
export const formatCertificateCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}`;

/** The card page of a certificate (server-rendered, printable). */
export const certificatePagePath = (code: string) => `/gift/${formatCertificateCode(code)}`;

/**
 * pending: a purchase waiting for its payment (not usable yet); active: has a balance; used: spent;
 * expired: past its date (what was left is written off and reported); voided: cancelled by the owner.
 */
export const CERTIFICATE_STATUSES = ['pending', 'active', 'used', 'expired', 'voided'] as const;
export const CertificateStatus = z.enum(CERTIFICATE_STATUSES);
export type CertificateStatus = z.infer<typeof CertificateStatus>;
export const CERTIFICATE_STATUS_LABELS: Record<CertificateStatus, string> = {
  pending: 'Ждёт оплаты',
  active: 'Действует',
  used: 'Израсходован',
  expired: 'Истёк',
  voided: 'Аннулирован',
};

/** amount: a balance in RSD; places: that many people on any workshop, each valued when used. */
export const CERTIFICATE_KINDS = ['amount', 'places'] as const;
export const CertificateKind = z.enum(CERTIFICATE_KINDS);
export type CertificateKind = z.infer<typeof CertificateKind>;
export const CERTIFICATE_KIND_LABELS: Record<CertificateKind, string> = { amount: 'Сумма', places: 'Места' };

/** '2 места' (staff's screens, the card page). */
export const formatPlaces = (n: number) => `${n}\u00a0${plural(n, ['место', 'места', 'мест'])}`;

/*
 * What a places certificate is worth on a booking: one place per person it covers, each at the
 * booking's price per person (its unit price less the promo discount's share, or staff's total), never
 * above what the booking owes. The server pays and gives back by these rules; the mini-app shows them.
 */

/** A booking's price for `places` of its `people`, in whole RSD (all of them: exactly the price). */
const valueOfPlaces = (places: number, price: number, people: number) =>
  places >= people ? price : Math.round((places * price) / people);

/**
 * What a certificate pays of a booking now: an amount certificate up to its balance; a places
 * certificate as many more places as the booking still needs (at most one per person, counting those
 * it already pays here: `taken`). `left`: the balance in the certificate's unit.
 */
export function certificatePays(
  c: { kind: CertificateKind; left: number },
  b: { price: number; people: number; owed: number; taken?: { amount: number; places: number } },
): { amount: number; places: number } {
  const none = { amount: 0, places: 0 };
  if (b.owed <= 0 || c.left <= 0) return none;
  if (c.kind === 'amount') return { amount: Math.min(c.left, b.owed), places: 0 };
  const taken = b.taken ?? { amount: 0, places: 0 };
  const most = Math.min(c.left, b.people - taken.places);
  for (let k = 1; k <= most; k++) {
    const amount = Math.min(b.owed, valueOfPlaces(taken.places + k, b.price, b.people) - taken.amount);
    if (amount >= b.owed || k === most) return amount > 0 ? { amount, places: k } : none;
  }
  return none;
}

/**
 * The places a certificate keeps on a booking when `back` RSD of the `taken` it paid there goes back
 * (a smaller party, a cancel): the fewest that still cover what it keeps paying at the booking's price now.
 */
export function placesKept(
  taken: { amount: number; places: number },
  back: number,
  b: { price: number; people: number },
) {
  const kept = taken.amount - back;
  if (kept <= 0) return 0;
  for (let k = 1; k < taken.places; k++) if (valueOfPlaces(k, b.price, b.people) >= kept) return k;
  return taken.places;
}

/** How a certificate was paid for: at the studio, by transfer, or in Telegram. */
export const CERTIFICATE_PAY_METHODS = ['cash', 'card', 'bank_transfer', 'telegram'] as const;
export const CertificatePayMethod = z.enum(CERTIFICATE_PAY_METHODS);
export type CertificatePayMethod = z.infer<typeof CertificatePayMethod>;
/** What staff choose when they issue or confirm one. */
export const CERTIFICATE_DESK_METHODS = ['cash', 'card', 'bank_transfer'] as const;

/** A row of a certificate's ledger: the change of its balance. */
export const CERTIFICATE_ENTRY_KINDS = ['sale', 'redemption', 'return', 'expiry', 'void'] as const;
export type CertificateEntryKind = (typeof CERTIFICATE_ENTRY_KINDS)[number];
export const CERTIFICATE_ENTRY_LABELS: Record<CertificateEntryKind, string> = {
  sale: 'Продажа',
  redemption: 'Оплата записи',
  return: 'Возврат при отмене',
  expiry: 'Списано по сроку',
  void: 'Аннулирование',
};

const amount = z
  .number({ error: 'Укажите сумму в динарах' })
  .int('Сумма — целое число динаров')
  // A message made when it is shown: formatting builds an Intl object, which start-up need not pay for.
  .min(100, { error: () => `Сумма сертификата — от ${formatMoney(100, 'ru')}` })
  .max(1_000_000, 'Сумма слишком большая');
const places = z
  .number({ error: 'Укажите количество мест' })
  .int('Количество мест — целое число')
  .min(1, `Мест: от 1 до ${CERTIFICATE_PLACES_MAX}`)
  .max(CERTIFICATE_PLACES_MAX, `Мест: от 1 до ${CERTIFICATE_PLACES_MAX}`);
const pricePaid = z
  .number({ error: 'Укажите, сколько заплатил покупатель' })
  .int('Оплата — целое число динаров')
  .min(1, 'Укажите, сколько заплатил покупатель')
  .max(1_000_000, 'Сумма слишком большая');
const text = (max: number, what: string) =>
  z.string().trim().max(max, `${what}: не больше ${max} символов`).nullable().optional();

/** A code as typed: checked and normalised by the server, so a malformed one gets its own message. */
export const CertificateCodeText = z
  .string({ error: 'Введите код сертификата' })
  .trim()
  .min(1, 'Введите код сертификата')
  .max(40, refusals.certificateMalformed);

export const CERTIFICATE_ISSUE_MSG = {
  neither: 'Укажите сумму сертификата или количество мест',
  both: 'Сертификат — либо на сумму, либо на места: укажите что-то одно',
  pricePaid: 'Укажите, сколько заплатил покупатель',
  pricePaidOnAmount: 'Сертификат на сумму оплачивается своим номиналом: поле «Оплачено» только для мест',
} as const;

/**
 * Staff issue a certificate sold at the studio (it starts with a sale row of `method`): either an
 * `amount`, or `places` with what the buyer paid for them (`price_paid`, the money received).
 */
export const CertificateIssue = z
  .object({
    amount: amount.optional(),
    places: places.optional(),
    price_paid: pricePaid.optional(),
    method: z.enum(CERTIFICATE_DESK_METHODS, { error: 'Способ оплаты: наличные, карта или перевод' }),
    buyer_name: text(100, 'Покупатель'),
    buyer_telegram_id: TelegramId.nullable().optional(),
    recipient_name: text(100, 'Получатель'),
    greeting: text(500, 'Поздравление'),
    /** Default: 12 months from now. */
    expires_at: IsoDateTime.nullable().optional(),
    note: text(500, 'Комментарий'),
  })
  .superRefine((v, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (v.amount === undefined && v.places === undefined) issue(CERTIFICATE_ISSUE_MSG.neither, 'amount');
    if (v.amount !== undefined && v.places !== undefined) issue(CERTIFICATE_ISSUE_MSG.both, 'places');
    if (v.places !== undefined && v.price_paid === undefined) issue(CERTIFICATE_ISSUE_MSG.pricePaid, 'price_paid');
    if (v.amount !== undefined && v.price_paid !== undefined)
      issue(CERTIFICATE_ISSUE_MSG.pricePaidOnAmount, 'price_paid');
  });
export type CertificateIssue = z.input<typeof CertificateIssue>;

export const CertificatePublic = z.object({
  id: z.number().int(),
  /** ABCD-EFGH-JKLM. */
  code: z.string(),
  kind: CertificateKind,
  /** What it was sold for, RSD: its nominal, or what the buyer paid for a places certificate. */
  amount: z.number().int(),
  /** A places certificate's places as sold; null for an amount certificate. */
  places: z.number().int().nullable(),
  /** What is left now (0 unless active), in the certificate's unit: RSD, or places (as places_left). */
  balance: z.number().int(),
  /** A places certificate's places left (0 unless active); null for an amount certificate. */
  places_left: z.number().int().nullable(),
  status: CertificateStatus,
  buyer_name: z.string().nullable(),
  buyer_telegram_id: z.number().nullable(),
  recipient_name: z.string().nullable(),
  greeting: z.string().nullable(),
  /** The Telegram user who opened its link (told before it expires). */
  recipient_telegram_id: z.number().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
  /** null while a purchase waits for its payment. */
  paid_at: z.string().nullable(),
  pay_method: CertificatePayMethod.nullable(),
  voided_at: z.string().nullable(),
  void_reason: z.string().nullable(),
  /** The card page, e.g. /gift/ABCD-EFGH-JKLM. */
  url: z.string(),
});
export type CertificatePublic = z.infer<typeof CertificatePublic>;

export const CertificatesPublic = listOf(CertificatePublic);
export type CertificatesPublic = z.infer<typeof CertificatesPublic>;

export const CertificateQuery = z.object({
  /** Part of the code (dashes optional), the recipient's or the buyer's name. */
  q: z.string().trim().max(100).optional(),
  status: CertificateStatus.optional(),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type CertificateQuery = z.input<typeof CertificateQuery>;

export const CertificateEntry = z.object({
  id: z.number().int(),
  kind: z.enum(CERTIFICATE_ENTRY_KINDS),
  /**
   * RSD: the change of an amount certificate's balance (sale +, redemption −, return +, expiry and void −);
   * on a places certificate what the buyer paid (sale) and the value the places covered on a booking
   * (redemption −, return +), 0 when places are written off.
   */
  amount: z.number().int(),
  /** The change of a places certificate's places (same signs); null on an amount certificate. */
  places: z.number().int().nullable(),
  /** The booking it paid or that gave it back. */
  record_id: z.number().int().nullable(),
  note: z.string().nullable(),
  recorded_by_kind: z.enum(['staff', 'customer', 'system']),
  recorded_by_user_id: z.number().int().nullable(),
  at: z.string(),
});
export type CertificateEntry = z.infer<typeof CertificateEntry>;

/** One certificate with its ledger (staff). */
/** What the staff member reading a certificate may do with it (computed on the server). */
export const CertificateAllowed = z.object({ void: z.boolean(), confirm: z.boolean() });
export type CertificateAllowed = z.infer<typeof CertificateAllowed>;

export const CertificateView = CertificatePublic.extend({
  entries: z.array(CertificateEntry),
  allowed: CertificateAllowed,
});
export type CertificateView = z.infer<typeof CertificateView>;

export const CertificateCodeParam = z.object({ code: z.string().max(40) });

/** The owner voids a certificate: what is left is written off, with the reason. */
export const CertificateVoid = z.object({
  reason: z
    .string({ error: 'Укажите причину' })
    .trim()
    .min(1, 'Укажите причину')
    .max(500, 'Причина: не больше 500 символов'),
});
export type CertificateVoid = z.infer<typeof CertificateVoid>;

/** Staff confirm a purchase request paid at the studio or by transfer. */
export const CertificateConfirm = z.object({
  method: z.enum(CERTIFICATE_DESK_METHODS, { error: 'Способ оплаты: наличные, карта или перевод' }),
});
export type CertificateConfirm = z.infer<typeof CertificateConfirm>;

/** A code typed in the mini-app (/apply) or by staff on a booking. */
export const CertificateCode = z.object({ code: CertificateCodeText });
export type CertificateCode = z.infer<typeof CertificateCode>;

/** A code typed in /apply, with the session and party it would pay (to say how much of it). */
export const CertificateCheckRequest = CertificateCode.extend({
  schedule_id: idField().optional(),
  people_count: PeopleCount.optional(),
  /** A promo code already applied to that booking (its discount lowers what each place is worth). */
  promo_code: z.string().max(64).nullable().optional(),
});
export type CertificateCheckRequest = z.input<typeof CertificateCheckRequest>;

/** What a customer learns of a valid code: its balance and until when (never who bought it). */
export const CertificateCheck = z.object({
  code: z.string(),
  kind: CertificateKind,
  /** What is left, in the certificate's unit: RSD, or places. */
  balance: z.number().int(),
  /** A places certificate's places left; null for an amount certificate. */
  places_left: z.number().int().nullable(),
  expires_at: z.string(),
  /** What it would pay of a new booking of the given session and party, RSD; null when none was given. */
  pays: z.number().int().nullable(),
  /** How many of its places that booking would take (0 for an amount certificate); null without a session. */
  places_used: z.number().int().nullable(),
});
export type CertificateCheck = z.infer<typeof CertificateCheck>;

/** What the mini-app offers to buy. */
export const CertificateOptions = z.object({
  /** The amounts to choose from, RSD. */
  amounts: z.array(z.number().int()),
  /** Paid with a Telegram invoice; false: the request is confirmed by staff when paid. */
  telegram: z.boolean(),
  /** How long a certificate is valid. */
  months: z.number().int(),
});
export type CertificateOptions = z.infer<typeof CertificateOptions>;

export const CertificatePurchase = z.object({
  amount: z.number({ error: 'Выберите сумму' }).int('Выберите сумму'),
  recipient_name: text(100, 'Получатель'),
  greeting: text(500, 'Поздравление'),
});
export type CertificatePurchase = z.input<typeof CertificatePurchase>;

/**
 * A purchase started: with `invoice_url` the mini-app opens Telegram's invoice; without, staff
 * confirm the request when it is paid. The code is given in the chat once it is paid.
 */
export const CertificatePurchaseResult = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  status: CertificateStatus,
  invoice_url: z.string().nullable(),
});
export type CertificatePurchaseResult = z.infer<typeof CertificatePurchaseResult>;

/** A customer's own certificates: bought by them or opened from its link (the code shown once paid). */
export const MyCertificate = z.object({
  id: z.number().int(),
  code: z.string().nullable(),
  kind: CertificateKind,
  amount: z.number().int(),
  /** A places certificate's places as sold; null for an amount certificate. */
  places: z.number().int().nullable(),
  /** In the certificate's unit: RSD, or places. */
  balance: z.number().int(),
  status: CertificateStatus,
  recipient_name: z.string().nullable(),
  expires_at: z.string(),
  url: z.string().nullable(),
});
export type MyCertificate = z.infer<typeof MyCertificate>;
export const MyCertificates = z.object({ data: z.array(MyCertificate) });
export type MyCertificates = z.infer<typeof MyCertificates>;
