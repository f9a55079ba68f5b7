import { Composer } from 'grammy';
import { HTML, type BotContext, type BotDeps } from '../context';
import { applyButton, inlineKeyboard } from '../keyboards/webapp';
import { GIFT_START_PREFIX } from '../../core/journey/seat-gifts';
import { giftStartReply, newDatesOffer } from './journey';

/**
 * /start: a greeting with the business name and a button that opens the mini-app, then an offer to
 * be told about new dates of workshops that have none free. `/start gift_<token>` (a seat given by
 * a friend) answers with a button into the mini-app instead.
 */
export function startFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  composer.command('start', async (ctx) => {
    if (ctx.match.startsWith(GIFT_START_PREFIX)) {
      const gift = giftStartReply(deps, ctx.match.slice(GIFT_START_PREFIX.length).trim(), ctx.t);
      await ctx.reply(gift.text, { ...HTML, reply_markup: gift.markup });
      return;
    }
    const markup = inlineKeyboard([[applyButton(deps.config.publicUrl, ctx.t.customer.buttons.apply)]]);
    await ctx.reply(ctx.t.replies.start(deps.config.businessName, markup !== undefined), {
      ...HTML,
      reply_markup: markup,
    });
    const offer = await newDatesOffer(deps, ctx.from!.id, ctx.t);
    if (offer) await ctx.reply(offer.text, { ...HTML, reply_markup: offer.markup });
  });
  return composer;
}
