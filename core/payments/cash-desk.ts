import type { CashDesk, CashDeskRow } from '../../contract';
import { PAYMENT_KIND_LABELS, PAYMENT_METHOD_LABELS } from '../../contract/money';
import { formatDateTime } from '../../contract/format';
import type { Executor } from '../../db/database';
import { creditOutstanding, ledgerSumsByRecord, listRecordsByIds } from '../../db/repositories/payments';
import { deskRowsInBatches, deskRowsPage, deskSums, type DeskRange } from '../../db/repositories/cash-desk';
import type { RecordRow } from '../../db/repositories/records';
import { certificateSumsBetween, certificatesOutstanding } from '../../db/repositories/certificates';
import { toPaymentPublic } from '../ledger/payment-public';
import { priceOf } from '../ledger/price';
import { owedRefundsTotal } from '../../db/repositories/owed-refunds';
import { FISCAL_RECEIPT_STATE_LABELS, FISCAL_RECEIPT_TYPE_LABELS } from '../../contract/fiscal';
import { fiscalState, receiptsOfPayments } from '../fiscal/staff';

/* The cash desk: what came in and went out over a range, what is owed back, the credit and certificates held. */

/**
 * What is owed back: what bookings were paid beyond what each costs now (a deleted booking costs nothing),
 * and the credit of customers who erased their data.
 */
export async function refundsOwed(db: Executor): Promise<number> {
  const erased = await owedRefundsTotal(db);
  const sums = (await ledgerSumsByRecord(db)).filter((s) => Number(s.paid) > 0);
  if (sums.length === 0) return erased;
  const ids = sums.map((s) => s.record_id!);
  const records = new Map<number, RecordRow>();
  for (let i = 0; i < ids.length; i += 500)
    for (const r of await listRecordsByIds(db, ids.slice(i, i + 500))) records.set(r.id, r);
  return sums.reduce((owed, s) => {
    const r = records.get(s.record_id!);
    const due = !r || r.state === 'CANCELLED' ? 0 : priceOf(r);
    return owed + Math.max(0, Number(s.paid) - due);
  }, erased);
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

type DeskRow = Awaited<ReturnType<typeof deskRowsPage>>[number];

/** Ledger rows as the desk lists them, with their booking's customer and session and their fiscal receipt. */
async function toDeskRows(db: Executor, rows: DeskRow[]): Promise<CashDeskRow[]> {
  const receipts = await receiptsOfPayments(db, rows);
  return rows.map((p) => ({
    ...toPaymentPublic(p),
    receipt: receipts.get(p.id) ?? null,
    customer_name: p.customer_name ?? null,
    workshop_title: p.workshop_title ?? null,
    schedule_date: p.schedule_date ?? null,
  }));
}

/**
 * The cash desk over a bounded period: one page of its ledger rows, and the net per method, received and
 * refunded summed in the database over the whole period; owed and held as of now.
 */
export async function cashDesk(
  db: Executor,
  range: DeskRange,
  page: { skip: number; limit: number },
): Promise<CashDesk> {
  const totals: Record<string, number> = {};
  let received = 0;
  let refunded = 0;
  let count = 0;
  for (const s of await deskSums(db, range)) {
    totals[s.method] = s.net;
    count += s.rows;
    // Credit and gift certificates spend money the studio already holds: neither received nor paid out.
    if (s.method === 'credit' || s.method === 'certificate') continue;
    received += s.received;
    refunded += s.refunded;
  }
  return {
    totals,
    received,
    refunded,
    refunds_owed: await refundsOwed(db),
    credit_outstanding: await creditOutstanding(db),
    certificates: await certificatesDesk(db, range),
    payments: await toDeskRows(db, await deskRowsPage(db, range, page)),
    fiscal: await fiscalState(db),
    count,
    from: range.from,
    to: range.to,
  };
}

/** Rows read per query while the desk's CSV streams. */
const CSV_BATCH = 500;

/** Every row of the period for the CSV, a batch at a time. */
export async function* cashDeskBatches(db: Executor, range: DeskRange): AsyncIterable<CashDeskRow[]> {
  for await (const batch of deskRowsInBatches(db, range, CSV_BATCH)) yield toDeskRows(db, batch);
}

export const CASH_DESK_COLUMNS = [
  'Когда',
  'Запись',
  'Клиент',
  'Мастер-класс',
  'Дата занятия',
  'Операция',
  'Способ',
  'Сумма, дин.',
  'Внёс',
  'Платёж Telegram',
  'Платёж провайдера',
  'Комментарий',
  'Чек',
  'Вид чека',
  'Состояние чека',
] as const;

const BY = { staff: 'Сотрудник', customer: 'Клиент', system: 'Система' } as const;

export const cashDeskCells = (p: CashDeskRow, timeZone: string) => [
  formatDateTime(p.at, timeZone),
  p.record_id,
  p.customer_name,
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
  p.receipt?.invoice_number ?? null,
  p.receipt ? FISCAL_RECEIPT_TYPE_LABELS[p.receipt.type] + (p.receipt.training ? ' (учебный)' : '') : null,
  p.receipt ? FISCAL_RECEIPT_STATE_LABELS[p.receipt.state] : null,
];
