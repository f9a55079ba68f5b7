import { inTransaction } from '../../db/lock';
import { randomUUID } from 'node:crypto';
import type { FiscalSettings } from '../../contract/fiscal';
import { startOfStudioDay, toZonedInput } from '../../contract/format';
import { nowIso, type Executor } from '../../db/database';
import { getFiscalReceiptByKey, insertFiscalReceipt, type FiscalReceiptRow } from '../../db/repositories/fiscal';
import {
  insertAdvanceParts,
  knownBuyerId,
  latestAdvanceOfRecord,
  openAdvances,
  reassignAdvances,
  type AdvanceHolder,
  type AdvancePart,
  type OpenAdvance,
} from '../../db/repositories/fiscal-advances';
import { creditBalance, listPaymentsOfRecord, type PaymentRow } from '../../db/repositories/payments';
import { getRecord, type RecordRow } from '../../db/repositories/records';
import { getSchedule } from '../../db/repositories/schedules';
import type { Actor } from '../kernel/actor';
import type { InvoicePayment } from './protocol';
import { casesFor, PAYMENT_TYPE_OF_METHOD, type Movement, type ReceiptCase } from './receipts';
import { getFiscalSettings } from './settings';

/*
 * Writes the receipts the money needs (the cases of receipts.ts) in the transaction of what they
 * fiscalize: the ledger's writer calls fiscalizePayment for every row it appends, check-in and the
 * delivery job call fiscalizeDelivery. With fiscal_mode off it reads the settings (once per
 * transaction) and writes nothing. Each advance's money is followed (fiscal_advances) as it moves
 * between a booking, the customer's credit and a certificate, so a delivery closes exactly what was
 * advanced for it, and a refund names the advance it returns.
 */

/** Fiscal days are Serbia's (the law the receipts answer to): the studio's day for door money and late transfers. */
export const FISCAL_TIMEZONE = 'Europe/Belgrade';

/** What the ledger's writer knows of a row beyond the row itself. */
export interface FiscalContext {
  /** The day the money arrived, when it is recorded later (a bank statement's line): YYYY-MM-DD. */
  moved_on?: string;
  /** The gift certificate sold (a sale row without a booking) or spent on / returned from a booking. */
  certificate_id?: number;
  /** A Telegram charge kept as the payer's studio credit (its booking is gone). */
  to_credit?: boolean;
  /** An owed refund paid out: the ledger row that took the erased customer's credit. */
  owed_payment_id?: number;
  /** The row takes an erasing customer's credit out: their advances go with it to the owed refund. */
  erased_telegram_id?: number;
}

const settingsOfTransaction = new WeakMap<object, Promise<FiscalSettings>>();

/** The fiscal settings, read once per transaction (a command appends several ledger rows). */
function fiscalSettingsOf(db: Executor): Promise<FiscalSettings> {
  if (!inTransaction(db)) return getFiscalSettings(db);
  let s = settingsOfTransaction.get(db);
  if (!s) settingsOfTransaction.set(db, (s = getFiscalSettings(db)));
  return s;
}

const saleKey = (recordId: number) => `sale:${recordId}`;
const studioDay = (when: string) => toZonedInput(when, FISCAL_TIMEZONE).slice(0, 10);
const sum = (xs: readonly { amount: number }[]) => xs.reduce((t, x) => t + x.amount, 0);
const isRealMoney = (method: string) => Object.hasOwn(PAYMENT_TYPE_OF_METHOD, method);

/**
 * When the money moved: the row's time, or for money recorded a day late (a bank statement) midday of
 * the day it arrived, never later than the row.
 */
function movedAt(p: PaymentRow, ctx: FiscalContext): string {
  if (ctx.moved_on === undefined || ctx.moved_on >= studioDay(p.at)) return p.at;
  return startOfStudioDay(ctx.moved_on, FISCAL_TIMEZONE, 0, 12);
}

/** Payments by type in the order they first appear, zero parts left out. */
function merged(parts: InvoicePayment[]): InvoicePayment[] {
  const out = new Map<string, InvoicePayment>();
  for (const p of parts) {
    if (p.amount <= 0) continue;
    const seen = out.get(p.paymentType);
    if (seen) seen.amount += p.amount;
    else out.set(p.paymentType, { ...p });
  }
  return [...out.values()];
}

interface Written {
  key: string;
  payment_id?: number | null;
  record_id: number | null;
  certificate_id?: number | null;
  parts: InvoicePayment[];
  covers?: number[];
  esir_time: string;
  referent_receipt_id: number | null;
  buyer_id?: string | null;
}

