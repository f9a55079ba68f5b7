import { formatMoney } from '../../contract/format';
import type { Executor } from '../../db/database';
import { listCertificates } from '../../db/repositories/certificates';
import { listRecordsByIds, type PaymentRow } from '../../db/repositories/payments';
import { listOwedRefundPayouts, owedRefundsTotal } from '../../db/repositories/owed-refunds';
import type { RecordRow } from '../../db/repositories/records';
import { cashDesk } from './cash-desk';
import { getBusinessSettings } from '../kernel/settings';
import { moneyOf } from '../ledger/price';

/*
 * The money invariants, read from the ledger as it is: what must hold whatever happened, in whatever
 * order. Each break is said in Russian for staff, with a key that names it (the nightly check tells
 * staff of a break once, by its key). The views (a booking's money, credit, a certificate's balance,
 * the cash desk) are compared with sums taken here from the rows themselves.
 */

export interface MoneyBreak {
  /** Names the break (the same break found again has the same key). */
  key: string;
  /** What is wrong, for staff. */
  text: string;
}

type Row = Pick<PaymentRow, 'id' | 'record_id' | 'telegram_id' | 'amount' | 'method' | 'kind'>;

/** The cash desk's period that holds every row. */
const WHOLE_LEDGER = { from: '1970-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' };

const sum = (rows: readonly { amount: number }[]) => rows.reduce((n, p) => n + p.amount, 0);
const rsd = (n: number) => formatMoney(n);

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

async function loadRecords(db: Executor, ids: number[]): Promise<Map<number, RecordRow>> {
  const records = new Map<number, RecordRow>();
  for (let i = 0; i < ids.length; i += 500)
    for (const r of await listRecordsByIds(db, ids.slice(i, i + 500))) records.set(r.id, r);
  return records;
}

