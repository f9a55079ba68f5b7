import type { UnreconciledList } from '../../contract/unreconciled';
import { OwedRefundPaidBody, type OwedRefundPaidBody as PaidInput } from '../../contract/unreconciled';
import type { Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { claimOwedRefund, getOwedRefund, setOwedRefundPayment } from '../../db/repositories/owed-refunds';
import { assertCan, type Actor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import { appendOwedRefundPayout } from '../ledger/ledger';
import { publish } from '../notify/publish';
import { listUnreconciled } from './reconcile';

/*
 * Refunds owed to customers who erased their data (their studio credit, left owed back): staff pay one
 * out by hand and record it here, once. The payout is a ledger row that names nobody, as the credit's
 * way out did; the owed row keeps which payment settled it.
 */

export const OWED_REFUND_MSG = { notFound: 'owedRefundNotFound', paid: 'owedRefundPaid' } as const;

const METHOD_NOTE = { cash: 'наличными', card: 'на карту', bank_transfer: 'переводом' } as const;

/**
 * Staff paid owed refund `id` out by `method`. The owed row is claimed by a conditional update (its row
 * lock on PostgreSQL, the write lock on SQLite), so two staff recording it at once pay it once: the
 * second is told it is paid.
 */
export async function payOwedRefund(
  database: Database,
  actor: Actor,
  id: number,
  input: PaidInput,
): Promise<UnreconciledList> {
  assertCan(actor, 'money.refund');
  const { method } = OwedRefundPaidBody.parse(input);
  await withWriteTransaction(database, async (trx) => {
    const owed = await claimOwedRefund(trx, id);
    if (!owed)
      throw (await getOwedRefund(trx, id))
        ? new Conflict(OWED_REFUND_MSG.paid)
        : new NotFound(OWED_REFUND_MSG.notFound);
    const money = await appendOwedRefundPayout(trx, actor, {
      amount: owed.amount,
      method,
      note: `Возврат клиенту, удалившему свои данные, выплачен ${METHOD_NOTE[method]}`,
      owed_payment_id: owed.payment_id,
    });
    await setOwedRefundPayment(trx, id, money.payment.id);
    await publish(trx, [
      money,
      {
        type: 'entity.updated',
        actor,
        entity: 'owed_refund',
        entity_id: id,
        before: { amount: owed.amount, refunded_at: null },
        after: { refunded_at: owed.refunded_at, method, payment_id: money.payment.id },
      },
    ]);
  });
  return listUnreconciled(database.db, actor);
}
