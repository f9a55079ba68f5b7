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

export const getOwedRefund = (db: Executor, id: number) =>
  db.selectFrom('owed_refunds').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Marks one as refunded if nobody has yet: the row (taken under its row lock on PostgreSQL, the write
 * lock on SQLite) or undefined when it was already refunded or does not exist.
 */
export const claimOwedRefund = (db: Executor, id: number) =>
  db
    .updateTable('owed_refunds')
    .set({ refunded_at: nowIso() })
    .where('id', '=', id)
    .where('refunded_at', 'is', null)
    .returningAll()
    .executeTakeFirst();

export const setOwedRefundPayment = (db: Executor, id: number, paymentId: number) =>
  db.updateTable('owed_refunds').set({ refund_payment_id: paymentId }).where('id', '=', id).execute();

/** The ledger rows that paid owed refunds out (they name nobody, by design). */
export const listOwedRefundPayouts = async (db: Executor): Promise<Set<number>> =>
  new Set(
    (
      await db
        .selectFrom('owed_refunds')
        .select('refund_payment_id')
        .where('refund_payment_id', 'is not', null)
        .execute()
    ).map((r) => r.refund_payment_id!),
  );
