import {
  buyerIdOf,
  type FiscalBuyerId,
  type FiscalHealth,
  type FiscalProbe,
  type FiscalReceiptPrint,
  type FiscalReceiptPublic,
  type FiscalReport,
  type FiscalSettings,
  type FiscalSettingsUpdate,
  type FiscalStatus,
} from '../../contract/fiscal';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { getFiscalReceipt } from '../../db/repositories/fiscal';
import {
  countManualWaiting,
  lockInvoiceNumber,
  markReceiptPrinted,
  receiptWithNumber,
  setManualReceiptNumber,
  setReceiptBuyer,
} from '../../db/repositories/fiscal-staff';
import { createLpfr } from '../fiscal/lpfr';
import { FiscalPinRequired, FiscalRefused, FiscalUnreachable, type FiscalPort } from '../fiscal/port';
import { PFR_CODES } from '../fiscal/protocol';
import { getFiscalSettings, writeFiscalSettings } from '../fiscal/settings';
import { fiscalReport, receiptView, RECEIPT_NOT_FOUND } from '../fiscal/staff';
import { assertCan, type Actor } from '../kernel/actor';
import { Conflict, Invalid, NotFound, Unavailable, Unprocessable } from '../kernel/errors';
import { updateAudited } from '../notify/audited-change';
import { publish } from '../notify/publish';
import { enterPin, fiscalHealth } from './fiscal-sender';

/*
 * What staff do with fiscal receipts: the owner's settings (audited) and the PFR's PIN, the state of
 * the PFR and of the fiscal outbox, a receipt number typed from the studio's own register, a refund's
 * buyer ID, the daily report and a receipt to print. Above the sender, whose health and PIN entry it uses.
 */

/** How long «Проверить связь» and the status wait for the PFR: the page must answer even when it is down. */
const PROBE_TIMEOUT_MS = 4_000;

/** The PFR at an address, as the status reads it. */
export type PortFor = (url: string) => FiscalPort;
const lpfrAt: PortFor = (url) => createLpfr({ url, timeoutMs: PROBE_TIMEOUT_MS });

const describe = (err: unknown) =>
  err instanceof FiscalPinRequired
    ? 'PFR ждёт PIN-код'
    : err instanceof FiscalUnreachable || err instanceof FiscalRefused
      ? err.message
      : `PFR ответил непонятно: ${String(err)}`;

/** Asks the PFR at `url` what the settings page shows: whether it answers, its PIN, tax labels and environment. */
export async function probePfr(url: string, portFor: PortFor = lpfrAt): Promise<FiscalProbe> {
  const out: FiscalProbe = {
    url,
    reachable: false,
    error: null,
    pin_required: false,
    gsc: [],
    uid: null,
    last_invoice_number: null,
    environment: null,
    labels: [],
  };
  const port = portFor(url);
  if (!(await port.attention())) return { ...out, error: `PFR по адресу ${url} не отвечает` };
  try {
    const status = await port.status();
    out.reachable = true;
    out.gsc = status.gsc ?? [];
    out.pin_required = status.isPinRequired || out.gsc.includes(PFR_CODES.pinRequired);
    out.uid = status.uid ?? null;
    out.last_invoice_number = status.lastInvoiceNumber || null;
    out.labels = (status.currentTaxRates?.taxCategories ?? [])
      .flatMap((c) => c.taxRates.map((t) => ({ label: t.label, rate: t.rate, category: c.name })))
      .sort((a, b) => a.label.localeCompare(b.label));
  } catch (err) {
    if (err instanceof FiscalPinRequired) return { ...out, reachable: true, pin_required: true, error: describe(err) };
    return { ...out, error: describe(err) };
  }
  try {
    out.environment = (await port.environment()).environmentName ?? null;
  } catch {
    // The environment's name is for the page only; the PFR answered its status.
  }
  return out;
}

const healthOf = (db: Executor): Promise<FiscalHealth> => fiscalHealth(db);

