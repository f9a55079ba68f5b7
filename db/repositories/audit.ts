import type { Executor } from '../database';
import type { AuditLogTable } from '../schema';

export interface AuditInsert {
  actor_kind: AuditLogTable['actor_kind'];
  actor_user_id: number | null;
  actor_telegram_id: number | null;
  entity: string;
  entity_id: number;
  action: string;
  before: string | null;
  after: string | null;
  at: string;
}

export const insertAudit = (db: Executor, row: AuditInsert) => db.insertInto('audit_log').values(row).execute();

export interface AuditFilter {
  entity?: string;
  entity_id?: number;
  from?: string;
  to?: string;
}

const filtered = (db: Executor, f: AuditFilter) => {
  let q = db.selectFrom('audit_log as l');
  if (f.entity !== undefined) q = q.where('l.entity', '=', f.entity);
  if (f.entity_id !== undefined) q = q.where('l.entity_id', '=', f.entity_id);
  if (f.from !== undefined) q = q.where('l.at', '>=', f.from);
  if (f.to !== undefined) q = q.where('l.at', '<', f.to);
  return q;
};

/** Log entries, newest first, with the staff actor's current name (null when the user was deleted). */
export async function listAudit(db: Executor, f: AuditFilter, page: { skip: number; limit: number }) {
  const [rows, total] = await Promise.all([
    filtered(db, f)
      .leftJoin('users as u', 'u.id', 'l.actor_user_id')
      .selectAll('l')
      .select(['u.full_name as user_full_name', 'u.email as user_email'])
      .orderBy('l.id', 'desc')
      .offset(page.skip)
      .limit(page.limit)
      .execute(),
    filtered(db, f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export type AuditRow = Awaited<ReturnType<typeof listAudit>>['rows'][number];
