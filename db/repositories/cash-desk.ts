import { sql } from 'kysely';
import type { Executor } from '../database';
import type { PaymentRow } from './payments';
import { coversPayment, REAL_MONEY_METHODS } from './fiscal-staff';

/* The cash desk's reads: ledger rows of a bounded period, a page or batch at a time, and their sums in SQL. */

export interface DeskRange {
  from: string;
  to: string;
  method?: PaymentRow['method'];
  /** `missing`: real money with no issued receipt (its own, or a delivery's that covers it). */
  receipt?: 'missing';
}

const inRange = (db: Executor, r: DeskRange) => {
  let q = db.selectFrom('payments as p').where('p.at', '>=', r.from).where('p.at', '<', r.to);
  if (r.method) q = q.where('p.method', '=', r.method);
  if (r.receipt === 'missing')
    q = q.where('p.method', 'in', REAL_MONEY_METHODS).where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('fiscal_receipts as f')
            .select('f.id')
            .where('f.state', '=', 'issued')
            .where((w) =>
              w.or([
                w('f.payment_id', '=', w.ref('p.id')),
                w.and([w('f.record_id', '=', w.ref('p.record_id')), coversPayment('f.covers', 'p.id')]),
              ]),
            ),
        ),
      ),
    );
  return q;
};

// The booking's customer and session as they are now; the names the row kept when the booking or session is gone.
const withSession = (db: Executor, r: DeskRange) =>
  inRange(db, r)
    .leftJoin('records as r', 'r.id', 'p.record_id')
    .leftJoin('schedules as s', 's.id', 'r.schedule_id')
    .leftJoin('workshops as w', 'w.id', 's.workshop_id')
    .selectAll('p')
    .select([
      sql<
        string | null
      >`coalesce(case when r.last_name is null or r.last_name = '' then r.name else r.name || ' ' || r.last_name end, p.customer_name)`.as(
        'customer_name',
      ),
      sql<string | null>`coalesce(w.title, p.workshop_title)`.as('workshop_title'),
      sql<string | null>`coalesce(s.date, p.session_date)`.as('schedule_date'),
    ]);

/** A page of the period's ledger rows, newest first, with their booking's customer and session. */
export const deskRowsPage = (db: Executor, r: DeskRange, page: { skip: number; limit: number }) =>
  withSession(db, r).orderBy('p.at', 'desc').orderBy('p.id', 'desc').offset(page.skip).limit(page.limit).execute();

/** Every row of the period in batches of `size`, newest first (keyset: memory stays flat whatever the period holds). */
export async function* deskRowsInBatches(db: Executor, r: DeskRange, size: number) {
  let after: { at: string; id: number } | null = null;
  for (;;) {
    let q = withSession(db, r);
    if (after) {
      const { at, id } = after;
      q = q.where((eb) => eb.or([eb('p.at', '<', at), eb.and([eb('p.at', '=', at), eb('p.id', '<', id)])]));
    }
    const batch = await q.orderBy('p.at', 'desc').orderBy('p.id', 'desc').limit(size).execute();
    if (batch.length > 0) yield batch;
    if (batch.length < size) return;
    const last = batch[batch.length - 1];
    after = { at: last.at, id: last.id };
  }
}

/** Per method over the period: the net, what came in (positive rows), what went out (negative rows), the rows. */
export async function deskSums(db: Executor, r: DeskRange) {
  const rows = await inRange(db, r)
    .select([
      'p.method',
      sql<string | number>`sum(p.amount)`.as('net'),
      sql<string | number>`sum(case when p.amount > 0 then p.amount else 0 end)`.as('received'),
      sql<string | number>`sum(case when p.amount < 0 then -p.amount else 0 end)`.as('refunded'),
      sql<string | number>`count(*)`.as('rows'),
    ])
    .groupBy('p.method')
    .execute();
  return rows.map((s) => ({
    method: s.method,
    net: Number(s.net),
    received: Number(s.received),
    refunded: Number(s.refunded),
    rows: Number(s.rows),
  }));
}
