import { parseBuyerId, type BuyerDocument, type BuyerIdProblem } from '../../contract/receipts';
import type { Database, Executor } from '../../db/database';
import { withLocks, withWriteTransaction } from '../../db/lock';
import { getFiscalReceipt } from '../../db/repositories/fiscal';
import {
  insertBuyerAsk,
  listBuyerAskCandidates,
  receiptBooking,
  receiptCustomer,
  setReceiptBuyer,
} from '../../db/repositories/customer-receipts';
import { customerActor } from '../kernel/actor';
import { publish, type Published } from '../notify/publish';

/*
 * A refund receipt must name the buyer's document (the rulebook's buyer identification). While one
 * waits for it (state needs_buyer), its Telegram customer is asked once; their answer, checked, is
 * stored on the receipt (`<code>:<number>`) and the receipt goes to the PFR. The number is personal
 * data: it is kept on the receipt only (never in a log entry or a staff alert) and erased with the
 * customer's data.
 */

/** Questions asked per run: a backlog is worked off over a few ticks. */
const BATCH = 50;

/** The job: asks each waiting refund's customer once; a refund with nobody in Telegram to ask is left to staff. */
export async function askForBuyerIds(database: Database): Promise<number> {
  // A plain read first: an idle run takes no write lock.
  if ((await listBuyerAskCandidates(database.db, 1)).length === 0) return 0;
  return withWriteTransaction(database, async (trx) => {
    let asked = 0;
    for (const r of await listBuyerAskCandidates(trx, BATCH)) {
      const telegramId = await receiptCustomer(trx, r);
      // Kept once by the receipt: another instance asking at the same time finds it marked.
      if (!(await insertBuyerAsk(trx, r.id, telegramId !== null)) || telegramId === null) continue;
      const booking = r.record_id !== null ? await receiptBooking(trx, r.record_id) : undefined;
      await publish(trx, [
        {
          type: 'message',
          chat_id: telegramId,
          notification: {
            kind: 'fiscal.buyer_id',
            payload: {
              receipt_id: r.id,
              record_id: r.record_id,
              closing: r.kind === 'close',
              amount: r.amount,
              workshop_title: booking?.title ?? null,
              workshop_title_en: booking?.title_en ?? null,
              workshop_title_sr: booking?.title_sr ?? null,
              date: booking?.date ?? null,
            },
          },
        },
      ]);
      asked++;
    }
    return asked;
  });
}

/** Whether this receipt still waits for this customer's document (the conversation asks only then). */
export async function waitsForBuyerId(db: Executor, telegramId: number, receiptId: number): Promise<boolean> {
  const r = await getFiscalReceipt(db, receiptId);
  return r !== undefined && r.state === 'needs_buyer' && (await receiptCustomer(db, r)) === telegramId;
}

export type BuyerIdOutcome = { ok: true } | { ok: false; problem: BuyerIdProblem | 'gone' };

/**
 * The customer's document for a refund receipt (the customer asks for themselves): checked, stored on the receipt, which then goes to the
 * PFR. `gone`: the receipt is not theirs or no longer waits for it (staff typed it meanwhile).
 */
export async function giveBuyerId(
  database: Database,
  telegramId: number,
  receiptId: number,
  document: BuyerDocument,
  input: string,
): Promise<BuyerIdOutcome> {
  const parsed = parseBuyerId(document, input);
  if (!parsed.ok) return parsed;
  return withLocks(database, { telegramIds: [telegramId] }, async (trx) => {
    if (!(await waitsForBuyerId(trx, telegramId, receiptId))) return { ok: false, problem: 'gone' };
    if (!(await setReceiptBuyer(trx, receiptId, parsed.buyerId))) return { ok: false, problem: 'gone' };
    // The log says which document was given, never its number.
    const logged: Published = {
      type: 'entity.updated',
      actor: customerActor(telegramId),
      entity: 'fiscal_receipt',
      entity_id: receiptId,
      before: { state: 'needs_buyer' },
      after: { state: 'waiting', buyer_document: document },
    };
    await publish(trx, [logged]);
    return { ok: true };
  });
}
