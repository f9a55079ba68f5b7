import { nowIso, type Executor } from '../../db/database';
import { insertAudit } from '../../db/repositories/audit';
import type { Actor } from '../kernel/actor';
import type { AuditEntity, AuditValues } from '../kernel/events';

export type { AuditEntity, AuditValues };

/** What happened; booking actions first, then the generic ones for staff edits. */
export type AuditAction =
  | 'created'
  | 'people_changed'
  | 'cancelled'
  | 'restored'
  | 'promoted'
  | 'queued'
  | 'attendance'
  | 'transferred'
  | 'confirmed'
  | 'updated'
  | 'deleted'
  | (string & {});

export interface AuditEntryInput {
  actor: Actor;
  entity: AuditEntity;
  entity_id: number;
  action: AuditAction;
  before?: AuditValues | null;
  after?: AuditValues | null;
  /** Log that a customer acted without saying which one (their erasure: never whose). */
  anonymous?: boolean;
}

/** Writes one log entry; call it with the transaction of the change, so both commit or neither does. */
export async function writeAudit(trx: Executor, e: AuditEntryInput): Promise<void> {
  await insertAudit(trx, {
    actor_kind: e.actor.kind,
    actor_user_id: e.actor.kind === 'staff' ? e.actor.user_id : null,
    actor_telegram_id: e.actor.kind === 'customer' && !e.anonymous ? e.actor.telegram_id : null,
    entity: e.entity,
    entity_id: e.entity_id,
    action: e.action,
    before: e.before ? JSON.stringify(e.before) : null,
    after: e.after ? JSON.stringify(e.after) : null,
    at: nowIso(),
  });
}

/** The fields of `after` whose values differ from `before`, as a before/after pair (null when nothing changed). */
export function changedFields<T extends AuditValues>(
  before: T,
  after: Partial<T>,
): { before: AuditValues; after: AuditValues } | null {
  const b: AuditValues = {};
  const a: AuditValues = {};
  for (const key of Object.keys(after)) {
    if (after[key] === undefined || JSON.stringify(after[key]) === JSON.stringify(before[key])) continue;
    b[key] = before[key] ?? null;
    a[key] = after[key];
  }
  return Object.keys(a).length === 0 ? null : { before: b, after: a };
}

/** Writes an 'updated' entry with only the fields that changed; nothing when nothing did. */
export async function auditUpdate(
  trx: Executor,
  actor: Actor,
  entity: AuditEntity,
  id: number,
  before: AuditValues,
  after: AuditValues,
): Promise<void> {
  const diff = changedFields(before, after);
  if (diff) await writeAudit(trx, { actor, entity, entity_id: id, action: 'updated', ...diff });
}
