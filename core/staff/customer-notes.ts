import type { Database } from '../../db/database';
import { withLocks } from '../../db/lock';
import { deleteCustomerNote, getCustomerNote, saveCustomerNote } from '../../db/repositories/customer-notes';
import { hasBookedBefore } from '../../db/repositories/records';
import { assertCan, type Actor } from '../kernel/actor';
import { NotFound } from '../kernel/errors';
import { publish } from '../notify/publish';

export const NOTE_MSG = { noCustomer: 'customerNotFound' } as const;

/**
 * Staff keep one note per customer (a Telegram user who booked); an empty note removes it. Under the
 * customer's lock, so a note cannot outlive the customer's erasure running at the same moment. The
 * log says a note changed and its length, never its text (it is personal data).
 */
export async function setCustomerNote(
  database: Database,
  actor: Actor,
  telegramId: number,
  note: string,
): Promise<string | null> {
  assertCan(actor, 'customers.manage');
  return withLocks(database, { telegramIds: [telegramId] }, async (trx) => {
    if (!(await hasBookedBefore(trx, telegramId, 0))) throw new NotFound(NOTE_MSG.noCustomer);
    const before = await getCustomerNote(trx, telegramId);
    const text = note.trim();
    if (text === (before?.note ?? '')) return text || null;
    const id = text ? (await saveCustomerNote(trx, telegramId, text, actor.user_id)).id : before!.id;
    if (!text) await deleteCustomerNote(trx, telegramId);
    await publish(trx, [
      {
        type: before ? (text ? 'entity.updated' : 'entity.deleted') : 'entity.created',
        actor,
        entity: 'customer_note',
        entity_id: id,
        before: before ? { chars: before.note.length } : null,
        after: text ? { chars: text.length } : null,
      },
    ]);
    return text || null;
  });
}