/** Every break of the money invariants now; empty when all hold. */
export async function checkMoneyInvariants(db: Executor, now = new Date()): Promise<MoneyBreak[]> {
  const breaks: MoneyBreak[] = [];
  const add = (key: string, text: string) => breaks.push({ key, text });
  // Read at once (the views are compared with the rows they were read beside).
  const [settings, rows, entryRows, { rows: certificates }, desk] = await Promise.all([
    getBusinessSettings(db),
    db
      .selectFrom('payments')
      .select(['id', 'record_id', 'telegram_id', 'amount', 'method', 'kind'])
      .orderBy('id')
      .execute(),
    db
      .selectFrom('certificate_entries')
      .select(['certificate_id', 'kind', 'amount', 'places', 'record_id', 'payment_id'])
      .execute(),
    listCertificates(db, { now: now.toISOString(), skip: 0, limit: Number.MAX_SAFE_INTEGER }),
    cashDesk(db, WHOLE_LEDGER, { skip: 0, limit: 1 }),
  ]);
  const payments: Row[] = rows.map((p) => ({
    ...p,
    amount: Number(p.amount),
    telegram_id: p.telegram_id === null ? null : Number(p.telegram_id),
  }));

  // A booking's money view (paid, balance, status) is what its ledger rows sum to, and never below zero.
  const byRecord = groupBy(
    payments.filter((p) => p.record_id !== null),
    (p) => p.record_id!,
  );
  const records = await loadRecords(db, [...byRecord.keys()]);
  let owedBack = 0;
  for (const [id, ledger] of byRecord) {
    const paid = sum(ledger);
    const r = records.get(id);
    if (!r) {
      owedBack += Math.max(0, paid);
      continue;
    }
    const m = moneyOf(r, ledger as PaymentRow[], settings);
    owedBack += Math.max(0, -m.balance);
    if (m.amount_paid !== paid || m.balance !== m.amount_due - paid)
      add(
        `record-ledger:${id}`,
        `Запись №${id}: в карточке оплачено ${rsd(m.amount_paid)}, а по журналу платежей ${rsd(paid)}`,
      );
    if (paid < 0) add(`record-negative:${id}`, `Запись №${id}: возвращено на ${rsd(-paid)} больше, чем было получено`);
    if ((m.status === 'refund_owed') !== paid > m.amount_due)
      add(`record-status:${id}`, `Запись №${id}: статус оплаты «${m.status}» не сходится с журналом платежей`);
  }

  // No customer's studio credit is below zero.
  const credits = groupBy(
    payments.filter((p) => p.method === 'credit' && p.telegram_id !== null),
    (p) => p.telegram_id!,
  );
  let creditTotal = 0;
  for (const [telegramId, rows] of credits) {
    const balance = rows.reduce((n, p) => n + (p.record_id === null ? p.amount : -p.amount), 0);
    creditTotal += balance;
    if (balance < 0)
      add(`credit-negative:${telegramId}`, `Баланс в студии клиента ${telegramId} ушёл в минус: ${rsd(balance)}`);
  }

  // A certificate's balance is its own ledger, never below zero nor above its value; what bookings
  // took from certificates is what the certificates gave them.
  const entries = entryRows.map((e) => ({
    ...e,
    amount: Number(e.amount),
    places: e.places === null ? null : Number(e.places),
  }));
  const entriesOf = groupBy(entries, (e) => e.certificate_id);
  const paymentById = new Map(payments.map((p) => [p.id, p]));
  const salePayments = new Set<number>();
  let certificatesHeld = 0;
  for (const c of certificates) {
    const own = entriesOf.get(c.id) ?? [];
    const places = c.kind === 'places';
    const ledger = own.reduce((n, e) => n + (places ? (e.places ?? 0) : e.amount), 0);
    const unit = places ? 'мест' : 'дин.';
    if (c.balance !== ledger)
      add(
        `certificate-ledger:${c.id}`,
        `Сертификат №${c.id}: остаток ${c.balance} ${unit}, а по его журналу ${ledger} ${unit}`,
      );
    if (c.balance < 0) add(`certificate-negative:${c.id}`, `Сертификат №${c.id}: остаток ушёл в минус`);
    if (!places && c.balance > c.amount)
      add(`certificate-above:${c.id}`, `Сертификат №${c.id}: остаток ${rsd(c.balance)} больше номинала`);
    if (!places && c.voided_at === null && c.expires_at > now.toISOString()) certificatesHeld += c.balance;
    if (c.payment_id !== null) salePayments.add(c.payment_id);
    for (const e of own.filter((e) => e.kind === 'sale' && e.payment_id !== null)) {
      salePayments.add(e.payment_id!);
      if (paymentById.get(e.payment_id!)?.amount !== c.amount)
        add(`certificate-sale:${c.id}`, `Сертификат №${c.id}: продажа не сходится с платежом в журнале`);
    }
  }
  const spentByRecord = groupBy(
    entries.filter((e) => e.record_id !== null && (e.kind === 'redemption' || e.kind === 'return')),
    (e) => e.record_id!,
  );
  for (const id of new Set([...spentByRecord.keys(), ...byRecord.keys()])) {
    const fromCertificates = -sum(spentByRecord.get(id) ?? []);
    const onBooking = sum((byRecord.get(id) ?? []).filter((p) => p.method === 'certificate'));
    if (fromCertificates !== onBooking)
      add(
        `record-certificate:${id}`,
        `Запись №${id}: сертификаты отдали ${rsd(fromCertificates)}, а в журнале записи ${rsd(onBooking)}`,
      );
  }

  // The cash desk says what the ledger sums to.
  const byMethod = groupBy(payments, (p) => p.method);
  for (const method of new Set([...byMethod.keys(), ...Object.keys(desk.totals)] as Row['method'][])) {
    const ledger = sum(byMethod.get(method) ?? []);
    if ((desk.totals[method] ?? 0) !== ledger)
      add(
        `desk-method:${method}`,
        `Касса: итог «${method}» ${rsd(desk.totals[method] ?? 0)}, а по журналу ${rsd(ledger)}`,
      );
  }
  const money = payments.filter((p) => p.method !== 'credit' && p.method !== 'certificate');
  const received = sum(money.filter((p) => p.amount > 0));
  const refunded = -sum(money.filter((p) => p.amount < 0));
  if (desk.received !== received || desk.refunded !== refunded)
    add(
      'desk-received',
      `Касса: получено ${rsd(desk.received)} и возвращено ${rsd(desk.refunded)}, а по журналу ${rsd(received)} и ${rsd(refunded)}`,
    );
  // The credit erased customers left is owed back too, on no booking.
  owedBack += await owedRefundsTotal(db);
  if (desk.refunds_owed !== owedBack)
    add('desk-owed', `Касса: к возврату ${rsd(desk.refunds_owed)}, а по записям ${rsd(owedBack)}`);
  if (desk.credit_outstanding !== creditTotal)
    add(
      'desk-credit',
      `Касса: на балансах в студии ${rsd(desk.credit_outstanding)}, а по клиентам ${rsd(creditTotal)}`,
    );
  if (desk.certificates.outstanding !== certificatesHeld)
    add(
      'desk-certificates',
      `Касса: на сертификатах ${rsd(desk.certificates.outstanding)}, а по сертификатам ${rsd(certificatesHeld)}`,
    );

  // Nothing paid is owed to nobody: money without a booking is credit, a certificate's sale, a
  // payer's, or an erased customer's owed refund paid out; a booking still queued when its session
  // has started holds no money.
  const payouts = await listOwedRefundPayouts(db);
  for (const p of payments)
    if (
      p.record_id === null &&
      p.method !== 'credit' &&
      !salePayments.has(p.id) &&
      !payouts.has(p.id) &&
      p.telegram_id === null
    )
      add(`payment-orphan:${p.id}`, `Платёж №${p.id} на ${rsd(p.amount)}: ни записи, ни сертификата, ни клиента`);
  const queuedPaid = [...byRecord.keys()].filter(
    (id) => records.get(id)?.state === 'QUEUED' && sum(byRecord.get(id)!) > 0,
  );
  if (queuedPaid.length > 0) {
    const started = await db
      .selectFrom('records as r')
      .innerJoin('schedules as s', 's.id', 'r.schedule_id')
      .select('r.id')
      .where('r.id', 'in', queuedPaid)
      .where('s.date', '<=', now.toISOString())
      .execute();
    for (const { id } of started)
      add(
        `record-queued-paid:${id}`,
        `Запись №${id} осталась в листе ожидания после начала занятия, а по ней оплачено ${rsd(sum(byRecord.get(id)!))}`,
      );
  }
  return breaks;
}
