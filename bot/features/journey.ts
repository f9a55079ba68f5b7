import { Composer } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { cancelRecord, leaveQueue, viewRecord } from '../../core/booking/engine';
import { customerActor } from '../../core/kernel/actor';
import { DomainError, NotFound, sayError, type FixedRefusalCode } from '../../core/kernel/errors';
import type { Language } from '../../contract/language';
import { sayRefusal } from '../../contract/texts/refusal';
import { MSG } from '../../core/kernel/messages';
import { confirmComing, rateClass } from '../../core/journey/reminder-answers';
import { createSeatGift, giftUrl } from '../../core/journey/seat-gifts';
import { dateOffers, subscribe } from '../../core/journey/date-subscriptions';
import { HTML, renderContext, type BotContext, type BotDeps } from '../context';
import { queueButton, reminderButton, shareUrl, subscribeButton } from '../keyboards/journey';
import { onButton } from '../callback-data';
import { inlineKeyboard, recordButton, webAppButton } from '../keyboards/webapp';
import { reminderKeyboard, reminderText, thanksKeyboard } from '../messages';
import { texts, type BotTexts } from '../texts';
import type { ScheduleSnapshot } from '../../core/notify/notifications';
import { scheduleSnapshot } from '../../core/notify/snapshots';
import { allowedFor } from '../../core/views/record-view';

/** The reason a booking cancelled from a reminder's "Не смогу" carries. */
export const CANT_COME_REASON = texts.staff.cancelReasons.cantCome;
/** The reason of a booking that left the queue from /my. */
export const LEFT_QUEUE_REASON = texts.staff.cancelReasons.leftQueue;

/** Telegram shows at most 200 characters in a callback query's alert. */
const ALERT_MAX = 200;
export const alert = (text: string) => ({
  text: text.length > ALERT_MAX ? `${text.slice(0, ALERT_MAX - 1)}…` : text,
  show_alert: true,
});

/** A not-found button's answer in the presser's language. */
const refused = (code: FixedRefusalCode) => (ctx: BotContext) => sayRefusal(ctx.language, { code });

/** A refusal of the domain as the presser reads it (an alert on the button); other errors go up. */
async function refusal<T>(
  language: Language,
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; detail: string }> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, detail: sayError(err, language) };
    throw err;
  }
}

/**
 * The customer's buttons: the reminder's "Приду" / "Не смогу" (then "Отменить запись?",
 * "Передать место другу", "Назад"), the rating after the class, leaving a queue from /my and
 * "Сообщить о новых датах". Every press is checked against the booking's owner (a stranger's press
 * reads as a missing booking) and every callback query is answered, also on errors.
 */
