import { z } from './zod';
import { idField } from './common';
import { PeopleCount } from './records';

/*
 * Promo codes: a discount the owner offers (a percent or a fixed sum in RSD off a booking's price),
 * typed by the customer when booking. The discount is a part of the booking's price, not a payment.
 */

export const PROMO_KINDS = ['percent', 'fixed'] as const;
export const PromoKind = z.enum(PROMO_KINDS, { error: 'Скидка: процент или сумма в динарах' });
export type PromoKind = z.infer<typeof PromoKind>;
export const PROMO_KIND_LABELS: Record<PromoKind, string> = { percent: 'Процент', fixed: 'Сумма, RSD' };

export const PROMO_CODE_MSG = 'Промокод: от 3 до 32 букв и цифр (можно - и _)';
const CODE = /^[\p{L}\d_-]{3,32}$/u;

/** The one spelling of a code: codes are compared without case and surrounding spaces. */
export const normalizePromoCode = (code: string) => code.trim().toUpperCase();

/** A code as typed by a customer or the owner. */
export const PromoCodeText = z
  .string({ error: PROMO_CODE_MSG })
  .transform(normalizePromoCode)
  .refine((s) => CODE.test(s), PROMO_CODE_MSG);

const Day = z.iso.date({ error: 'Укажите дату: ГГГГ-ММ-ДД' }).nullable().optional();

const PromoFields = z.object({
  code: PromoCodeText,
  kind: PromoKind,
  /** The percent (1–100) or the sum in whole RSD. */
  value: z
    .number({ error: 'Укажите размер скидки' })
    .int('Скидка — целое число')
    .min(1, 'Скидка должна быть больше нуля')
    .max(10_000_000, 'Скидка слишком большая'),
  /** The first and the last day (the studio's days, both included) a booking may use it; null: no bound. */
  valid_from: Day,
  valid_to: Day,
  /** The workshops it applies to; empty: every workshop. */
  workshop_ids: z.array(idField('Укажите мастер-класс')).max(200),
  /** How many bookings may use it in all; null: no limit. */
  max_uses: z
    .number({ error: 'Лимит — целое число' })
    .int('Лимит — целое число')
    .min(1, 'Лимит: хотя бы одно использование')
    .max(1_000_000)
    .nullable()
    .optional(),
  /** One booking per customer. */
  once_per_customer: z.boolean(),
  /** Only for a customer who has never booked before. */
  first_time_only: z.boolean(),
  is_active: z.boolean(),
});

const PERCENT_MAX = 'Скидка в процентах: от 1 до 100';
const DATES_ORDER = 'Дата окончания раньше даты начала';
const percentOk = (p: { kind?: PromoKind; value?: number }) => p.kind !== 'percent' || (p.value ?? 0) <= 100;
const datesOk = (p: { valid_from?: string | null; valid_to?: string | null }) =>
  !p.valid_from || !p.valid_to || p.valid_from <= p.valid_to;

export const PromoCodeCreate = PromoFields.extend({
  workshop_ids: PromoFields.shape.workshop_ids.default([]),
  once_per_customer: z.boolean().default(true),
  first_time_only: z.boolean().default(false),
  is_active: z.boolean().default(true),
})
  .refine(percentOk, { message: PERCENT_MAX, path: ['value'] })
  .refine(datesOk, { message: DATES_ORDER, path: ['valid_to'] });
export type PromoCodeCreate = z.input<typeof PromoCodeCreate>;

/** An owner's change: any field; `is_active: false` switches the code off (codes are never deleted: bookings name them). */
export const PromoCodeUpdate = PromoFields.partial()
  .refine(percentOk, { message: PERCENT_MAX, path: ['value'] })
  .refine(datesOk, { message: DATES_ORDER, path: ['valid_to'] });
export type PromoCodeUpdate = z.input<typeof PromoCodeUpdate>;

export const PromoCodePublic = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: PromoKind,
  value: z.number().int(),
  valid_from: z.string().nullable(),
  valid_to: z.string().nullable(),
  workshop_ids: z.array(z.number().int()),
  max_uses: z.number().int().nullable(),
  once_per_customer: z.boolean(),
  first_time_only: z.boolean(),
  is_active: z.boolean(),
  /** Bookings that hold a use now (a cancelled booking gives its use back). */
  uses: z.number().int(),
  created_at: z.string(),
});
export type PromoCodePublic = z.infer<typeof PromoCodePublic>;

export const PromoCodesPublic = z.object({ data: z.array(PromoCodePublic), count: z.number().int() });
export type PromoCodesPublic = z.infer<typeof PromoCodesPublic>;

/** What a booking of a session would cost, with a promo code when one is typed. */
export const PriceQuoteRequest = z.object({
  schedule_id: idField(),
  people_count: PeopleCount.default(1),
  promo_code: z.string().max(64).nullable().optional(),
});
export type PriceQuoteRequest = z.input<typeof PriceQuoteRequest>;

export const PriceQuote = z.object({
  /** The workshop's price × people. */
  price: z.number().int(),
  /** What the promo code takes off (0 without one). */
  discount: z.number().int(),
  /** What the booking would cost: price − discount. */
  total: z.number().int(),
  /** The code as applied (normalised), null without one. */
  promo_code: z.string().nullable(),
});
export type PriceQuote = z.infer<typeof PriceQuote>;

/** The discount of a code on a price (never more than the price). */
export function discountOf(p: { kind: PromoKind; value: number }, price: number): number {
  const off = p.kind === 'percent' ? Math.round((price * p.value) / 100) : p.value;
  return Math.max(0, Math.min(price, off));
}
