import { Composer, type Middleware } from 'grammy';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../contract/language';
import { chooseLanguage, noteTelegramLanguage } from '../../core/language/customer-language';
import { encodeCallbackData, onButton } from '../callback-data';
import { HTML, type BotContext, type BotDeps } from '../context';
import { ru, textsFor } from '../texts';

/**
 * Sets the language of every update's sender (their /language choice, else their Telegram app's
 * language_code, else Russian) and stores the language_code Telegram sends, so notifications written
 * later are in it too. An update without a sender is answered, if at all, in Russian.
 */
export function languageMiddleware(deps: BotDeps): Middleware<BotContext> {
  return async (ctx, next) => {
    ctx.language = 'ru';
    ctx.t = ru;
    const from = ctx.from;
    if (from && !from.is_bot) {
      ctx.language = await noteTelegramLanguage(deps.database.db, from.id, from.language_code);
      ctx.t = textsFor(ctx.language);
    }
    await next();
  };
}

const languageKeyboard = () => ({
  inline_keyboard: [
    LANGUAGES.map((language: Language) => ({
      text: LANGUAGE_NAMES[language],
      callback_data: encodeCallbackData({ kind: 'language', language }),
    })),
  ],
});

/** /language: the customer picks Russian, English or Serbian; the choice is kept over Telegram's. */
export function languageFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  composer.command('language', (ctx) => ctx.reply(ctx.t.replies.language.ask, { reply_markup: languageKeyboard() }));
  onButton(composer, 'language', async (ctx, { language }) => {
    await chooseLanguage(deps.database.db, ctx.from.id, language);
    ctx.language = language;
    ctx.t = textsFor(language);
    await ctx.answerCallbackQuery({ text: ctx.t.replies.language.setToast });
    await ctx.editMessageText(ctx.t.replies.language.set, HTML);
  });
  return composer;
}
