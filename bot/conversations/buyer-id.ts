import type { Context } from 'grammy';
import type { Conversation } from '@grammyjs/conversations';
import type { BuyerDocument } from '../../contract/receipts';
import { CONTROL_CHARACTER } from '../../contract/common';
import { customerLanguage } from '../../core/language/customer-language';
import { giveBuyerId, waitsForBuyerId } from '../../core/receipts/buyer-id';
import { decodeCallbackData } from '../callback-data';
import { HTML, type BotContext, type BotDeps } from '../context';
import { textsFor } from '../texts';

export const BUYER_ID_CONVERSATION = 'buyer-id';
/** A question left unanswered this long is dropped: the next message is handled as usual. */
export const BUYER_ID_WAIT_MS = 24 * 60 * 60 * 1000;

/**
 * A refund receipt's buyer document: the customer picked the document on the question's buttons; the
 * bot asks for its number until one passes the check (another document's button switches to it), then
 * core stores it on the receipt. The number is said to nobody and never logged; the conversation's
 * stored state is the chat's and goes when it ends (or with the customer's data).
 */
export function createBuyerIdConversation(deps: BotDeps) {
  return async function buyerId(
    conversation: Conversation<BotContext, Context>,
    ctx: Context,
    receiptId: number,
    picked: BuyerDocument,
  ): Promise<void> {
    const telegramId = ctx.from!.id;
    const language = await conversation.external(() => customerLanguage(deps.database.db, telegramId));
    const R = textsFor(language).receipts;
    if (!(await conversation.external(() => waitsForBuyerId(deps.database.db, telegramId, receiptId)))) {
      await ctx.reply(R.buyerGone, HTML);
      return;
    }
    let document = picked;
    await ctx.reply(R.askNumber(document), HTML);
    for (;;) {
      const c = await conversation.wait({ maxMilliseconds: BUYER_ID_WAIT_MS });
      if (c.callbackQuery) {
        const data = decodeCallbackData(c.callbackQuery.data ?? '');
        // Another document of this receipt's question: its number is asked instead.
        if (data?.kind !== 'buyer_doc' || data.receiptId !== receiptId) await conversation.skip({ next: true });
        else {
          document = data.document;
          await c.answerCallbackQuery();
          await c.reply(R.askNumber(document), HTML);
        }
        continue;
      }
      const text = c.message?.text;
      if (text === undefined) {
        if (c.message) await c.reply(R.textOnly, HTML);
        else await conversation.skip({ next: true });
        continue;
      }
      if (CONTROL_CHARACTER.test(text)) {
        await c.reply(R.problem('format', document), HTML);
        continue;
      }
      const doc = document;
      const outcome = await conversation.external(() => giveBuyerId(deps.database, telegramId, receiptId, doc, text));
      if (outcome.ok) {
        await c.reply(R.buyerDone, HTML);
        return;
      }
      if (outcome.problem === 'gone') {
        await c.reply(R.buyerGone, HTML);
        return;
      }
      await c.reply(R.problem(outcome.problem, document), HTML);
    }
  };
}
