import { Composer } from 'grammy';
import type { BotContext } from '../context';
import { CANCEL_CONVERSATION } from '../conversations/cancel';

/** /cancel enters the cancel conversation (bot/conversations/cancel.ts). */
export function cancelFeature() {
  const composer = new Composer<BotContext>();
  composer.command('cancel', (ctx) => ctx.conversation.enter(CANCEL_CONVERSATION));
  return composer;
}

/**
 * A command sent in the middle of a conversation leaves it and is then handled as usual, so
 * /my, /help or a new /cancel are never swallowed as an answer.
 */
export function commandsLeaveConversations() {
  const composer = new Composer<BotContext>();
  composer.on('message:entities:bot_command', async (ctx, next) => {
    const startsWithCommand = ctx.message.entities.some((en) => en.type === 'bot_command' && en.offset === 0);
    if (startsWithCommand && Object.keys(ctx.conversation.active()).length > 0) await ctx.conversation.exitAll();
    await next();
  });
  return composer;
}
