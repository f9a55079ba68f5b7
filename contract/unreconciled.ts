import { z } from './zod';

/*
 * Unreconciled money: money whose booking's state does not account for it, found by the sweeper and
 * shown on the cash desk's «Несверенные деньги» card until staff decide where it goes.
 */

export const UNRECONCILED_KINDS = ['cancelled_paid', 'queued_paid', 'overpaid', 'no_booking', 'hold_overdue'] as const;
export type UnreconciledKind = (typeof UNRECONCILED_KINDS)[number];

/** What each finding means, as staff read it (the card, the alert). */
export const UNRECONCILED_KIND_LABELS: Record<UnreconciledKind, string> = {
  cancelled_paid: 'Оплачена, но отменена системой, деньги не возвращены',
  queued_paid: 'Оплачена, пока стоит в очереди',
  overpaid: 'Оплачено больше цены',
  no_booking: 'Деньги остались на удалённой записи',
  hold_overdue: 'Срок оплаты прошёл, а запись не отменена',
};

export const UNRECONCILED_DECISIONS = ['credit', 'refund', 'keep'] as const;
export type UnreconciledDecision = (typeof UNRECONCILED_DECISIONS)[number];

export const UNRECONCILED_DECISION_LABELS: Record<UnreconciledDecision, string> = {
  credit: 'На баланс клиента',
  refund: 'Вернуть',
  keep: 'Оставить',
};

/** One open finding: the booking (or the gone booking's number), whose money it is and how much is in question. */
export const UnreconciledItem = z.object({
  id: z.number().int(),
  kind: z.enum(UNRECONCILED_KINDS),
  record_id: z.number().int().nullable(),
  /** Whether the booking still exists (a link to it). */
  record_exists: z.boolean(),
  telegram_id: z.number().nullable(),
  name: z.string().nullable(),
  workshop_title: z.string().nullable(),
  schedule_date: z.string().nullable(),
  /** The money in question when found (whole RSD); the decision moves what is in question then. */
  amount: z.number().int(),
  found_at: z.string(),
});
export type UnreconciledItem = z.infer<typeof UnreconciledItem>;

/** Money an erased customer's studio credit left owed back: to whom is no longer known, only how much and since when. */
export const OwedRefundItem = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  created_at: z.string(),
});
export type OwedRefundItem = z.infer<typeof OwedRefundItem>;

/** The card's lines: the open findings, and the refunds owed to erased customers until staff pay them out. */
export const UnreconciledList = z.object({ items: z.array(UnreconciledItem), owed_refunds: z.array(OwedRefundItem) });
export type UnreconciledList = z.infer<typeof UnreconciledList>;

/** Staff's decision: to the customer's studio credit, refunded the way it came, or kept (with the reason). */
export const UnreconciledDecisionBody = z
  .object({
    decision: z.enum(UNRECONCILED_DECISIONS),
    reason: z.string().trim().max(500, 'Причина: не больше 500 символов').optional(),
  })
  .refine((b) => b.decision !== 'keep' || (b.reason ?? '').length > 0, {
    message: 'Укажите причину',
    path: ['reason'],
  });
export type UnreconciledDecisionBody = z.input<typeof UnreconciledDecisionBody>;

export const OWED_REFUND_METHODS = ['cash', 'card', 'bank_transfer'] as const;
/** How staff paid an owed refund out. */
export const OwedRefundPaidBody = z.object({
  method: z.enum(OWED_REFUND_METHODS, { error: 'Способ выплаты: наличные, карта или перевод' }),
});
export type OwedRefundPaidBody = z.input<typeof OwedRefundPaidBody>;
