import { Composer } from 'grammy';
import { HTML, renderContext, type BotContext, type BotDeps } from '../context';
import { myBookings } from '../../core/views/my-bookings';
import { moneyLines } from '../messages';
import { queueButton } from '../keyboards/journey';
import { applyButton, inlineKeyboard, webAppButton } from '../keyboards/webapp';

/**
 * /my: the customer's upcoming bookings (state, date, people, money), each with a button to its page
 * /record/{id}, and "leave the queue" where core allows it.
 */
export function myFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  const tz = deps.config.businessTimezone;
  composer.command('my', async (ctx) => {
    const { common } = ctx.t;
    const say = ctx.t.replies.my;
    const items = await myBookings(deps.database.db, ctx.from!.id);
    if (items.length === 0) {
      await ctx.reply(say.empty, {
        ...HTML,
        reply_markup: inlineKeyboard([[applyButton(deps.config.publicUrl, ctx.t.customer.buttons.apply)]]),
      });
      return;
    }
    const rc = { ...renderContext(deps.config), language: ctx.language };
    const lines = items.map((b, i) =>
      [
        say.item(
          i,
          b.workshop_title,
          common.dateTime(b.date, tz),
          b.state === 'QUEUED' ? say.queuedAt(b.queue_position ?? 0) : common.state[b.state],
          b.people_count,
        ),
        ...moneyLines(b.money, b.state, rc, true).map((line) => `    ${line}`),
      ].join('\n'),
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
      ...(b.allowed.leave_queue.ok ? [[queueButton(say.leaveQueueButton(i), 'leave', b.id)]] : []),
    ]);
    await ctx.reply([say.head, '', ...lines].join('\n'), { ...HTML, reply_markup: inlineKeyboard(buttons) });
  });
  return composer;
}