/** The fiscal mode and training, the PFR's answers (lpfr, unless `probe` is off) and the outbox's state. */
export async function fiscalStatus(
  db: Executor,
  actor: Actor,
  opts: { probe?: boolean; portFor?: PortFor } = {},
): Promise<FiscalStatus> {
  assertCan(actor, 'fiscal.read');
  const s = await getFiscalSettings(db);
  const pfr =
    opts.probe !== false && s.fiscal_mode === 'lpfr' && s.fiscal_pfr_url
      ? await probePfr(s.fiscal_pfr_url, opts.portFor)
      : null;
  return {
    mode: s.fiscal_mode,
    training: s.fiscal_training,
    pfr,
    health: await healthOf(db),
    manual_waiting: await countManualWaiting(db),
  };
}

/** «Проверить связь»: the owner asks an address before saving it. */
export async function checkPfr(actor: Actor, url: string, portFor?: PortFor): Promise<FiscalProbe> {
  assertCan(actor, 'fiscal.settings');
  if (!url) throw new Unprocessable('fiscalNoPfrUrl');
  return probePfr(url, portFor);
}

const LABEL_FIELDS = ['fiscal_label_workshop', 'fiscal_label_certificate', 'fiscal_label_pass'] as const;

/**
 * The owner changes the fiscal settings (logged as fiscal_settings #0). In lpfr mode a tax label must be
 * one the PFR's current rates define: a changed label is checked with the PFR before anything is saved.
 */
export async function changeFiscalSettings(
  database: Database,
  actor: Actor,
  update: FiscalSettingsUpdate,
  portFor?: PortFor,
): Promise<FiscalSettings> {
  assertCan(actor, 'fiscal.settings');
  const before = await getFiscalSettings(database.db);
  const next = { ...before, ...update };
  if (next.fiscal_mode === 'lpfr' && !next.fiscal_pfr_url) throw new Unprocessable('fiscalNoPfrUrl');
  const changed = LABEL_FIELDS.map((f) => next[f]).filter(
    (label, i) => label !== '' && label !== before[LABEL_FIELDS[i]],
  );
  const urlChanged = next.fiscal_pfr_url !== before.fiscal_pfr_url;
  const labels = LABEL_FIELDS.map((f) => next[f]).filter((l) => l !== '');
  const toCheck = urlChanged || (update.fiscal_mode === 'lpfr' && before.fiscal_mode !== 'lpfr') ? labels : changed;
  if (next.fiscal_mode === 'lpfr' && toCheck.length > 0) {
    const probe = await probePfr(next.fiscal_pfr_url, portFor);
    if (probe.labels.length === 0) throw new Unavailable('fiscalLabelsUnverified');
    const unknown = toCheck.find((l) => !probe.labels.some((t) => t.label === l));
    if (unknown !== undefined) throw new Unprocessable({ code: 'fiscalLabelUnknown', args: { label: unknown } });
  }
  return (
    (await updateAudited(
      database,
      'fiscal_settings',
      0,
      actor,
      (trx) => getFiscalSettings(trx),
      (trx) => writeFiscalSettings(trx, update),
    )) ?? getFiscalSettings(database.db)
  );
}

/**
 * The owner enters the PIN the PFR asks for. It goes to the PFR and nowhere else: not stored, not in
 * the log (the audit says only that a PIN was accepted); waiting receipts go out once it is.
 */
export async function enterFiscalPin(
  database: Database,
  actor: Actor,
  pin: string,
  portFor: PortFor = lpfrAt,
): Promise<FiscalStatus> {
  assertCan(actor, 'fiscal.settings');
  const s = await getFiscalSettings(database.db);
  if (s.fiscal_mode !== 'lpfr' || !s.fiscal_pfr_url) throw new Conflict('fiscalNotLpfr');
  let code: string;
  try {
    code = await enterPin(database, portFor(s.fiscal_pfr_url), pin);
  } catch (err) {
    if (err instanceof FiscalUnreachable)
      throw new Unavailable({ code: 'fiscalPfrUnreachable', args: { error: err.message } });
    throw err;
  }
  if (code === PFR_CODES.cardLocked) throw new Conflict('fiscalPinLocked');
  if (code === PFR_CODES.wrongPin) throw new Invalid('fiscalPinWrong');
  if (code !== PFR_CODES.pinOk) throw new Invalid({ code: 'fiscalPinRefused', args: { code } });
  await withWriteTransaction(database, (trx) =>
    publish(trx, [
      {
        type: 'entity.updated',
        actor,
        entity: 'fiscal_settings',
        entity_id: 0,
        before: null,
        after: { pin: 'принят' },
      },
    ]),
  );
  return fiscalStatus(database.db, actor, { portFor });
}

