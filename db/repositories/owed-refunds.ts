import type { Selectable } from 'kysely';
import { nowIso, type Executor } from '../database';
import type { OwedRefundsTable } from '../schema';

export type OwedRefundRow = Selectable<OwedRefundsTable>;

export const insertOwedRefund = (db: Executor, row: { amount: number; payment_id: number; reason: 'erasure' }) =>
  db
    .insertInto('owed_refunds')
    .values({ ...row, created_at: nowIso(), refunded_at: null, refund_payment_id: null })
    .returningAll()
    .executeTakeFirstOrThrow();

/** What is still owed back to people the studio no longer knows. */
export async function owedRefundsTotal(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('owed_refunds')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('owed'))
    .where('refunded_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.owed ?? 0);
}

/** Those not yet refunded, oldest first. */
export const listOwedRefunds = (db: Executor) =>
  db.selectFrom('owed_refunds').selectAll().where('refunded_at', 'is', null).orderBy('id').execute();
