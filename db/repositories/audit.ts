import type { Executor } from '../database';
import { prepared } from '../prepared';
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

export const insertAudit = async (db: Executor, r: AuditInsert): Promise<void> => {
  await auditInsert(
    db,
    r.actor_kind,
    r.actor_user_id,
    r.actor_telegram_id,
    r.entity,
    r.entity_id,
    r.action,
    r.before,
    r.after,
    r.at,
  );
};

const auditInsert = prepared(
  (
    db: Executor,
    actor_kind: AuditInsert['actor_kind'],
    actor_user_id: number | null,
    actor_telegram_id: number | null,
    entity: string,
    entity_id: number,
    action: string,
    before: string | null,
    after: string | null,
    at: string,
  ) =>
    db
      .insertInto('audit_log')
      .values({ actor_kind, actor_user_id, actor_telegram_id, entity, entity_id, action, before, after, at }),
);

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

/** The ids a page of the log refers to, by what they are. */
export interface AuditRefs {
  record: number[];
  schedule: number[];
  workshop: number[];
  address: number[];
  user: number[];
  promo_code: number[];
  /** Customers who acted, by Telegram id. */
  customer: number[];
}

const when = <T>(ids: number[], q: () => Promise<T[]>): Promise<T[]> => (ids.length ? q() : Promise.resolve([]));

/** What those ids are now (a deleted one is simply missing): names and dates, in one query per kind. */
export async function auditReferents(db: Executor, refs: AuditRefs) {
  const [records, schedules, workshops, addresses, users, promoCodes, customers] = await Promise.all([
    when(refs.record, () =>
      db
        .selectFrom('records as r')
        .innerJoin('schedules as s', 's.id', 'r.schedule_id')
        .innerJoin('workshops as w', 'w.id', 's.workshop_id')
        .select(['r.id', 'r.name', 'r.last_name', 's.date', 'w.title'])
        .where('r.id', 'in', refs.record)
        .execute(),
    ),
    when(refs.schedule, () =>
      db
        .selectFrom('schedules as s')
        .innerJoin('workshops as w', 'w.id', 's.workshop_id')
        .select(['s.id', 's.date', 'w.title'])
        .where('s.id', 'in', refs.schedule)
        .execute(),
    ),
    when(refs.workshop, () =>
      db.selectFrom('workshops').select(['id', 'title']).where('id', 'in', refs.workshop).execute(),
    ),
    when(refs.address, () =>
      db.selectFrom('addresses').select(['id', 'title']).where('id', 'in', refs.address).execute(),
    ),
    when(refs.user, () =>
      db.selectFrom('users').select(['id', 'full_name', 'email']).where('id', 'in', refs.user).execute(),
    ),
    when(refs.promo_code, () =>
      db.selectFrom('promo_codes').select(['id', 'code']).where('id', 'in', refs.promo_code).execute(),
    ),
    // A customer is named as on their latest booking.
    when(refs.customer, () =>
      db
        .selectFrom('records')
        .select(['telegram_id', 'name', 'last_name'])
        .where('telegram_id', 'in', refs.customer)
        .orderBy('id', 'desc')
        .execute(),
    ),
  ]);
  return { records, schedules, workshops, addresses, users, promoCodes, customers };
}
