import type { CashDesk, CashDeskRow, PaymentMethod } from '../../contract';
import { PAYMENT_KIND_LABELS, PAYMENT_METHOD_LABELS } from '../../contract/money';
import { formatDateTime } from '../../contract/format';
import type { Executor } from '../../db/database';
import {
  creditOutstanding,
  ledgerSumsByRecord,
  listPaymentsBetween,
  listRecordsByIds,
} from '../../db/repositories/payments';
import type { RecordRow } from '../../db/repositories/records';
import { certificateSumsBetween, certificatesOutstanding } from '../../db/repositories/certificates';
import { toPaymentPublic } from '../ledger/payment-public';
import { priceOf } from '../ledger/price';

/* The cash desk: what came in and went out over a range, what is owed back, the credit and certificates held. */

/** What bookings owe their customers back: paid beyond what each costs now (a deleted booking costs nothing). */
async function refundsOwed(db: Executor): Promise<number> {
  const sums = (await ledgerSumsByRecord(db)).filter((s) => Number(s.paid) > 0);
  if (sums.length === 0) return 0;
  const ids = sums.map((s) => s.record_id!);
  const records = new Map<number, RecordRow>();
  for (let i = 0; i < ids.length; i += 500)
    for (const r of await listRecordsByIds(db, ids.slice(i, i + 500))) records.set(r.id, r);
  return sums.reduce((owed, s) => {
    const r = records.get(s.record_id!);
    const due = !r || r.state === 'CANCELLED' ? 0 : priceOf(r);
    return owed + Math.max(0, Number(s.paid) - due);
  }, 0);
}

/**
 * Gift certificates at the desk: sold, spent and written off in the range, and what they hold now. A
 * places certificate counts in RSD as sold (what was paid) and redeemed (what its places covered); its
 * places held and written off are counted apart.
 */
async function certificatesDesk(
  db: Executor,
  range: { from?: string; to?: string },
): Promise<CashDesk['certificates']> {
  const { amount: sums, places } = await certificateSumsBetween(db, range);
  const outstanding = await certificatesOutstanding(db, new Date().toISOString());
  return {
    sold: sums.sale ?? 0,
    redeemed: -((sums.redemption ?? 0) + (sums.return ?? 0)),
    expired: -(sums.expiry ?? 0),
    voided: -(sums.void ?? 0),
    outstanding: outstanding.amount,
    outstanding_places: outstanding.places,
    expired_places: -(places.expiry ?? 0),
    voided_places: -(places.void ?? 0),
  };
}

/** The cash desk over a time range: every ledger row, the net per method, received and refunded, owed and held. */
export async function cashDesk(
  db: Executor,
  range: { from?: string; to?: string; method?: PaymentMethod },
): Promise<CashDesk> {
  const rows = await listPaymentsBetween(db, range);
  const totals: Record<string, number> = {};
  let received = 0;
  let refunded = 0;
  for (const p of rows) {
    totals[p.method] = (totals[p.method] ?? 0) + p.amount;
    // Credit and gift certificates spend money the studio already holds: neither received nor paid out.
    if (p.method === 'credit' || p.method === 'certificate') continue;
    if (p.amount > 0) received += p.amount;
    else refunded -= p.amount;
  }
  const payments: CashDeskRow[] = rows.map((p) => ({
    ...toPaymentPublic(p),
    workshop_title: p.workshop_title ?? null,
    schedule_date: p.schedule_date ?? null,
  }));
  return {
    totals,
    received,
    refunded,
    refunds_owed: await refundsOwed(db),
    credit_outstanding: await creditOutstanding(db),
    certificates: await certificatesDesk(db, range),
    payments,
  };
}

export const CASH_DESK_COLUMNS = [
  'Когда',
  'Запись',
  'Мастер-класс',
  'Дата занятия',
  'Операция',
  'Способ',
  'Сумма, дин.',
  'Внёс',
  'Платёж Telegram',
  'Платёж провайдера',
  'Комментарий',
] as const;

const BY = { staff: 'Сотрудник', customer: 'Клиент', system: 'Система' } as const;

export const cashDeskCells = (p: CashDeskRow, timeZone: string) => [
  formatDateTime(p.at, timeZone),
  p.record_id,
  p.workshop_title,
  p.schedule_date ? formatDateTime(p.schedule_date, timeZone) : null,
  PAYMENT_KIND_LABELS[p.kind],
  PAYMENT_METHOD_LABELS[p.method],
  p.amount,
  p.recorded_by_kind === 'staff' && p.recorded_by_user_id !== null
    ? `${BY.staff} #${p.recorded_by_user_id}`
    : BY[p.recorded_by_kind],
  p.telegram_payment_charge_id,
  p.provider_payment_charge_id,
  p.note,
];