/** One receipt as its case says; undefined when its key was written before (nothing is fiscalized twice). */
async function write(
  trx: Executor,
  s: FiscalSettings,
  c: ReceiptCase,
  w: Written,
): Promise<FiscalReceiptRow | undefined> {
  const doc = c.receipt!;
  const parts = merged(w.parts);
  const main = parts.reduce((a, b) => (b.amount > a.amount ? b : a), parts[0]);
  // The delivery's close is handed to nobody: under `omit` it goes without the buyer's ID (the studio's choice).
  const needsBuyer = doc.buyer && !(c.name === 'close' && s.fiscal_close_buyer_id === 'omit');
  const buyerId = needsBuyer ? (w.buyer_id ?? null) : null;
  const mode = s.fiscal_mode === 'manual' ? 'manual' : 'lpfr';
  return insertFiscalReceipt(trx, {
    receipt_key: w.key,
    kind: c.name,
    invoice_type: doc.invoiceType,
    transaction_type: doc.transactionType,
    payment_id: w.payment_id ?? null,
    record_id: w.record_id,
    certificate_id: w.certificate_id ?? null,
    amount: sum(parts),
    payment_type: main.paymentType,
    parts: JSON.stringify(parts),
    covers: w.covers && w.covers.length > 0 ? JSON.stringify(w.covers) : null,
    esir_time: w.esir_time,
    referent_receipt_id: w.referent_receipt_id,
    buyer_id: buyerId,
    request_id: randomUUID().replaceAll('-', ''),
    mode,
    training: s.fiscal_training ? 1 : 0,
    // In manual mode staff ask for the ID at their own register as they type the receipt.
    state: needsBuyer && buyerId === null && mode === 'lpfr' ? 'needs_buyer' : 'waiting',
    next_attempt_at: nowIso(),
  });
}

/**
 * Moves up to `amount` of a holder's advances (latest first unless `oldest`; `prefer` ones before the
 * rest; only those `only` allows): to another holder, or out (closed or paid back by `receipt_id`, or
 * simply gone). Returns the parts taken.
 */
async function take(
  trx: Executor,
  from: AdvanceHolder,
  amount: number,
  opts: {
    to?: AdvanceHolder;
    receipt_id?: number;
    payment_id?: number;
    oldest?: boolean;
    prefer?: (a: OpenAdvance) => boolean;
    only?: (a: OpenAdvance) => boolean;
  },
): Promise<OpenAdvance[]> {
  if (amount <= 0) return [];
  let open = (await openAdvances(trx, from)).filter(opts.only ?? (() => true));
  if (!opts.oldest) open.reverse();
  if (opts.prefer) open = [...open.filter(opts.prefer), ...open.filter((a) => !opts.prefer!(a))];
  const taken: OpenAdvance[] = [];
  const rows: AdvancePart[] = [];
  let left = amount;
  for (const a of open) {
    if (left <= 0) break;
    const t = Math.min(left, a.amount);
    left -= t;
    taken.push({ ...a, amount: t });
    const part = { advance_id: a.advance_id, payment_type: a.payment_type, payment_id: opts.payment_id ?? null };
    rows.push({ ...part, ...from, amount: -t, receipt_id: opts.receipt_id ?? null });
    if (opts.to) rows.push({ ...part, ...opts.to, amount: t, receipt_id: null });
  }
  await insertAdvanceParts(trx, rows);
  return taken;
}

const latestOf = (taken: OpenAdvance[]) => (taken.length > 0 ? Math.max(...taken.map((a) => a.advance_id)) : null);

/** Cash or card staff take on the session's day for an ACTIVE booking: the customer is at the door. */
async function atTheDoor(trx: Executor, r: RecordRow, p: PaymentRow, actor: Actor, ctx: FiscalContext) {
  if (actor.kind !== 'staff' || ctx.moved_on !== undefined) return false;
  if ((p.method !== 'cash' && p.method !== 'card') || r.state !== 'ACTIVE' || r.attendance === 'NO_SHOW') return false;
  const schedule = await getSchedule(trx, r.schedule_id);
  return schedule !== undefined && studioDay(schedule.date) === studioDay(p.at);
}

