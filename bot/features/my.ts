import { Composer } from 'grammy';
import { HTML, type BotContext, type BotDeps } from '../context';
import { loadUpcoming } from '../data';
import { queueButton } from '../keyboards/journey';
import { applyButton, inlineKeyboard, webAppButton } from '../keyboards/webapp';

/** /my: the customer's upcoming bookings (state, date, people), each with a button to its page /record/{id}. */
export function myFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  const tz = deps.config.businessTimezone;
  composer.command('my', async (ctx) => {
    const { common } = ctx.t;
    const say = ctx.t.replies.my;
    const items = await loadUpcoming(deps, ctx.from!.id);
    if (items.length === 0) {
      await ctx.reply(say.empty, {
        ...HTML,
        reply_markup: inlineKeyboard([[applyButton(deps.config.publicUrl, ctx.t.customer.buttons.apply)]]),
      });
      return;
    }
    const lines = items.map((b, i) =>
      say.item(
        i,
        b.workshop_title,
        common.dateTime(b.date, tz),
        b.state === 'QUEUED' ? say.queuedAt(b.queue_position ?? 0) : common.state[b.state],
        b.people_count,
      ),
    );
    const buttons = items.flatMap((b, i) => [
      [
        webAppButton(
          deps.config.publicUrl,
          say.button(i, b.workshop_title, common.shortDateTime(b.date, tz)),
          `/record/${b.id}`,
        ),
      ],
      // A queued customer can leave the queue right here (asked once more before it happens).
      ...(b.state === 'QUEUED' ? [[queueButton(say.leaveQueueButton(i), 'leave', b.id)]] : []),
    ]);
    await ctx.reply([say.head, '', ...lines].join('\n'), { ...HTML, reply_markup: inlineKeyboard(buttons) });
  });
  return composer;
}
