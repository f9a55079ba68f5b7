import { Composer } from 'grammy';
import { HTML, type BotContext, type BotDeps } from '../context';
import { consumeLinkToken, LINK_PREFIX } from '../../core/staff/telegram-link';

/** `/start link_<token>`: the deep link from the staff profile connects that account to this Telegram user. */
export function linkFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  composer.command('start', async (ctx, next) => {
    if (!ctx.match.startsWith(LINK_PREFIX)) return next();
    const token = ctx.match.slice(LINK_PREFIX.length).trim();
    const user = token
      ? await consumeLinkToken(deps.database, token, { id: ctx.from!.id, username: ctx.from!.username })
      : null;
    if (!user) {
      await ctx.reply(ctx.t.replies.link.invalid, HTML);
      return;
    }
    deps.log.info({ userId: user.id }, 'staff account linked to Telegram');
    await ctx.reply(ctx.t.replies.link.done(user.email), HTML);
  });
  return composer;
}
