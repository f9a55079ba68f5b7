import type { PaymentPublic } from '../../contract';
import type { PaymentRow } from '../../db/repositories/payments';

/** A ledger row as the API shows it. */
export const toPaymentPublic = (p: PaymentRow): PaymentPublic => ({
  id: p.id,
  record_id: p.record_id,
  amount: p.amount,
  method: p.method,
  kind: p.kind,
  recorded_by_kind: p.recorded_by_kind,
  recorded_by_user_id: p.recorded_by_user_id,
  telegram_payment_charge_id: p.telegram_payment_charge_id,
  provider_payment_charge_id: p.provider_payment_charge_id,
  note: p.note,
  at: p.at,
});
