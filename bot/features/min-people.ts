import { Composer } from 'grammy';
import { DomainError } from '../../core/kernel/errors';
import { scheduleSnapshot } from '../../core/notify/snapshots';
import { decideMinPeople } from '../../core/schedules/min-people';
import type { MinPeopleCheck } from '../../db/repositories/min-people';
import { getRecordSchedule } from '../../db/repositories/schedules';
import { onButton } from '../callback-data';
import { HTML, type BotContext, type BotDeps } from '../context';
import { minPeopleCard } from '../min-people-messages';
import { texts } from '../texts';
import { staffActorOf } from '../staff-actor';

const T = texts.staff.minPeople;

/**
 * Presses on the minimum-participants card: an owner or manager linked to Telegram cancels or runs the
 * session. The first press decides; every press is answered, and the card is redrawn to say what was
 * decided and by whom (a late press learns it was decided already).
 */
export function minPeopleFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  const db = deps.database.db;

  onButton(composer, { kind: 'min_people', notFound: T.notAllowed }, async (ctx, { action, scheduleId }) => {
    const actor = await staffActorOf(deps, ctx.from.id, 'schedule.manage');
    if (!actor) return void (await ctx.answerCallbackQuery({ text: T.notAllowed, show_alert: true }));
    let outcome;
    try {
      outcome = await decideMinPeople(deps.database, actor, scheduleId, action);
    } catch (err) {
      await ctx.answerCallbackQuery({
        text: err instanceof DomainError ? err.message : texts.replies.error,
        show_alert: true,
      });
      if (err instanceof DomainError) return;
      throw err;
    }
    const { decided, check } = outcome;
    await ctx.answerCallbackQuery(
      decided
        ? { text: check.status === 'cancelled' ? T.cancelledAnswer : T.keptAnswer }
        : { text: T.alreadyAnswer(check.decided_by_name), show_alert: true },
    );
    await redraw(ctx, check);
  });

  /** The card as decided, without its buttons. */
  async function redraw(ctx: BotContext, check: MinPeopleCheck) {
    const schedule = await getRecordSchedule(db, check.schedule_id);
    if (!schedule || !check.default_action || !check.decide_by) return;
    const card = minPeopleCard(
      {
        schedule: scheduleSnapshot(schedule),
        people: check.people,
        min_people: check.min_people,
        default_action: check.default_action,
        decide_by: check.decide_by,
      },
      { publicUrl: deps.config.publicUrl, timezone: deps.config.businessTimezone },
      check,
    );
    try {
      await ctx.editMessageText(card.text, HTML);
    } catch (err) {
      // A second press on a card already redrawn changes nothing: Telegram refuses such an edit.
      if (!String(err).includes('message is not modified')) throw err;
    }
  }

  return composer;
}