/** The receipts one ledger row needs, written in its transaction (called by the ledger's writer for every row). */
export async function fiscalizePayment(
  trx: Executor,
  p: PaymentRow,
  actor: Actor,
  ctx: FiscalContext = {},
): Promise<void> {
  const s = await fiscalSettingsOf(trx);
  if (s.fiscal_mode === 'off') return;
  const delivered = p.record_id !== null && (await getFiscalReceiptByKey(trx, saleKey(p.record_id))) !== undefined;
  if (!isRealMoney(p.method) || p.amount === 0) return moveAdvances(trx, s, p, ctx, delivered);
  const record = p.record_id !== null ? await getRecord(trx, p.record_id) : undefined;
  const m: Movement = {
    what: p.amount > 0 ? 'in' : 'out',
    delivered,
    door: p.amount > 0 && !delivered && record !== undefined && (await atTheDoor(trx, record, p, actor, ctx)),
    certificate: p.record_id === null && ctx.certificate_id !== undefined ? s.fiscal_certificate_receipts : null,
  };
  const [c] = casesFor(m);
  if (!c?.receipt) {
    if (c?.name === 'door') await deliver(trx, s, record!, p.at, p);
    return;
  }
  const own = {
    key: `payment:${p.id}`,
    payment_id: p.id,
    record_id: p.record_id,
    parts: [{ paymentType: PAYMENT_TYPE_OF_METHOD[p.method], amount: Math.abs(p.amount) }],
    esir_time: movedAt(p, ctx),
  };
  const buyer = () => knownBuyerId(trx, p.record_id, record?.telegram_id ?? p.telegram_id);
  switch (c.receipt.references) {
    case 'none':
      await write(trx, s, c, { ...own, referent_receipt_id: null });
      return;
    case 'previous_advance': {
      const holder: AdvanceHolder | null =
        p.record_id !== null
          ? { holder: 'record', holder_id: p.record_id }
          : ctx.certificate_id !== undefined
            ? { holder: 'certificate', holder_id: ctx.certificate_id }
            : ctx.to_credit && p.telegram_id !== null
              ? { holder: 'credit', holder_id: p.telegram_id }
              : null;
      const previous = p.record_id !== null ? await latestAdvanceOfRecord(trx, p.record_id) : undefined;
      const row = await write(trx, s, c, {
        ...own,
        certificate_id: ctx.certificate_id ?? null,
        referent_receipt_id: previous?.id ?? null,
      });
      if (row && holder)
        await insertAdvanceParts(trx, [
          {
            advance_id: row.id,
            ...holder,
            amount: row.amount,
            payment_type: row.payment_type,
            receipt_id: null,
            payment_id: p.id,
          },
        ]);
      return;
    }
    case 'sale': {
      const sale = await getFiscalReceiptByKey(trx, saleKey(p.record_id!));
      await write(trx, s, c, { ...own, referent_receipt_id: sale!.id, buyer_id: await buyer() });
      return;
    }
    case 'returned': {
      const holder: AdvanceHolder | null =
        p.record_id !== null
          ? { holder: 'record', holder_id: p.record_id }
          : ctx.owed_payment_id !== undefined
            ? { holder: 'owed', holder_id: ctx.owed_payment_id }
            : null;
      if (await getFiscalReceiptByKey(trx, own.key)) return;
      const open = holder ? await openAdvances(trx, holder) : [];
      // The money goes back from the advances it came in with, a certificate's last (its part goes back to the certificate).
      const returned =
        open.length > 0 ? ([...open].reverse().find((a) => a.certificate_id === null) ?? open.at(-1)) : undefined;
      const fallback = returned
        ? undefined
        : p.record_id !== null
          ? await latestAdvanceOfRecord(trx, p.record_id)
          : undefined;
      const row = await write(trx, s, c, {
        ...own,
        referent_receipt_id: returned?.advance_id ?? fallback?.id ?? null,
        buyer_id: await buyer(),
      });
      if (row && holder)
        await take(trx, holder, row.amount, {
          receipt_id: row.id,
          payment_id: p.id,
          prefer: (a) => a.certificate_id === null,
        });
      return;
    }
    default:
      throw new Error(`fiscal: a ledger row cannot get a «${c.name}» receipt`);
  }
}

