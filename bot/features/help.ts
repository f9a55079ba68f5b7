import { Composer } from 'grammy';
import { HTML, type BotContext, type BotDeps } from '../context';

/** /help, and a hint for anything else the bot does not understand. */
export function helpFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  composer.command('help', (ctx) => ctx.reply(ctx.t.replies.help(deps.config.businessName), HTML));
  return composer;
}

/** Last in the chain: buttons of a finished conversation, and messages no feature took. */
export function fallbackFeature() {
  const composer = new Composer<BotContext>();
  composer.on('callback_query', (ctx) => ctx.answerCallbackQuery({ text: ctx.t.replies.buttonGone }));
  composer.on('message', (ctx) => ctx.reply(ctx.t.replies.unknown));
  return composer;
}
