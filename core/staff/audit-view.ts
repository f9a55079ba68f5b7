import { DELETED_USER, SYSTEM_ACTOR, type AuditEntry } from '../../contract';
import type { AuditRow } from '../../db/repositories/audit';

const parse = (json: string | null): Record<string, unknown> | null =>
  json ? (JSON.parse(json) as Record<string, unknown>) : null;

/** A log row as the admin shows it: the actor named (a deleted staff user as such). */
export function toAuditEntry(r: AuditRow): AuditEntry {
  const name =
    r.actor_kind === 'staff'
      ? (r.user_full_name ?? r.user_email ?? DELETED_USER)
      : r.actor_kind === 'customer'
        ? `Клиент${r.actor_telegram_id !== null ? ` (Telegram ${r.actor_telegram_id})` : ''}`
        : SYSTEM_ACTOR;
  return {
    id: r.id,
    at: r.at,
    actor: { kind: r.actor_kind, user_id: r.actor_user_id, telegram_id: r.actor_telegram_id, name },
    entity: r.entity,
    entity_id: r.entity_id,
    action: r.action,
    before: parse(r.before),
    after: parse(r.after),
  };
}