export function journeyFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  const baseRc = renderContext(deps.config);
  /** The render context in the presser's language. */
  const rcOf = (ctx: BotContext) => ({ ...baseRc, language: ctx.language });
  const notYours = (ctx: BotContext) => ctx.t.replies.journey.notYours;
  const tz = deps.config.businessTimezone;
  const db = deps.database.db;

  /** The booking as the presser may see it (null when it is not theirs), with what they may do with it. */
  async function own(recordId: number, telegramId: number) {
    try {
      const actor = customerActor(telegramId);
      const view = await viewRecord(db, actor, recordId);
      // Its refusals in the presser's language, as the alerts show them.
      return { ...view, allowed: await allowedFor(db, actor, view.allowed), snapshot: scheduleSnapshot(view.schedule) };
    } catch (err) {
      if (err instanceof NotFound) return null;
      throw err;
    }
  }

  const whenIn = (ctx: BotContext) => (s: ScheduleSnapshot) => ctx.t.common.dateTime(s.date, tz);

  onButton(composer, { kind: 'reminder', notFound: notYours }, async (ctx, { answer, recordId }) => {
    const J = ctx.t.replies.journey;
    const rc = rcOf(ctx);
    const when = whenIn(ctx);
    const telegramId = ctx.from.id;
    const mine = await own(recordId, telegramId);
    if (!mine) {
      await ctx.answerCallbackQuery({ text: J.notYours, show_alert: true });
      return;
    }
    const { snapshot } = mine;
    if (answer === 'yes') {
      const done = await refusal(ctx.language, () => confirmComing(deps.database, customerActor(telegramId), recordId));
      if (!done.ok) return void (await ctx.answerCallbackQuery(alert(done.detail)));
      await ctx.answerCallbackQuery({ text: J.confirmedToast });
      await ctx.editMessageText(J.confirmed(snapshot.workshop_title, when(snapshot)), {
        ...HTML,
        reply_markup: inlineKeyboard([[recordButton(rc.publicUrl, recordId, ctx.t.customer.buttons.myRecord)]]),
      });
      return;
    }
    if (answer === 'no') {
      await ctx.answerCallbackQuery();
      await ctx.editMessageText(J.cantCome(snapshot.workshop_title, when(snapshot)), {
        ...HTML,
        reply_markup: {
          inline_keyboard: [
            ...(mine.allowed.cancel.ok ? [[reminderButton(J.cancelButton, 'cancel', recordId)]] : []),
            ...(mine.allowed.gift.ok ? [[reminderButton(J.giftButton, 'gift', recordId)]] : []),
            [reminderButton(J.backButton, 'back', recordId)],
          ],
        },
      });
      return;
    }
    if (answer === 'back') {
      await ctx.answerCallbackQuery();
      const hours = Math.max(1, Math.round((Date.parse(snapshot.date) - Date.now()) / 3_600_000));
      await ctx.editMessageText(reminderText(snapshot, mine.record.people_count, hours, rc), {
        ...HTML,
        reply_markup: reminderKeyboard(rc, recordId),
      });
      return;
    }
    if (answer === 'cancel') {
      const done = await refusal(ctx.language, () =>
        cancelRecord(deps.database, customerActor(telegramId), recordId, CANT_COME_REASON),
      );
      if (!done.ok) return void (await ctx.answerCallbackQuery(alert(done.detail)));
      await ctx.answerCallbackQuery({ text: J.cancelledToast });
      await ctx.editMessageText(J.cancelled(snapshot.workshop_title, when(snapshot)), {
        ...HTML,
        reply_markup: inlineKeyboard([[recordButton(rc.publicUrl, recordId, ctx.t.customer.buttons.myRecord)]]),
      });
      return;
    }
    // gift
    const done = await refusal(ctx.language, () => createSeatGift(deps.database, customerActor(telegramId), recordId));
    if (!done.ok) return void (await ctx.answerCallbackQuery(alert(done.detail)));
    await ctx.answerCallbackQuery();
    const link = giftUrl(ctx.me.username, done.value.token);
    await ctx.editMessageText(J.giftLink(snapshot.workshop_title, when(snapshot), link), {
      ...HTML,
      reply_markup: giftKeyboard(ctx.t, link, snapshot.workshop_title, recordId),
    });
  });

  onButton(composer, { kind: 'rate', notFound: refused(MSG.recordNotFound) }, async (ctx, { recordId, rating }) => {
    const J = ctx.t.replies.journey;
    const done = await refusal(ctx.language, () =>
      rateClass(deps.database, customerActor(ctx.from.id), recordId, rating),
    );
    if (!done.ok) return void (await ctx.answerCallbackQuery(alert(done.detail)));
    await ctx.answerCallbackQuery({ text: J.ratedToast });
    await ctx.editMessageText(J.rated(done.value.schedule.workshop.title, rating), {
      ...HTML,
      reply_markup: thanksKeyboard(rcOf(ctx), recordId, rating),
    });
  });

  onButton(composer, { kind: 'queue', notFound: notYours }, async (ctx, { step, recordId }) => {
    const J = ctx.t.replies.journey;
    const when = whenIn(ctx);
    const mine = await own(recordId, ctx.from.id);
    if (!mine) return void (await ctx.answerCallbackQuery({ text: J.notYours, show_alert: true }));
    const { snapshot } = mine;
    if (step === 'leave') {
      if (!mine.allowed.leave_queue.ok)
        return void (await ctx.answerCallbackQuery(alert(mine.allowed.leave_queue.detail!)));
      await ctx.answerCallbackQuery();
      await ctx.reply(J.leaveQueueAsk(snapshot.workshop_title, when(snapshot)), {
        ...HTML,
        reply_markup: {
          inline_keyboard: [
            [queueButton(J.leaveQueueYesButton, 'yes', recordId), queueButton(J.leaveQueueNoButton, 'no', recordId)],
          ],
        },
      });
      return;
    }
    if (step === 'no') {
      await ctx.answerCallbackQuery();
      await ctx.editMessageText(J.leaveQueueKept, HTML);
      return;
    }
    const done = await refusal(ctx.language, () => leaveQueue(deps.database, customerActor(ctx.from.id), recordId));
    if (!done.ok) return void (await ctx.answerCallbackQuery(alert(done.detail)));
    await ctx.answerCallbackQuery({ text: J.leftQueueToast });
    await ctx.editMessageText(J.leftQueue(snapshot.workshop_title, when(snapshot)), HTML);
  });

  onButton(composer, { kind: 'subscribe', notFound: refused(MSG.workshopNotFound) }, async (ctx, { workshopId }) => {
    const J = ctx.t.replies.journey;
    const done = await refusal(ctx.language, () => subscribe(deps.database, workshopId, ctx.from.id));
    if (!done.ok) return void (await ctx.answerCallbackQuery(alert(done.detail)));
    await ctx.answerCallbackQuery({ text: J.subscribedToast });
    const offers = await dateOffers(db, ctx.from.id);
    const title = offers.find((o) => o.workshop_id === workshopId)?.title ?? '';
    await ctx.reply(J.subscribed(title), HTML);
  });

  return composer;
}

const giftKeyboard = (T: BotTexts, link: string, workshopTitle: string, recordId: number): InlineKeyboardMarkup => {
  const J = T.replies.journey;
  return {
    inline_keyboard: [
      [{ text: J.giftSendButton, url: shareUrl(link, J.giftShareText(workshopTitle)) }],
      [reminderButton(J.backButton, 'back', recordId)],
    ],
  };
};

/** /start gift_<token>: the friend's way into the mini-app, where they see the session and accept. */
export function giftStartReply(deps: BotDeps, token: string, T: BotTexts = texts) {
  const J = T.replies.journey;
  const markup = inlineKeyboard([[webAppButton(deps.config.publicUrl, J.giftAcceptButton, `/apply?gift=${token}`)]]);
  return { text: markup ? J.giftStart : J.giftStartNoApp, markup };
}

/** /start's offer: workshops without free dates, each with "Сообщить о новых датах". */
export async function newDatesOffer(deps: BotDeps, telegramId: number, T: BotTexts = texts) {
  const J = T.replies.journey;
  const offers = (await dateOffers(deps.database.db, telegramId)).filter((o) => !o.subscribed).slice(0, 5);
  if (offers.length === 0) return null;
  return {
    text: J.offerHead,
    markup: {
      inline_keyboard: offers.map((o) => [subscribeButton(J.offerButton(o.title), o.workshop_id)]),
    } satisfies InlineKeyboardMarkup,
  };
}