/** A row that is not real money moves the advances behind the money it moves (no receipt of its own). */
async function moveAdvances(trx: Executor, s: FiscalSettings, p: PaymentRow, ctx: FiscalContext, delivered: boolean) {
  // After the delivery the booking's advances are closed: what it gives back or takes on is no advance.
  if (delivered) return;
  const booking: AdvanceHolder | null = p.record_id !== null ? { holder: 'record', holder_id: p.record_id } : null;
  if (p.method === 'credit') {
    if (ctx.erased_telegram_id !== undefined) {
      await reassignAdvances(
        trx,
        { holder: 'credit', holder_id: ctx.erased_telegram_id },
        { holder: 'owed', holder_id: p.id },
      );
      return;
    }
    if (p.telegram_id === null) return;
    const credit: AdvanceHolder = { holder: 'credit', holder_id: p.telegram_id };
    if (booking && p.amount > 0) await take(trx, credit, p.amount, { to: booking, payment_id: p.id, oldest: true });
    else if (booking && p.amount < 0)
      await take(trx, booking, -p.amount, { to: credit, payment_id: p.id, prefer: (a) => a.certificate_id === null });
    else if (!booking && p.amount < 0) {
      // Credit taken off by a superuser: the credit never holds more advances than its balance.
      const excess = sum(await openAdvances(trx, credit)) - (await creditBalance(trx, p.telegram_id));
      await take(trx, credit, excess, { payment_id: p.id });
    }
    return;
  }
  if (
    p.method === 'certificate' &&
    booking &&
    ctx.certificate_id !== undefined &&
    s.fiscal_certificate_receipts === 'sale'
  ) {
    const certificate: AdvanceHolder = { holder: 'certificate', holder_id: ctx.certificate_id };
    if (p.amount > 0) await take(trx, certificate, p.amount, { to: booking, payment_id: p.id, oldest: true });
    else
      await take(trx, booking, -p.amount, {
        to: certificate,
        payment_id: p.id,
        only: (a) => a.certificate_id === ctx.certificate_id,
      });
  }
}

/**
 * A booking's service was delivered at `at`: an Advance Refund closes what it holds of advances (its
 * own, and those behind the credit or certificate it spent), then a Normal Sale for all it was paid:
 * the advances by their payment types, the door money (`door`), and a certificate's part no advance
 * receipt took in as Voucher. Nothing when it was paid nothing or was delivered before.
 */
async function deliver(trx: Executor, s: FiscalSettings, r: RecordRow, at: string, door?: PaymentRow): Promise<number> {
  if (await getFiscalReceiptByKey(trx, saleKey(r.id))) return 0;
  const booking: AdvanceHolder = { holder: 'record', holder_id: r.id };
  const ledger = await listPaymentsOfRecord(trx, r.id);
  const held = await openAdvances(trx, booking);
  const byCertificates = sum(ledger.filter((p) => p.method === 'certificate'));
  const voucher = Math.max(0, byCertificates - sum(held.filter((a) => a.certificate_id !== null)));
  const closing = held.map((a) => ({ paymentType: a.payment_type as InvoicePayment['paymentType'], amount: a.amount }));
  const atDoor = door ? [{ paymentType: PAYMENT_TYPE_OF_METHOD[door.method], amount: door.amount }] : [];
  const parts = [...closing, ...atDoor, { paymentType: 'Voucher' as const, amount: voucher }];
  if (sum(parts) <= 0) return 0;
  const [closeCase, saleCase] = casesFor({ what: 'delivery', delivered: false, door: false, certificate: null });
  const buyerId = await knownBuyerId(trx, r.id, r.telegram_id);
  let close: FiscalReceiptRow | undefined;
  if (sum(closing) > 0) {
    close = await write(trx, s, closeCase, {
      key: `close:${r.id}`,
      record_id: r.id,
      parts: closing,
      esir_time: at,
      referent_receipt_id: latestOf(held),
      buyer_id: buyerId,
    });
    if (close) await take(trx, booking, close.amount, { receipt_id: close.id, oldest: true });
  }
  const sale = await write(trx, s, saleCase, {
    key: saleKey(r.id),
    payment_id: door?.id ?? null,
    record_id: r.id,
    parts,
    covers: ledger.filter((p) => p.method === 'credit' || p.method === 'certificate').map((p) => p.id),
    esir_time: at,
    referent_receipt_id: close?.id ?? null,
  });
  return Number(close !== undefined) + Number(sale !== undefined);
}

/**
 * An erasing customer who holds no credit: the traces of advances their credit once held name nobody
 * (an erased customer's credit is holder 0). With credit left, its row moves them to the owed refund.
 */
export async function forgetCreditAdvances(trx: Executor, telegramId: number): Promise<void> {
  await reassignAdvances(trx, { holder: 'credit', holder_id: telegramId }, { holder: 'credit', holder_id: 0 });
}

/**
 * A booking's service was delivered at `at` (its check-in «пришёл», its session started): its close
 * and sale, in the caller's transaction under the booking's lock. Returns how many receipts it wrote.
 */
export async function fiscalizeDelivery(trx: Executor, r: RecordRow, at: string): Promise<number> {
  const s = await fiscalSettingsOf(trx);
  if (s.fiscal_mode === 'off' || r.state !== 'ACTIVE' || r.attendance === 'NO_SHOW') return 0;
  return deliver(trx, s, r, at);
}
