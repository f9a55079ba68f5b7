import {
  BankLinesQuery,
  normalizeCertificateCode,
  type BankLineAttach,
  type BankLineDismiss,
  type BankLinePublic,
  type BankLinesPublic,
  type BankStatementImport,
  type BankStatementResult,
} from '../../contract';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import {
  claimUnmatchedLine,
  getBankLine,
  insertBankLine,
  listBankLines,
  updateBankLine,
  type BankLineRow,
} from '../../db/repositories/bank-statement';
import { getCertificateByCode } from '../../db/repositories/certificates';
import { setPayBy } from '../../db/repositories/payments';
import { getRecord } from '../../db/repositories/records';
import { onRecord, type OnRecord } from '../booking/command';
import { onCertificate } from '../certificates/certificate-rows';
import { recordSale } from '../certificates/sale';
import { assertCan, type Actor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import type { DomainEvent } from '../kernel/events';
import { appendToRecord, recordMoney } from '../ledger/ledger';
import { publish } from '../notify/publish';
import { parseStatement, type StatementLine } from './bank-statement-csv';
import { DESK_MSG } from './desk';
import { model97Reference } from './ips-qr';
import { payableNow } from './telegram';

/*
 * Bank transfers matched by reference. Each credit line of an imported statement is stored once under a
 * unique key, in the same transaction as the ledger row it becomes: a statement imported twice, or twice
 * at once, records each transfer once. A line whose reference is a booking's IPS reference (model 97 over
 * its number) and whose amount is what the booking asks now (what the QR said, or its whole balance)
 * becomes that booking's bank_transfer row; one naming a gift certificate waiting for payment, for its
 * amount, is that certificate's sale. Every other line waits for staff: attached to a booking by its number,
 * or dismissed with a reason, both logged.
 */

/** The booking a reference names: model 97 with valid control digits over its number (spaces, dashes, the model apart). */
export function referenceRecordId(reference: string): number | null {
  const digits = reference.replace(/\D/g, '');
  for (const ref of [digits, `97${digits}`]) {
    const m = /^97\d\d([1-9]\d{0,9})$/.exec(ref);
    if (m && model97Reference(m[1]) === ref && Number(m[1]) <= 2_147_483_647) return Number(m[1]);
  }
  return null;
}

/** A gift certificate's code written in the reference or the purpose (ABCD-EFGH-JKLM, any case). */
export function referenceCertificateCode(...texts: string[]): string | null {
  for (const text of texts)
    for (const m of text
      .toUpperCase()
      .matchAll(/(?<![A-Z0-9])[A-Z0-9]{4}[\s-]?[A-Z0-9]{4}[\s-]?[A-Z0-9]{4}(?![A-Z0-9])/g)) {
      const code = normalizeCertificateCode(m[0]);
      if (code) return code;
    }
  return null;
}

export const toBankLinePublic = (l: BankLineRow): BankLinePublic => ({
  id: l.id,
  booked_on: l.booked_on,
  amount: l.amount,
  reference: l.reference,
  payer: l.payer,
  purpose: l.purpose,
  status: l.status,
  record_id: l.record_id,
  certificate_id: l.certificate_id,
  payment_id: l.payment_id,
  dismiss_reason: l.dismiss_reason,
  imported_at: l.imported_at,
  resolved_at: l.resolved_at,
  reference_record_id: referenceRecordId(l.reference),
});

const noteOf = (l: Pick<StatementLine, 'booked_on' | 'reference' | 'payer'>) =>
  `Выписка банка ${l.booked_on.split('-').reverse().join('.')}: ${[l.payer, l.reference].filter(Boolean).join(', ')}`.slice(
    0,
    500,
  );

const newLine = (actor: Actor, l: StatementLine) => ({
  line_key: l.key,
  booked_on: l.booked_on,
  amount: l.amount,
  reference: l.reference,
  payer: l.payer,
  purpose: l.purpose,
  status: 'unmatched' as const,
  record_id: null,
  certificate_id: null,
  payment_id: null,
  dismiss_reason: null,
  imported_by_user_id: actor.kind === 'staff' ? actor.user_id : null,
  resolved_by_user_id: null,
  resolved_at: null,
});

/** A booking's transfer, appended like a payment at the desk; paid enough, its seat hold is over. */
async function payByTransfer(c: OnRecord, amount: number, note: string, bookedOn: string) {
  const before = await recordMoney(c.trx, c.record, c.settings);
  const event = await appendToRecord(c.trx, c.actor, c.record, c.schedule, c.settings, {
    amount,
    method: 'bank_transfer',
    kind: 'payment',
    note,
    // Its receipt keeps the day the money arrived, however late the statement is read.
    fiscal: { moved_on: bookedOn },
  });
  if (c.record.pay_by !== null && before.amount_paid + amount >= before.required_now)
    await setPayBy(c.trx, c.record.id, null);
  return event;
}

type Outcome = 'matched' | 'unmatched' | 'already';

/** One line under its booking's lock: stored, and recorded when its amount is what the booking asks now. */
function importForRecord(database: Database, actor: Actor, recordId: number, l: StatementLine): Promise<Outcome> {
  return onRecord(database, actor, recordId, async (c) => {
    const line = await insertBankLine(c.trx, newLine(actor, l));
    if (!line) return { value: 'already', events: [] };
    const due = await payableNow(c.trx, c.record, c.settings);
    if ('refusal' in due || (l.amount !== due.amount && l.amount !== due.balance))
      return { value: 'unmatched', events: [] };
    const event = await payByTransfer(c, l.amount, noteOf(l), l.booked_on);
    await updateBankLine(c.trx, line.id, {
      status: 'matched',
      record_id: recordId,
      payment_id: event.payment.id,
      resolved_at: nowIso(),
    });
    return { value: 'matched', events: [event] };
  });
}

/** One line under its certificate's lock: the sale of a certificate waiting for exactly this amount. */
function importForCertificate(database: Database, actor: Actor, certificateId: number, l: StatementLine) {
  return onCertificate<Outcome>(database, certificateId, async (trx, c) => {
    const line = await insertBankLine(trx, newLine(actor, l));
    if (!line) return { value: 'already', events: [] };
    if (c.paid_at !== null || c.voided_at !== null || c.amount !== l.amount) return { value: 'unmatched', events: [] };
    const events = await recordSale(trx, actor, c, 'bank_transfer');
    const paid = await getCertificateByCode(trx, c.code);
    await updateBankLine(trx, line.id, {
      status: 'matched',
      certificate_id: c.id,
      payment_id: paid?.payment_id ?? null,
      resolved_at: nowIso(),
    });
    return { value: 'matched', events };
  });
}

async function importLine(database: Database, actor: Actor, l: StatementLine): Promise<Outcome> {
  const recordId = referenceRecordId(l.reference);
  if (recordId !== null && (await getRecord(database.db, recordId))) {
    try {
      return await importForRecord(database, actor, recordId, l);
    } catch (err) {
      // Deleted in the meantime: the line waits for staff like any other.
      if (!(err instanceof NotFound)) throw err;
    }
  }
  const code = referenceCertificateCode(l.reference, l.purpose);
  const certificate = code ? await getCertificateByCode(database.db, code) : undefined;
  if (certificate) return importForCertificate(database, actor, certificate.id, l);
  return withWriteTransaction(database, async (trx) =>
    (await insertBankLine(trx, newLine(actor, l))) ? 'unmatched' : 'already',
  );
}

/** Staff import a statement: every credit line stored once, the ones matched by reference recorded once. */
export async function importBankStatement(
  database: Database,
  actor: Actor,
  input: BankStatementImport,
): Promise<BankStatementResult> {
  assertCan(actor, 'cashdesk.read');
  const { lines } = parseStatement(input.text, input.columns);
  const result = { lines: lines.length, matched: 0, unmatched: 0, already: 0 };
  // One line after another: each takes its own booking's lock, and two lines may name one booking.
  for (const l of lines) result[await importLine(database, actor, l)]++;
  return result;
}

export async function listBankLinesView(db: Executor, actor: Actor, query: BankLinesQuery): Promise<BankLinesPublic> {
  assertCan(actor, 'cashdesk.read');
  const q = BankLinesQuery.parse(query);
  const { rows, count } = await listBankLines(db, q);
  return { data: rows.map(toBankLinePublic), count };
}

const lineAudit = (actor: Actor, l: BankLineRow, after: Record<string, unknown>): DomainEvent => ({
  type: 'entity.updated',
  actor,
  entity: 'bank_line',
  entity_id: l.id,
  before: { status: l.status },
  after,
});

/** Staff attach an unmatched line to a booking: its amount becomes the booking's transfer (at most its balance). */
export async function attachBankLine(
  database: Database,
  actor: Actor,
  lineId: number,
  input: BankLineAttach,
): Promise<BankLinePublic> {
  assertCan(actor, 'cashdesk.read');
  const recordId = Number(input.record_id);
  if (!(await getBankLine(database.db, lineId))) throw new NotFound('bankLineNotFound');
  return onRecord(database, actor, recordId, async (c) => {
    const claimed = await claimUnmatchedLine(c.trx, lineId, {
      status: 'attached',
      record_id: recordId,
      resolved_by_user_id: actor.kind === 'staff' ? actor.user_id : null,
      resolved_at: nowIso(),
    });
    if (!claimed) throw new Conflict('bankLineResolved');
    const m = await recordMoney(c.trx, c.record, c.settings);
    if (m.balance <= 0) throw new Conflict(DESK_MSG.paidAlready);
    if (claimed.amount > m.balance) throw new Conflict(DESK_MSG.aboveBalance(m.balance));
    const event = await payByTransfer(c, claimed.amount, noteOf(claimed), claimed.booked_on);
    const line = await updateBankLine(c.trx, lineId, { payment_id: event.payment.id });
    return {
      value: toBankLinePublic(line),
      events: [event, lineAudit(actor, claimed, { status: 'attached', record_id: recordId, amount: line.amount })],
    };
  });
}

/** Staff dismiss an unmatched line that is no booking's money, with the reason (logged). */
export async function dismissBankLine(
  database: Database,
  actor: Actor,
  lineId: number,
  input: BankLineDismiss,
): Promise<BankLinePublic> {
  assertCan(actor, 'cashdesk.read');
  return withWriteTransaction(database, async (trx) => {
    const before = await getBankLine(trx, lineId);
    if (!before) throw new NotFound('bankLineNotFound');
    const line = await claimUnmatchedLine(trx, lineId, {
      status: 'dismissed',
      dismiss_reason: input.reason,
      resolved_by_user_id: actor.kind === 'staff' ? actor.user_id : null,
      resolved_at: nowIso(),
    });
    if (!line) throw new Conflict('bankLineResolved');
    await publish(trx, [lineAudit(actor, before, { status: 'dismissed', reason: input.reason, amount: line.amount })]);
    return toBankLinePublic(line);
  });
}
