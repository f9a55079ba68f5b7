import { Composer } from 'grammy';
import { HTML, type BotContext, type BotDeps } from '../context';
import { loadUpcoming } from '../data';
import { formatDateTime, formatShortDateTime } from '../../contract/format';
import { J, STATE_LABEL, T } from '../messages';
import { queueButton } from '../keyboards/journey';
import { applyButton, inlineKeyboard, webAppButton } from '../keyboards/webapp';

/** /my: the customer's upcoming bookings (state, date, people), each with a button to its page /record/{id}. */
export function myFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  const tz = deps.config.businessTimezone;
  composer.command('my', async (ctx) => {
    const items = await loadUpcoming(deps, ctx.from!.id);
    if (items.length === 0) {
      await ctx.reply(T.myEmpty, { ...HTML, reply_markup: inlineKeyboard([[applyButton(deps.config.publicUrl)]]) });
      return;
    }
    const lines = items.map((b, i) =>
      T.myItem(
        i,
        b.workshop_title,
        formatDateTime(b.date, tz),
        b.state === 'QUEUED' ? T.queuedAt(b.queue_position ?? 0) : STATE_LABEL[b.state],
        b.people_count,
      ),
    );
    const buttons = items.flatMap((b, i) => [
      [
        webAppButton(
          deps.config.publicUrl,
          T.myButton(i, b.workshop_title, formatShortDateTime(b.date, tz)),
          `/record/${b.id}`,
        ),
      ],
      // A queued customer can leave the queue right here (asked once more before it happens).
      ...(b.state === 'QUEUED' ? [[queueButton(J.leaveQueueButton(i), 'leave', b.id)]] : []),
    ]);
    await ctx.reply([T.myHead, '', ...lines].join('\n'), { ...HTML, reply_markup: inlineKeyboard(buttons) });
  });
  return composer;
}