/**
 * Manual mode: the number of the receipt the studio's own register printed, typed once against a
 * waiting receipt. A second entry (two staff at once, a stale page) and a number already given to
 * another receipt are refused; the number is held while it is checked, so two receipts never get it.
 */
export async function typeManualReceiptNumber(
  database: Database,
  actor: Actor,
  id: number,
  invoiceNumber: string,
): Promise<FiscalReceiptPublic> {
  assertCan(actor, 'fiscal.receipts');
  await withWriteTransaction(database, async (trx) => {
    await lockInvoiceNumber(trx, database.dialect, invoiceNumber);
    const r = await getFiscalReceipt(trx, id);
    if (!r) throw new NotFound(RECEIPT_NOT_FOUND);
    if (r.state === 'issued' || r.invoice_number !== null) throw new Conflict('fiscalNumberTyped');
    if (r.mode !== 'manual' || r.state !== 'waiting') throw new Conflict('fiscalNotManual');
    if (await receiptWithNumber(trx, invoiceNumber))
      throw new Conflict({ code: 'fiscalNumberTaken', args: { number: invoiceNumber } });
    const after = await setManualReceiptNumber(trx, id, {
      invoice_number: invoiceNumber,
      issued_by_user_id: actor.user_id,
      issued_at: nowIso(),
    });
    // Another request typed it between the read and this write (PostgreSQL re-checks the row once it is free).
    if (!after) throw new Conflict('fiscalNumberTyped');
    await publish(trx, [
      {
        type: 'entity.updated',
        actor,
        entity: 'fiscal_receipt',
        entity_id: id,
        before: { state: r.state, invoice_number: null },
        after: { state: after.state, invoice_number: invoiceNumber },
      },
    ]);
  });
  return receiptView(database.db, id);
}

/**
 * A refund's buyer identification, typed by staff for a receipt waiting for it; the receipt then waits
 * for the PFR (or, manual, for its number). The log keeps the document's kind, never its number.
 */
export async function typeBuyerId(
  database: Database,
  actor: Actor,
  id: number,
  buyer: { code: FiscalBuyerId['code']; number: string },
): Promise<FiscalReceiptPublic> {
  assertCan(actor, 'fiscal.receipts');
  await withWriteTransaction(database, async (trx) => {
    const r = await getFiscalReceipt(trx, id);
    if (!r) throw new NotFound(RECEIPT_NOT_FOUND);
    const after = r.state === 'needs_buyer' ? await setReceiptBuyer(trx, id, buyerIdOf(buyer), nowIso()) : undefined;
    if (!after) throw new Conflict('fiscalNoBuyerWanted');
    await publish(trx, [
      {
        type: 'entity.updated',
        actor,
        entity: 'fiscal_receipt',
        entity_id: id,
        before: { state: r.state },
        after: { state: after.state, buyer_id_code: buyer.code },
      },
    ]);
  });
  return receiptView(database.db, id);
}

/**
 * A receipt printed from the admin: the first print of an issued receipt is the original (kept once, even
 * when two are asked at once), every later one a copy.
 */
export async function printFiscalReceipt(database: Database, actor: Actor, id: number): Promise<FiscalReceiptPrint> {
  assertCan(actor, 'fiscal.read');
  const first = await withWriteTransaction(database, async (trx) => {
    const r = await getFiscalReceipt(trx, id);
    if (!r) throw new NotFound(RECEIPT_NOT_FOUND);
    if (r.state !== 'issued') throw new Conflict('fiscalNotIssued');
    return (await markReceiptPrinted(trx, id, nowIso())) !== undefined;
  });
  return { ...(await receiptView(database.db, id)), copy: !first };
}

export function fiscalReportFor(db: Executor, actor: Actor, date: string, timeZone: string): Promise<FiscalReport> {
  assertCan(actor, 'fiscal.read');
  return fiscalReport(db, date, timeZone);
}

export function fiscalReceiptFor(db: Executor, actor: Actor, id: number): Promise<FiscalReceiptPublic> {
  assertCan(actor, 'fiscal.read');
  return receiptView(db, id);
}

export async function fiscalSettingsFor(db: Executor, actor: Actor): Promise<FiscalSettings> {
  assertCan(actor, 'fiscal.read');
  return getFiscalSettings(db);
}
