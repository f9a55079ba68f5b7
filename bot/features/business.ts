import { Composer } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { saveBusinessConnection, shouldAnswerBusinessMessage } from '../../core/business/auto-answer';
import { listOpenSchedules } from '../../db/repositories/schedules';
import { HTML, type BotContext, type BotDeps } from '../context';
import type { BotTexts } from '../texts';
import { DEFAULT_LANGUAGE, titleIn, type Language } from '../../contract/language';

/** How many of the next sessions with seats the answer lists. */
const SESSIONS_SHOWN = 5;
export const DEFAULT_BUSINESS_QUIET_MINUTES = 30;

/** The answer: the next sessions with free seats, in the customer's language, and the way into the mini-app. */
export async function businessAnswer(
  deps: BotDeps,
  T: BotTexts,
  botUsername: string,
  now: Date,
  language: Language = DEFAULT_LANGUAGE,
): Promise<{ text: string; reply_markup: InlineKeyboardMarkup }> {
  const B = T.business;
  const open = (await listOpenSchedules(deps.database.db, now.toISOString()))
    .filter((s) => s.places_available > 0)
    .slice(0, SESSIONS_SHOWN);
  const tz = deps.config.businessTimezone;
  const text = [
    B.head,
    '',
    ...(open.length
      ? [
          B.sessionsHead,
          ...open.map((s) =>
            B.session(titleIn(s.workshop, language), T.common.dateTime(s.date, tz), s.places_available),
          ),
        ]
      : [B.noSessions]),
    '',
    B.bookHint,
  ].join('\n');
  // Messages sent for a business account cannot carry web-app buttons: a t.me link opens the main mini-app.
  return {
    text,
    reply_markup: { inline_keyboard: [[{ text: B.button, url: `https://t.me/${botUsername}?startapp` }]] },
  };
}

/**
 * Telegram Business: the studio connects the bot to its own account, and customers who write there
 * get an automatic answer while no one from the studio is writing in that chat. Staff are not alerted.
 */
export function businessFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  const quietMinutes = deps.config.businessQuietMinutes ?? DEFAULT_BUSINESS_QUIET_MINUTES;

  composer.on('business_connection', async (ctx) => {
    await saveBusinessConnection(deps.database.db, ctx.update.business_connection);
  });

  composer.on('business_message', async (ctx) => {
    const m = ctx.update.business_message;
    if (!m.from) return;
    const now = new Date();
    const answer = await shouldAnswerBusinessMessage(deps.database.db, {
      connectionId: m.business_connection_id!,
      chatId: m.chat.id,
      fromId: m.from.id,
      byBot: m.from.is_bot || m.sender_business_bot !== undefined,
      now,
      quietMinutes,
    });
    if (!answer) return;
    const { text, reply_markup } = await businessAnswer(deps, ctx.t, ctx.me.username, now, ctx.language);
    await ctx.api.sendMessage(m.chat.id, text, {
      ...HTML,
      business_connection_id: m.business_connection_id,
      reply_markup,
    });
  });

  return composer;
}
