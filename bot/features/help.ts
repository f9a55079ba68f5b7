import { Composer } from 'grammy';
import { HTML, type BotContext, type BotDeps } from '../context';
import { T } from '../messages';

/** /help, and a hint for anything else the bot does not understand. */
export function helpFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  composer.command('help', (ctx) => ctx.reply(T.help(deps.config.businessName), HTML));
  return composer;
}

/** Last in the chain: buttons of a finished conversation, and messages no feature took. */
export function fallbackFeature() {
  const composer = new Composer<BotContext>();
  composer.on('callback_query', (ctx) =>
    ctx.answerCallbackQuery({ text: 'Эта кнопка больше не действует. Отправьте команду заново.' }),
  );
  composer.on('message', (ctx) => ctx.reply(T.unknown));
  return composer;
}
