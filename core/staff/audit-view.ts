import { DELETED_USER, SYSTEM_ACTOR, type AuditEntry } from '../../contract';
import { formatDateTime, fullName } from '../../contract/format';
import type { Executor } from '../../db/database';
import { auditReferents, type AuditRefs, type AuditRow } from '../../db/repositories/audit';

const parse = (json: string | null): Record<string, unknown> | null =>
  json ? (JSON.parse(json) as Record<string, unknown>) : null;

/** The id fields of before/after that name another object, and the kind they name. */
const REF_FIELDS = { schedule_id: 'schedule', workshop_id: 'workshop', address_id: 'address' } as const;
type RefField = keyof typeof REF_FIELDS;

const ids = (values: unknown[]) => [...new Set(values.filter((v): v is number => typeof v === 'number'))];

/**
 * A page of log rows as the admin shows them: the actor, the object and every id they mention named
 * (a deleted staff user as such, a customer by the name on their latest booking), session dates in
 * the studio's time zone.
 */
export async function toAuditEntries(db: Executor, rows: AuditRow[], timeZone: string): Promise<AuditEntry[]> {
  const parsed = rows.map((r) => ({ r, before: parse(r.before), after: parse(r.after) }));
  const values = (field: string) => parsed.flatMap(({ before, after }) => [before?.[field], after?.[field]]);
  const of = (entity: string) => parsed.filter(({ r }) => r.entity === entity).map(({ r }) => r.entity_id);
  const refs: AuditRefs = {
    record: of('record'),
    schedule: ids([...of('schedule'), ...values('schedule_id')]),
    workshop: ids([...of('workshop'), ...values('workshop_id')]),
    address: ids([...of('address'), ...values('address_id')]),
    user: of('user'),
    promo_code: of('promo_code'),
    customer: ids(parsed.map(({ r }) => r.actor_telegram_id)),
  };
  const found = await auditReferents(db, refs);
  const session = (s: { title: string; date: string }) => `${s.title}, ${formatDateTime(s.date, timeZone)}`;
  const byId = <T extends { id: number }>(list: T[], name: (x: T) => string) =>
    new Map(list.map((x) => [x.id, name(x)]));
  const named = {
    record: byId(found.records, (r) => `${fullName(r)} · ${session(r)}`),
    schedule: byId(found.schedules, session),
    workshop: byId(found.workshops, (w) => w.title),
    address: byId(found.addresses, (a) => a.title),
    user: byId(found.users, (u) => u.full_name || u.email),
    promo_code: byId(found.promoCodes, (p) => p.code),
  };
  const customers = new Map<number, string>();
  for (const c of found.customers) if (!customers.has(c.telegram_id!)) customers.set(c.telegram_id!, fullName(c));

  return parsed.map(({ r, before, after }) => {
    const names: Record<string, string> = {};
    for (const field of Object.keys(REF_FIELDS) as RefField[])
      for (const id of ids([before?.[field], after?.[field]])) {
        const name = named[REF_FIELDS[field]].get(id);
        if (name) names[`${field}:${id}`] = name;
      }
    const customer = r.actor_telegram_id !== null ? customers.get(r.actor_telegram_id) : undefined;
    const actor =
      r.actor_kind === 'staff'
        ? (r.user_full_name ?? r.user_email ?? DELETED_USER)
        : r.actor_kind === 'customer'
          ? customer
            ? `${customer} (клиент)`
            : 'Клиент'
          : SYSTEM_ACTOR;
    return {
      id: r.id,
      at: r.at,
      actor: { kind: r.actor_kind, user_id: r.actor_user_id, telegram_id: r.actor_telegram_id, name: actor },
      entity: r.entity,
      entity_id: r.entity_id,
      action: r.action,
      before,
      after,
      subject: subjectOf(r.entity, r.entity_id, named, { ...before, ...after }, timeZone),
      names,
    };
  });
}

/** The object's current name; when it is gone, what its own entry remembers (a title, a name, a code). */
function subjectOf(
  entity: string,
  id: number,
  named: Record<string, Map<number, string>>,
  values: Record<string, unknown>,
  timeZone: string,
): string | null {
  const now = named[entity]?.get(id);
  if (now) return now;
  if (entity === 'schedule' && typeof values.date === 'string') {
    const title = typeof values.workshop_id === 'number' ? named.workshop.get(values.workshop_id) : undefined;
    return [title, formatDateTime(values.date, timeZone)].filter(Boolean).join(', ');
  }
  for (const field of ['title', 'full_name', 'name', 'code', 'email'])
    if (typeof values[field] === 'string' && values[field]) return values[field];
  return null;
}
