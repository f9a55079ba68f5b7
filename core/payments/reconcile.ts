import type { UnreconciledDecisionBody, UnreconciledKind, UnreconciledList } from '../../contract/unreconciled';
import { UnreconciledDecisionBody as DecisionSchema } from '../../contract/unreconciled';
import type { Database, Executor } from '../../db/database';
import { withLocks, withWriteTransaction } from '../../db/lock';
import {
  ledgerSumsByRecord,
  listExpiredHolds,
  listPaymentsOfRecord,
  listRecordsByIds,
  type PaymentRow,
} from '../../db/repositories/payments';
import { getRecord, type RecordRow } from '../../db/repositories/records';
import {
  decideFinding,
  getFinding,
  insertFinding,
  listOpenFindingKeys,
  listOpenFindings,
} from '../../db/repositories/unreconciled';
import { listOwedRefunds } from '../../db/repositories/owed-refunds';
import { assertCan, type Actor, type StaffActor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import type { DomainEvent } from '../kernel/events';
import { getBusinessSettings } from '../kernel/settings';
import { onRecord } from '../booking/command';
import { appendToGoneRecord, appendToRecord } from '../ledger/ledger';
import { moneyOf, priceOf } from '../ledger/price';
import { publish, type Published } from '../notify/publish';
import { HOLD_EXPIRED_REASON, QUEUE_PASSED_REASON } from './telegram';
import { DESK_MSG } from './desk';

/*
 * Stuck money, found and decided. A sweeper (a scheduler job) finds money whose booking's state does
 * not account for it: a booking the system cancelled (hold ran out, queue passed) still holding money,
 * one paid while queued, one paid beyond its price, money left on a deleted booking, and a hold past
 * pay_by the hold job did not settle. Each finding is kept once by its key and alerts staff once; it
 * waits on the cash desk's «Несверенные деньги» card until staff decide it (to the customer's credit,
 * refunded the way it came, or kept with a reason: audited, its ledger rows through core/ledger), or
 * until a later sweep finds the money accounted for.
 */

/** A hold past pay_by by this much is one the hold job should have settled. */
const HOLD_GRACE_MS = 10 * 60_000;
const SYSTEM_CANCELS: (string | null)[] = [HOLD_EXPIRED_REASON, QUEUE_PASSED_REASON];

interface Finding {
  kind: UnreconciledKind;
  record_id: number;
  telegram_id: number | null;
  amount: number;
}

const keyOf = (f: Finding) => `${f.kind}:${f.record_id}:${f.amount}`;

/** What of a booking's money (its ledger `paid`, net) its state does not account for; null when all is. */
function stuckOf(r: RecordRow | undefined, paid: number): Pick<Finding, 'kind' | 'amount'> | null {
  if (!r) return paid > 0 ? { kind: 'no_booking', amount: paid } : null;
  if (r.state === 'QUEUED') return paid > 0 ? { kind: 'queued_paid', amount: paid } : null;
  if (r.state === 'CANCELLED')
    return paid > 0 && SYSTEM_CANCELS.includes(r.cancel_reason) ? { kind: 'cancelled_paid', amount: paid } : null;
  const over = paid - priceOf(r);
  return over > 0 ? { kind: 'overpaid', amount: over } : null;
}

/** Every piece of stuck money now. */
async function findStuckMoney(db: Executor, now: Date): Promise<Finding[]> {
  const sums = (await ledgerSumsByRecord(db))
    .map((s) => ({ id: s.record_id!, paid: Number(s.paid) }))
    .sort((a, b) => a.id - b.id);
  const findings: Finding[] = [];
  const ids = sums.filter((s) => s.paid > 0).map((s) => s.id);
  const records = new Map<number, RecordRow>();
  for (let i = 0; i < ids.length; i += 500)
    for (const r of await listRecordsByIds(db, ids.slice(i, i + 500))) records.set(r.id, r);
  for (const s of sums) {
    const r = records.get(s.id);
    const stuck = s.paid > 0 ? stuckOf(r, s.paid) : null;
    if (stuck)
      findings.push({
        ...stuck,
        record_id: s.id,
        telegram_id: r ? r.telegram_id : await payerOf(db, s.id),
      });
  }
  const settings = await getBusinessSettings(db);
  for (const ref of await listExpiredHolds(db, new Date(now.getTime() - HOLD_GRACE_MS).toISOString())) {
    const r = (await getRecord(db, ref.id))!;
    const m = moneyOf(r, await listPaymentsOfRecord(db, r.id), settings);
    if (m.amount_paid < m.required_now)
      findings.push({ kind: 'hold_overdue', record_id: r.id, telegram_id: r.telegram_id, amount: m.amount_paid });
  }
  return findings;
}

/** Whose the money of a deleted booking was: the Telegram id its ledger rows name. */
async function payerOf(db: Executor, recordId: number): Promise<number | null> {
  const rows = await listPaymentsOfRecord(db, recordId);
  const id = rows.find((p) => p.telegram_id !== null)?.telegram_id;
  return id == null ? null : Number(id);
}

/**
 * The sweeper: keeps each new finding (and alerts staff of it, once: on every instance and tick the
 * finding's key is kept once) and closes open findings whose money is accounted for now. Returns how
 * many were new.
 */
export async function sweepUnreconciled(database: Database, now = new Date()): Promise<number> {
  const findings = await findStuckMoney(database.db, now);
  return withWriteTransaction(database, async (trx) => {
    const events: Published[] = [];
    for (const f of findings) {
      const row = await insertFinding(trx, { ...f, finding_key: keyOf(f), found_at: now.toISOString() });
      if (row)
        events.push({
          type: 'staff.alert',
          notification: {
            kind: 'staff.money',
            payload: { event: 'unreconciled', problem: f.kind, amount: f.amount, record_id: f.record_id },
          },
        });
    }
    const still = new Set(findings.map(keyOf));
    for (const open of await listOpenFindingKeys(trx))
      if (!still.has(open.finding_key))
        await decideFinding(trx, open.id, {
          decision: 'settled',
          reason: null,
          decided_by_user_id: null,
          decided_at: now.toISOString(),
        });
    await publish(trx, events);
    return events.length;
  });
}

/** The card's lines: the open findings and the refunds owed to erased customers, oldest first. */
export async function listUnreconciled(db: Executor, actor: Actor): Promise<UnreconciledList> {
  assertCan(actor, 'cashdesk.read');
  const rows = await listOpenFindings(db);
  return {
    items: rows.map((u) => ({
      id: u.id,
      kind: u.kind as UnreconciledKind,
      record_id: u.record_id,
      record_exists: u.existing_record_id !== null,
      telegram_id: u.telegram_id === null ? null : Number(u.telegram_id),
      name: u.name ? [u.name, u.last_name].filter(Boolean).join(' ') : null,
      workshop_title: u.workshop_title ?? null,
      schedule_date: u.schedule_date ?? null,
      amount: u.amount,
      found_at: u.found_at,
    })),
    owed_refunds: (await listOwedRefunds(db)).map((o) => ({
      id: o.id,
      amount: o.amount,
      created_at: new Date(o.created_at).toISOString(),
    })),
  };
}

export const UNRECONCILED_MSG = { decided: 'unreconciledDecided', notFound: 'unreconciledNotFound' } as const;

/** The method money came in by, for giving it back the same way: the latest money received from outside. */
const cameBy = (ledger: PaymentRow[]) =>
  [...ledger].reverse().find((p) => p.amount > 0 && p.method !== 'credit' && p.method !== 'certificate')?.method;

/**
 * Staff decide a finding, under its booking's lock (a gone booking's: its customer's), so two staff
 * deciding at once apply it once: the second is told it is decided. The money moved is what is in
 * question now (the ledger may have moved since it was found).
 */
export async function decideUnreconciled(
  database: Database,
  actor: Actor,
  id: number,
  input: UnreconciledDecisionBody,
): Promise<UnreconciledList> {
  assertCan(actor, 'money.refund');
  const body = DecisionSchema.parse(input);
  const found = await getFinding(database.db, id);
  if (!found) throw new NotFound(UNRECONCILED_MSG.notFound);
  const exists = found.record_id !== null && (await getRecord(database.db, found.record_id)) !== undefined;
  if (exists)
    await onRecord(database, actor, found.record_id!, async (c) => ({
      value: null,
      events: await apply(c.trx, actor, id, body, c.record, c.schedule),
    }));
  else
    await withLocks(
      database,
      { telegramIds: [found.telegram_id === null ? null : Number(found.telegram_id)] },
      async (trx) => publish(trx, await apply(trx, actor, id, body, null, null)),
    );
  return listUnreconciled(database.db, actor);
}

async function apply(
  trx: Executor,
  actor: StaffActor,
  id: number,
  body: { decision: 'credit' | 'refund' | 'keep'; reason?: string },
  r: RecordRow | null,
  schedule: Parameters<typeof appendToRecord>[3],
): Promise<DomainEvent[]> {
  const f = (await getFinding(trx, id))!;
  if (f.decided_at !== null) throw new Conflict(UNRECONCILED_MSG.decided);
  const ledger = await listPaymentsOfRecord(trx, f.record_id ?? -1);
  const settings = await getBusinessSettings(trx);
  const paid = ledger.reduce((sum, p) => sum + p.amount, 0);
  const amount = r ? (stuckOf(r, paid)?.amount ?? 0) : paid;
  const telegramId = r ? r.telegram_id : f.telegram_id === null ? null : Number(f.telegram_id);
  const events: DomainEvent[] = [];
  const note = `Сверка: ${body.decision === 'credit' ? 'на баланс клиента' : 'возврат'}${body.reason ? ` — ${body.reason}` : ''}`;
  if (body.decision !== 'keep') {
    if (amount <= 0) throw new Conflict(DESK_MSG.nothingToRefund);
    const method = body.decision === 'credit' ? 'credit' : cameBy(ledger);
    if (method === undefined) throw new Conflict(DESK_MSG.nothingToRefund);
    if (method === 'credit' && telegramId === null) throw new Conflict(DESK_MSG.noCustomer);
    const row = { amount: -amount, method, kind: 'refund' as const, note };
    events.push(
      r
        ? await appendToRecord(trx, actor, r, schedule, settings, row)
        : await appendToGoneRecord(trx, actor, { record_id: f.record_id!, telegram_id: telegramId }, row),
    );
  }
  const decidedAt = new Date().toISOString();
  await decideFinding(trx, id, {
    decision: body.decision,
    reason: body.reason ?? null,
    decided_by_user_id: actor.user_id,
    decided_at: decidedAt,
  });
  events.push({
    type: 'entity.updated',
    actor,
    entity: 'unreconciled',
    entity_id: id,
    before: { kind: f.kind, record_id: f.record_id, amount: f.amount, decision: null },
    after: { decision: body.decision, moved: body.decision === 'keep' ? 0 : amount, reason: body.reason ?? null },
  });
  return events;
}
