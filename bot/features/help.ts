import { Composer } from 'grammy';
import { HTML, type BotContext, type BotDeps } from '../context';
import { texts } from '../texts';

/** /help, and a hint for anything else the bot does not understand. */
export function helpFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  composer.command('help', (ctx) => ctx.reply(texts.replies.help(deps.config.businessName), HTML));
  return composer;
}

/** Last in the chain: buttons of a finished conversation, and messages no feature took. */
export function fallbackFeature() {
  const composer = new Composer<BotContext>();
  composer.on('callback_query', (ctx) => ctx.answerCallbackQuery({ text: texts.replies.buttonGone }));
  composer.on('message', (ctx) => ctx.reply(texts.replies.unknown));
  return composer;
}
