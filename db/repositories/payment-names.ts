import { sql } from 'kysely';
import type { Executor } from '../database';

/* Who and what a ledger row was for, kept on the row itself so the cash desk names it forever. */

export interface PaymentNames {
  customer_name: string | null;
  workshop_title: string | null;
  session_date: string | null;
}

const NONE: PaymentNames = { customer_name: null, workshop_title: null, session_date: null };

/**
 * The names a new row of this booking's ledger carries: its customer, workshop and session now; for a
 * booking that is gone, what its earlier rows kept.
 */
export async function namesOfBooking(db: Executor, recordId: number | null | undefined): Promise<PaymentNames> {
  if (recordId == null) return NONE;
  const live = await db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .select([
      sql<string>`case when r.last_name is null or r.last_name = '' then r.name else r.name || ' ' || r.last_name end`.as(
        'customer_name',
      ),
      'w.title as workshop_title',
      's.date as session_date',
    ])
    .where('r.id', '=', recordId)
    .executeTakeFirst();
  if (live) return live;
  const kept = await db
    .selectFrom('payments')
    .select(['customer_name', 'workshop_title', 'session_date'])
    .where('record_id', '=', recordId)
    .where('workshop_title', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return kept ?? NONE;
}

/** An erased customer's name leaves the ledger rows of their bookings and of their credit. */
export async function erasePaymentNames(
  db: Executor,
  who: { recordIds: number[]; telegramId: number | null },
  erasedName: string,
): Promise<void> {
  if (who.recordIds.length > 0)
    await db
      .updateTable('payments')
      .set({ customer_name: erasedName })
      .where('record_id', 'in', who.recordIds)
      .where('customer_name', 'is not', null)
      .execute();
  if (who.telegramId !== null)
    await db
      .updateTable('payments')
      .set({ customer_name: erasedName })
      .where('telegram_id', '=', who.telegramId)
      .where('customer_name', 'is not', null)
      .execute();
}
