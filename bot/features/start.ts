import { Composer } from 'grammy';
import { HTML, type BotContext, type BotDeps } from '../context';
import { T } from '../messages';
import { applyButton, inlineKeyboard } from '../keyboards/webapp';

/** /start: a greeting with the business name and a button that opens the mini-app. */
export function startFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  composer.command('start', async (ctx) => {
    const markup = inlineKeyboard([[applyButton(deps.config.publicUrl)]]);
    await ctx.reply(T.start(deps.config.businessName, markup !== undefined), { ...HTML, reply_markup: markup });
  });
  return composer;
}
