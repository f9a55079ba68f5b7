import { z } from './zod';
import { IsoDateTime, listOf } from './common';
import { TelegramId } from './users';

/*
 * Gift certificates: a balance in whole RSD behind a code a person can read aloud and type. The
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
/** What the mini-app offers to buy until the studio sets its list (business settings' certificate_amounts). */
export const DEFAULT_CERTIFICATE_AMOUNTS = [3500, 5000, 7000, 10000] as const;

export const CERTIFICATE_MSG = {
  malformed: 'Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM',
  notFound: 'Сертификат с таким кодом не найден',
  expired: 'Срок действия сертификата истёк',
  usedUp: 'Сертификат уже израсходован',
  voided: 'Сертификат аннулирован',
  pending: 'Сертификат ещё не оплачен',
  tooMany: 'Слишком много попыток ввести код. Попробуйте позже',
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
  .min(100, 'Сумма сертификата — от 100 дин.')
  .max(1_000_000, 'Сумма слишком большая');
const text = (max: number, what: string) =>
  z.string().trim().max(max, `${what}: не больше ${max} символов`).nullable().optional();

/** A code as typed: checked and normalised by the server, so a malformed one gets its own message. */
export const CertificateCodeText = z
  .string({ error: 'Введите код сертификата' })
  .trim()
  .min(1, 'Введите код сертификата')
  .max(40, CERTIFICATE_MSG.malformed);

/** Staff issue a certificate sold at the studio (it starts with a sale row of `method`). */
export const CertificateIssue = z.object({
  amount,
  method: z.enum(CERTIFICATE_DESK_METHODS, { error: 'Способ оплаты: наличные, карта или перевод' }),
  buyer_name: text(100, 'Покупатель'),
  buyer_telegram_id: TelegramId.nullable().optional(),
  recipient_name: text(100, 'Получатель'),
  greeting: text(500, 'Поздравление'),
  /** Default: 12 months from now. */
  expires_at: IsoDateTime.nullable().optional(),
  note: text(500, 'Комментарий'),
});
export type CertificateIssue = z.input<typeof CertificateIssue>;

export const CertificatePublic = z.object({
  id: z.number().int(),
  /** ABCD-EFGH-JKLM. */
  code: z.string(),
  /** The amount it was sold for. */
  amount: z.number().int(),
  /** What is left to spend now (0 unless active). */
  balance: z.number().int(),
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
  /** The change of the balance (sale +, redemption −, return +, expiry and void −). */
  amount: z.number().int(),
  /** The booking it paid or that gave it back. */
  record_id: z.number().int().nullable(),
  note: z.string().nullable(),
  recorded_by_kind: z.enum(['staff', 'customer', 'system']),
  recorded_by_user_id: z.number().int().nullable(),
  at: z.string(),
});
export type CertificateEntry = z.infer<typeof CertificateEntry>;

/** One certificate with its ledger (staff). */
export const CertificateView = CertificatePublic.extend({ entries: z.array(CertificateEntry) });
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

/** What a customer learns of a valid code: its balance and until when (never who bought it). */
export const CertificateCheck = z.object({
  code: z.string(),
  balance: z.number().int(),
  expires_at: z.string(),
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
  amount: z.number().int(),
  balance: z.number().int(),
  status: CertificateStatus,
  recipient_name: z.string().nullable(),
  expires_at: z.string(),
  url: z.string().nullable(),
});
export type MyCertificate = z.infer<typeof MyCertificate>;
export const MyCertificates = z.object({ data: z.array(MyCertificate) });
export type MyCertificates = z.infer<typeof MyCertificates>;
