import { Bot, type Middleware } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { autoRetry } from '@grammyjs/auto-retry';
import { conversations, createConversation } from '@grammyjs/conversations';
import type { BotContext, BotDeps } from './context';
import { DbStorage } from './storage';
import { CANCEL_CONVERSATION, CANCEL_WAIT_MS, createCancelConversation } from './conversations/cancel';
import { BUYER_ID_CONVERSATION, BUYER_ID_WAIT_MS, createBuyerIdConversation } from './conversations/buyer-id';
import { receiptsFeature } from './features/receipts';
import { startFeature } from './features/start';
import { journeyFeature } from './features/journey';
import { linkFeature } from './features/link';
import { certificatesFeature } from './features/certificates';
import { myFeature } from './features/my';
import { todayFeature } from './features/today';
import { minPeopleFeature } from './features/min-people';
import { cancelFeature, commandsLeaveConversations } from './features/cancel';
import { personalDataFeature } from './features/personal-data';
import { paymentsFeature } from './features/payments';
import { fallbackFeature, helpFeature } from './features/help';
import { texts } from './texts';
import { languageFeature, languageMiddleware } from './features/language';
import { businessFeature } from './features/business';

/** Bump when a conversation changes in a way that old stored states cannot be replayed. */
const CONVERSATION_VERSION = 2;

/**
 * Handles the updates of one chat one after another (in this process): the conversation state
 * of a chat is read and written around each update, so two of its updates must not interleave.
 */
function sequentializeByChat(): Middleware<BotContext> {
  const chains = new Map<string, Promise<unknown>>();
  return async (ctx, next) => {
    const key = ctx.chatId?.toString();
    if (key === undefined) return next();
    const run = (chains.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => next());
    chains.set(key, run);
    try {
      await run;
    } finally {
      if (chains.get(key) === run) chains.delete(key);
    }
  };
}

/**
 * The bot, built from the same database, services and repositories as the API. No network
 * until it is used: `bot.init()` (getMe) runs on the first update or at start.
 */
export function createBot(deps: BotDeps & { botInfo?: UserFromGetMe }): Bot<BotContext> {
  const { config, database, log } = deps;
  if (!config.botToken) throw new Error('createBot needs BOT_TOKEN');
  const bot = new Bot<BotContext>(config.botToken, {
    client: { apiRoot: config.telegramApiRoot, timeoutSeconds: 30 },
    botInfo: deps.botInfo,
  });
  // Interactive replies wait out short rate limits and Telegram's 5xx, but fail at once when it is
  // unreachable (auto-retry would otherwise retry network errors forever). The outbox worker uses
  // its own Api without this: it has its own retries.
  bot.api.config.use(autoRetry({ maxRetryAttempts: 2, maxDelaySeconds: 5, rethrowHttpErrors: true }));

  // Every update is answered in its sender's language.
  bot.use(languageMiddleware(deps));

  // Payments first: a pre-checkout query comes without a chat, and a payment must never wait for a conversation.
  bot.use(paymentsFeature(deps));

  // The studio's own Telegram account (Telegram Business): handled here, never as the bot's own chats.
  bot.use(businessFeature(deps));

  // Customers and staff talk to the bot in private chats only, as a person: an update without a
  // sender (from) or a chat has nobody to answer, so no handler below sees one (they may rely on both).
  const pm = bot.chatType('private').filter((ctx) => ctx.from !== undefined && ctx.chat !== undefined);
  pm.use(sequentializeByChat());
  pm.use(
    conversations<BotContext, BotContext>({
      storage: {
        type: 'key',
        version: CONVERSATION_VERSION,
        getStorageKey: (ctx) => ctx.chatId?.toString(),
        adapter: new DbStorage(database, 'conversation:'),
      },
    }),
  );
  pm.use(commandsLeaveConversations());
  pm.use(
    createConversation(createCancelConversation(deps), {
      id: CANCEL_CONVERSATION,
      maxMillisecondsToWait: CANCEL_WAIT_MS,
    }),
  );
  pm.use(
    createConversation(createBuyerIdConversation(deps), {
      id: BUYER_ID_CONVERSATION,
      maxMillisecondsToWait: BUYER_ID_WAIT_MS,
    }),
  );
  pm.use(languageFeature(deps));
  pm.use(linkFeature(deps));
  pm.use(certificatesFeature(deps));
  pm.use(journeyFeature(deps));
  pm.use(startFeature(deps));
  pm.use(myFeature(deps));
  pm.use(todayFeature(deps));
  pm.use(minPeopleFeature(deps));
  pm.use(cancelFeature());
  pm.use(personalDataFeature(deps));
  pm.use(receiptsFeature(deps));
  pm.use(helpFeature(deps));
  pm.use(fallbackFeature());

  bot.catch(async (err) => {
    log.error({ err: err.error, update_id: err.ctx.update.update_id }, 'bot: error while handling an update');
    try {
      if (err.ctx.chat?.type === 'private') await err.ctx.reply((err.ctx.t ?? texts).replies.error);
    } catch {
      // Telegram unreachable: the error is logged already.
    }
  });
  return bot;
}
