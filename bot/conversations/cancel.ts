import type { Context } from 'grammy';
import type { Conversation } from '@grammyjs/conversations';
import { cancelRecord } from '../../core/booking/engine';
import { customerActor } from '../../core/kernel/actor';
import { DomainError, sayError } from '../../core/kernel/errors';
import type { Language } from '../../contract/language';
import { HTML, type BotContext, type BotDeps } from '../context';
import { myBookings, type MyBooking } from '../../core/views/my-bookings';
import { confirmCancelKeyboard, pickRecordKeyboard } from '../keyboards/cancel';
import { decodeCallbackData, encodeCallbackData } from '../callback-data';
import { CONTROL_CHARACTER, CONTROL_CHARACTER_MESSAGE } from '../../contract/common';
import { textsFor } from '../texts';
import { escapeHtml } from '../../contract/texts/html';
import { customerLanguage } from '../../core/language/customer-language';

export const CANCEL_CONVERSATION = 'cancel';
/** A conversation left unanswered this long is dropped: the next message is handled as usual. */
export const CANCEL_WAIT_MS = 60 * 60 * 1000;
const REASON_MAX = 1000;

type CancelOutcome = { ok: true } | { ok: false; detail: string };

/** Cancels through the booking engine, as the API does (which checks, under the lock, that the booking is theirs). */
async function cancelOwnRecord(
  deps: BotDeps,
  telegramId: number,
  recordId: number,
  reason: string,
  language: Language,
): Promise<CancelOutcome> {
  try {
    await cancelRecord(deps.database, customerActor(telegramId), recordId, reason);
    return { ok: true };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, detail: sayError(err, language) };
    throw err;
  }
}

/**
 * /cancel: pick one of the upcoming bookings core allows to cancel (those it refuses are listed with
 * the reason, e.g. past the change deadline), give a reason, confirm. The conversation's state
 * (every update and API result so far) is kept in the database by the conversations plugin, and
 * every database access runs in `conversation.external`, so a replay after a restart repeats
 * nothing.
 */
export function createCancelConversation(deps: BotDeps) {
  const tz = deps.config.businessTimezone;
  return async function cancel(conversation: Conversation<BotContext, Context>, ctx: Context): Promise<void> {
    const telegramId = ctx.from!.id;
    // The conversation's own context has no language: read once, then replayed from the stored state.
    const language = await conversation.external(() => customerLanguage(deps.database.db, telegramId));
    const T = textsFor(language);
    const { common } = T;
    const say = T.replies.cancel;
    const bookings = await conversation.external(() => myBookings(deps.database.db, telegramId));
    const items = bookings.filter((b) => b.allowed.cancel.ok);
    // Why the others cannot be cancelled (a cancelled one needs no word).
    const refusals = bookings
      .filter((b) => !b.allowed.cancel.ok && b.allowed.cancel.reason !== 'cancelled')
      .map(
        (b) =>
          `${escapeHtml(say.pickButton(b.workshop_title, common.shortDateTime(b.date, tz)))}: ${escapeHtml(b.allowed.cancel.detail ?? '')}`,
      );
    const withRefusals = (text: string) => [text, ...(refusals.length > 0 ? ['', ...refusals] : [])].join('\n');
    if (items.length === 0) {
      await ctx.reply(withRefusals(say.none), HTML);
      return;
    }
    await ctx.reply(withRefusals(say.pick), {
      ...HTML,
      reply_markup: pickRecordKeyboard(
        items.map((b) => ({ id: b.id, label: say.pickButton(b.workshop_title, common.shortDateTime(b.date, tz)) })),
        T,
      ),
    });

    let picked: MyBooking | undefined;
    while (!picked) {
      const c = await conversation.waitFor('callback_query:data', {
        otherwise: (o) => o.reply(say.pickAgain, HTML),
      });
      const data = decodeCallbackData(c.callbackQuery.data);
      if (data?.kind === 'cancel_abort') {
        await c.answerCallbackQuery();
        await c.editMessageText(say.kept, HTML);
        return;
      }
      picked = data?.kind === 'cancel_pick' ? items.find((b) => b.id === data.recordId) : undefined;
      if (!picked) {
        await c.answerCallbackQuery({ text: say.notYours });
        continue;
      }
      await c.answerCallbackQuery();
      await c.editMessageText(say.askReason(picked.workshop_title, common.dateTime(picked.date, tz)), HTML);
    }

    let reason = '';
    while (!reason) {
      const c = await conversation.waitFor('message:text', { otherwise: (o) => o.reply(say.reasonAgain, HTML) });
      const text = c.message.text.trim();
      // The reason is stored: the API's rule for texts holds here too (Telegram passes control characters on).
      if (CONTROL_CHARACTER.test(text)) await c.reply(`${CONTROL_CHARACTER_MESSAGE}. ${say.reasonAgain}`, HTML);
      else if (text.length > 0 && text.length <= REASON_MAX) reason = text;
      else await c.reply(say.reasonAgain, HTML);
    }

    await ctx.reply(say.confirm(picked.workshop_title, common.dateTime(picked.date, tz), reason), {
      ...HTML,
      reply_markup: confirmCancelKeyboard(T),
    });
    const [yes, no] = [true, false].map((y) => encodeCallbackData({ kind: 'cancel_confirm', yes: y }));
    const answer = await conversation.waitForCallbackQuery([yes, no], {
      otherwise: (o) => o.reply(say.confirmAgain, HTML),
    });
    if (answer.callbackQuery.data === no) {
      await answer.answerCallbackQuery();
      await answer.editMessageText(say.kept, HTML);
      return;
    }
    const id = picked.id;
    const outcome = await conversation.external(() => cancelOwnRecord(deps, telegramId, id, reason, language));
    if (outcome.ok) {
      await answer.answerCallbackQuery({ text: say.doneToast });
      await answer.editMessageText(say.done, HTML);
    } else {
      await answer.answerCallbackQuery();
      await answer.editMessageText(say.failed(outcome.detail), HTML);
    }
  };
}
