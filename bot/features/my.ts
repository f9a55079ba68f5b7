import { Composer } from 'grammy';
import { HTML, renderContext, type BotContext, type BotDeps } from '../context';
import { moneySnapshot } from '../../core/money/ledger';
import { getRecord } from '../../db/repositories/records';
import { moneyLines } from '../messages';
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
    const rc = { ...renderContext(deps.config), language: ctx.language };
    const lines = await Promise.all(
      items.map(async (b, i) => {
        const record = await getRecord(deps.database.db, b.id);
        const money = record ? moneyLines(await moneySnapshot(deps.database.db, record), b.state, rc, true) : [];
        return [
          say.item(
            i,
            b.workshop_title,
            common.dateTime(b.date, tz),
            b.state === 'QUEUED' ? say.queuedAt(b.queue_position ?? 0) : common.state[b.state],
            b.people_count,
          ),
          ...money.map((line) => `    ${line}`),
        ].join('\n');
      }),
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
