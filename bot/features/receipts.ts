import { Composer } from 'grammy';
import { answerReceiptConsent } from '../../core/receipts/tell';
import { onButton } from '../callback-data';
import { HTML, type BotContext, type BotDeps } from '../context';
import { BUYER_ID_CONVERSATION } from '../conversations/buyer-id';

/**
 * Fiscal receipts: the answer to «Присылать чеки?» (asked once with the first receipt, changed later
 * from /mydata) and a refund receipt's document buttons, which start the buyer-ID conversation.
 */
export function receiptsFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();

  onButton(composer, 'receipts', async (ctx, { yes }) => {
    const R = ctx.t.receipts;
    await answerReceiptConsent(deps.database, ctx.from.id, yes);
    await ctx.answerCallbackQuery({ text: yes ? R.consentGivenToast : R.consentRefusedToast });
    // The question (or /mydata's summary) stays, without its buttons; the answer follows.
    await ctx.editMessageReplyMarkup();
    await ctx.reply(yes ? R.consentGiven : R.consentRefused, HTML);
  });

  onButton(
    composer,
    { kind: 'buyer_doc', notFound: (ctx) => ctx.t.receipts.buyerGone },
    async (ctx, { receiptId, document }) => {
      await ctx.answerCallbackQuery();
      await ctx.conversation.enter(BUYER_ID_CONVERSATION, receiptId, document);
    },
  );

  return composer;
}
