import { Api, Bot, GrammyError, type Context } from 'grammy';
import type { InlineKeyboardMarkup, ReplyKeyboardMarkup, Update, User, UserFromGetMe } from 'grammy/types';
import { autoRetry } from '@grammyjs/auto-retry';
import type { Log } from '../core/kernel/log';
import { webhookSecretCheck } from '../bot/webhook-secret';
import type { OnboardingPort } from './onboarding-port';
import { webhookSecretOf } from './secrets';

/*
 * The platform's own bot: a studio owner gets a studio (its own Telegram bot and admin) here, in one tap
 * with Telegram's managed bots (Bot API 9.6) or by pasting a token from @BotFather. Webhook mode only:
 * the server posts each update to handleUpdate. The studio store is behind OnboardingPort.
 *
 * A managed bot arrives twice on creation: the `managed_bot` update (ManagedBotUpdated: the owner and
 * the bot) and, in the owner's chat, a service message with `managed_bot_created`. The update is the
 * one that acts (it also comes for a bot created from a t.me/newbot link, and on each token change of
 * the bot); the service message only says the bot was created and removes the reply keyboard. A copy
 * of the update (Telegram delivers again) finds the same token and does nothing.
 */

/** The updates the platform bot asks for in setWebhook: `managed_bot` carries the managed bots. */
export const ONBOARDING_ALLOWED_UPDATES = ['message', 'callback_query', 'managed_bot'] as const;

/** A bot token as @BotFather gives it. */
export const BOT_TOKEN_PATTERN = /^\d+:[\w-]{30,}$/;

/** The request_id of the «Создать бота студии» button (a signed 32-bit integer, unique in the message). */
export const CREATE_BOT_REQUEST_ID = 1;

const TELEGRAM_TIMEOUT_S = 10;
/** Managed bots whose token was handled lately, remembered to recognise a copy of an update. */
const REMEMBERED_BOTS = 1000;

/** The platform bot's command list (setMyCommands). */
export const ONBOARDING_COMMANDS = [
  { command: 'start', description: 'Создать бота студии' },
  { command: 'studios', description: 'Мои студии' },
  { command: 'newtoken', description: 'Новый токен бота студии' },
];

const CREATE_CALLBACK = 'create:';
const NEW_TOKEN_CALLBACK = 'newtoken:';

/** Everything the platform bot says (plain text, no parse mode). */
export const onboardingTexts = {
  start: (name: string) =>
    [
      `Здравствуйте, ${name}! 👋`,
      '',
      'Здесь открывают студию мастер-классов: у неё будет свой Telegram-бот для записи клиентов и админка для вас.',
      '',
      'Нажмите «Создать бота студии» внизу — Telegram создаст бота в один шаг.',
      'Уже есть бот из @BotFather? Тогда просто пришлите сюда его токен.',
    ].join('\n'),
  createButton: 'Создать бота студии',
  studiosButton: 'Мои студии',
  /** «Создать бота студии» suggests this name for the new bot. */
  suggestedName: (firstName: string) => `${firstName.slice(0, 40)} — студия`,
  botCreated: (username: string) => `Бот @${username} создан ✅`,
  studioReady: (username: string) =>
    [
      `Готово! Студия с ботом @${username} создана 🎉`,
      '',
      'Откройте админку: там короткий мастер первой настройки. Ссылка одноразовая, новую всегда даст /studios.',
    ].join('\n'),
  openAdmin: 'Открыть админку',
  /** When the login link cannot be a button (not https: a development server). */
  linkLine: (url: string) => `Админка: ${url}`,
  managedFailed: (username: string) =>
    [
      `Не получилось подключить бота @${username} 😕`,
      '',
      'Нажмите «Попробовать ещё раз» через минуту — или пришлите токен этого бота из @BotFather.',
    ].join('\n'),
  retryButton: 'Попробовать ещё раз',
  tokenSaved: (username: string) => `Новый токен бота @${username} сохранён — студия работает дальше.`,
  tokenInvalid:
    'Этот токен не подходит: Telegram его не принял. Скопируйте токен целиком в @BotFather (/mybots → бот → API Token) и пришлите ещё раз.',
  telegramUnavailable: 'Telegram сейчас не отвечает. Пришлите токен ещё раз через минуту.',
  studioFailed: 'Не получилось создать студию. Пришлите токен ещё раз через минуту.',
  ownToken: 'Это токен самой платформы. Пришлите токен бота вашей студии.',
  tokenDeleted: 'Сообщение с токеном я удалил из чата — так надёжнее.',
  tokenNotDeleted: 'Удалите, пожалуйста, сообщение с токеном из чата.',
  noStudios: 'У вас пока нет студий. Нажмите /start, чтобы создать первую.',
  studiosList: (studios: { name: string; botUsername: string }[]) =>
    [
      'Ваши студии:',
      '',
      ...studios.map((s) => `• ${s.name} — @${s.botUsername}`),
      '',
      'Кнопки открывают админку (каждая ссылка одноразовая). Новый токен бота — /newtoken.',
    ].join('\n'),
  studioButton: (name: string) => `Админка: ${name.length > 40 ? `${name.slice(0, 39)}…` : name}`,
  newTokenChoose: 'Какому боту выпустить новый токен? Старый сразу перестанет работать.',
  newTokenButton: (username: string) => `@${username}`,
  newTokenDone: (username: string) =>
    `Готово: у бота @${username} новый токен, старый больше не работает. Студия уже работает на новом.`,
  newTokenNotManaged: (username: string) =>
    `Бот @${username} подключён токеном из @BotFather, поэтому новый токен выпускается там: /revoke в @BotFather, затем пришлите новый токен сюда.`,
  newTokenNoBots:
    'Новый токен выпускается в @BotFather: /revoke, затем пришлите новый токен сюда — я сохраню его для студии.',
  newTokenFailed: (username: string) => `Не получилось сменить токен бота @${username}. Попробуйте ещё раз: /newtoken.`,
  newTokenNotStored: (username: string) =>
    `Telegram выдал боту @${username} новый токен, но сохранить его не получилось. Нажмите /newtoken ещё раз — студия снова заработает.`,
  notYourBot: 'Это не бот ваших студий.',
  alreadyDone: 'Студия уже создана: /studios',
  error: 'Что-то пошло не так. Попробуйте ещё раз через минуту.',
  hint: 'Чтобы открыть студию, нажмите /start. Есть бот из @BotFather — пришлите его токен. Ваши студии — /studios.',
};

/** The username suggested for a new studio bot: Latin letters, digits and _, 5-32 long, ending in "bot". */
export function suggestedUsername(user: Pick<User, 'id' | 'username'>): string {
  const suffix = '_studio_bot';
  const base = (user.username ?? '').replace(/[^A-Za-z0-9_]/g, '').replace(/_+$/, '');
  const start = /^[A-Za-z]/.test(base) ? base : `studio${user.id}`;
  return `${start.slice(0, 32 - suffix.length)}${suffix}`;
}

/** The reply keyboard of /start: the managed-bot request button and «Мои студии». */
export function createBotKeyboard(user: Pick<User, 'id' | 'first_name' | 'username'>): ReplyKeyboardMarkup {
  return {
    keyboard: [
      [
        {
          text: onboardingTexts.createButton,
          request_managed_bot: {
            request_id: CREATE_BOT_REQUEST_ID,
            suggested_name: onboardingTexts.suggestedName(user.first_name),
            suggested_username: suggestedUsername(user),
          },
        },
      ],
      [{ text: onboardingTexts.studiosButton }],
    ],
    resize_keyboard: true,
  };
}

const fullName = (user: Pick<User, 'first_name' | 'last_name'>) =>
  [user.first_name, user.last_name].filter(Boolean).join(' ');

/** A message's login link: an inline URL button, or (not https: Telegram refuses such buttons) a line of text. */
function withLogin(text: string, loginUrl: string): { text: string; reply_markup?: InlineKeyboardMarkup } {
  return loginUrl.startsWith('https://')
    ? { text, reply_markup: { inline_keyboard: [[{ text: onboardingTexts.openAdmin, url: loginUrl }]] } }
    : { text: `${text}\n\n${onboardingTexts.linkLine(loginUrl)}` };
}

/** What getMe says of a token: the bot, or that Telegram does not take it, or that it did not answer. */
type TokenCheck = { ok: true; me: UserFromGetMe } | { ok: false; reason: 'invalid' | 'unavailable' };

export interface OnboardingBot {
  bot: Bot;
  /** Handles one webhook update; never throws (a failure is told to the owner and logged). */
  handleUpdate(update: Update): Promise<void>;
  /** Timing-safe check of the X-Telegram-Bot-Api-Secret-Token header. */
  verifySecret(header: unknown): boolean;
  /** The secret_token to set the webhook with: derived from SECRET_KEY and the token, as a studio bot's. */
  webhookSecret: string;
  /** Registers the webhook (with the secret and ONBOARDING_ALLOWED_UPDATES) and the command list. */
  setUp(webhookUrl: string): Promise<void>;
}

export function createOnboardingBot(deps: {
  token: string;
  /** SECRET_KEY: its webhook secret is derived from it with the token, so every instance agrees. */
  secretKey: string;
  apiRoot: string;
  port: OnboardingPort;
  log: Pick<Log, 'info' | 'warn' | 'error'>;
  botInfo?: UserFromGetMe;
}): OnboardingBot {
  const { token, apiRoot, port, log } = deps;
  const webhookSecret = webhookSecretOf(deps.secretKey, token);
  const bot = new Bot(token, { client: { apiRoot, timeoutSeconds: 30 }, botInfo: deps.botInfo });
  // As the studio bot: short rate limits and Telegram's 5xx waited out, an unreachable Telegram fails at once.
  bot.api.config.use(autoRetry({ maxRetryAttempts: 2, maxDelaySeconds: 5, rethrowHttpErrors: true }));

  /** The last token handled of each managed bot (oldest first), to recognise a copy of an update. */
  const handled = new Map<number, string>();
  const remember = (botId: number, botToken: string) => {
    handled.delete(botId);
    handled.set(botId, botToken);
    if (handled.size > REMEMBERED_BOTS) handled.delete(handled.keys().next().value as number);
  };
  /** One thing at a time per bot (the update and its copy, two pastes of a token): each waits for the one before. */
  const chains = new Map<number, Promise<unknown>>();
  function oneAtATime<T>(botId: number, task: () => Promise<T>): Promise<T> {
    const run = (chains.get(botId) ?? Promise.resolve()).catch(() => undefined).then(task);
    chains.set(botId, run);
    return run.finally(() => {
      if (chains.get(botId) === run) chains.delete(botId);
    });
  }

  async function checkToken(botToken: string): Promise<TokenCheck> {
    try {
      const me = await new Api(botToken, { apiRoot, timeoutSeconds: TELEGRAM_TIMEOUT_S }).getMe();
      return { ok: true, me };
    } catch (err) {
      // 401 Unauthorized: no bot has this token (revoked, mistyped); 404: not a token at all.
      if (err instanceof GrammyError && (err.error_code === 401 || err.error_code === 404))
        return { ok: false, reason: 'invalid' };
      log.warn({ err: errorSummary(err) }, 'platform bot: getMe with a studio bot token failed');
      return { ok: false, reason: 'unavailable' };
    }
  }

  /** Sends to the owner; a refusal (the owner never opened the platform bot: 403) is logged, not thrown. */
  async function tell(chatId: number, message: { text: string; reply_markup?: InlineKeyboardMarkup }) {
    try {
      await bot.api.sendMessage(chatId, message.text, message.reply_markup && { reply_markup: message.reply_markup });
    } catch (err) {
      log.warn({ err: errorSummary(err), chat_id: chatId }, 'platform bot: message to the owner not sent');
    }
  }

  const retryMarkup = (botId: number): InlineKeyboardMarkup => ({
    inline_keyboard: [[{ text: onboardingTexts.retryButton, callback_data: `${CREATE_CALLBACK}${botId}` }]],
  });

  /**
   * A managed bot created (or its token changed): its token from Telegram, checked, then the studio
   * created, or its stored token replaced. 'duplicate': this token was handled already (a copy).
   */
  function connectManagedBot(owner: User, managed: User): Promise<'done' | 'duplicate' | 'failed'> {
    const username = managed.username ?? String(managed.id);
    const failed = async (err: unknown, what: string) => {
      log.warn({ err: errorSummary(err), bot_id: managed.id, owner_id: owner.id }, `platform bot: ${what}`);
      await tell(owner.id, { text: onboardingTexts.managedFailed(username), reply_markup: retryMarkup(managed.id) });
      return 'failed' as const;
    };
    return oneAtATime(managed.id, async () => {
      let botToken: string;
      try {
        botToken = await bot.api.getManagedBotToken(managed.id);
      } catch (err) {
        return failed(err, 'getManagedBotToken failed');
      }
      if (handled.get(managed.id) === botToken) return 'duplicate';
      const check = await checkToken(botToken);
      if (!check.ok) return failed(check.reason, 'the managed bot token did not pass getMe');
      const { me } = check;
      try {
        // A bot that has a studio already: its owner replaced the token (or Telegram sent the update again).
        if (await port.replaceToken(me.id, botToken)) {
          remember(me.id, botToken);
          log.info({ bot_id: me.id }, 'platform bot: a managed bot token replaced');
          await tell(owner.id, { text: onboardingTexts.tokenSaved(me.username) });
          return 'done';
        }
        const studio = await port.createStudio({
          ownerTelegramId: owner.id,
          ownerName: fullName(owner),
          bot: { id: me.id, username: me.username, firstName: me.first_name, token: botToken },
        });
        remember(me.id, botToken);
        log.info({ bot_id: me.id, slug: studio.slug }, 'platform bot: a studio created for a managed bot');
        await tell(owner.id, withLogin(onboardingTexts.studioReady(me.username), studio.loginUrl));
        return 'done';
      } catch (err) {
        return failed(err, 'the studio of a managed bot not created');
      }
    });
  }

  /** A token pasted from @BotFather: checked with getMe, then a studio created, or its stored token replaced. */
  async function connectPastedToken(ctx: Context, from: User, botToken: string) {
    // Out of the chat first, whatever comes next.
    const deleted = await ctx.deleteMessage().then(
      () => true,
      (err: unknown) => {
        log.warn({ err: errorSummary(err) }, 'platform bot: the message with a token not deleted');
        return false;
      },
    );
    const deletedNote = deleted ? onboardingTexts.tokenDeleted : onboardingTexts.tokenNotDeleted;
    const reply = (message: { text: string; reply_markup?: InlineKeyboardMarkup }) =>
      ctx.reply(`${message.text}\n\n${deletedNote}`, message.reply_markup && { reply_markup: message.reply_markup });
    const check = await checkToken(botToken);
    if (!check.ok)
      return reply({
        text: check.reason === 'invalid' ? onboardingTexts.tokenInvalid : onboardingTexts.telegramUnavailable,
      });
    const { me } = check;
    if (me.id === bot.botInfo.id) return reply({ text: onboardingTexts.ownToken });
    const answer = await oneAtATime(me.id, async () => {
      try {
        if (await port.replaceToken(me.id, botToken)) {
          log.info({ bot_id: me.id }, 'platform bot: a pasted token replaced a studio bot token');
          const studio = (await port.studiosOf(from.id)).find(
            (s) => s.botId === me.id || s.botUsername === me.username,
          );
          const text = onboardingTexts.tokenSaved(me.username);
          return studio ? withLogin(text, studio.loginUrl) : { text };
        }
        const studio = await port.createStudio({
          ownerTelegramId: from.id,
          ownerName: fullName(from),
          bot: { id: me.id, username: me.username, firstName: me.first_name, token: botToken },
        });
        log.info({ bot_id: me.id, slug: studio.slug }, 'platform bot: a studio created for a pasted token');
        return withLogin(onboardingTexts.studioReady(me.username), studio.loginUrl);
      } catch (err) {
        log.error({ err: errorSummary(err), bot_id: me.id }, 'platform bot: the studio of a pasted token not created');
        return { text: onboardingTexts.studioFailed };
      }
    });
    return reply(answer);
  }

  /** A managed bot's new token (replaceManagedBotToken), stored for its studio; the old token stops working. */
  async function newToken(ctx: Context, studio: { botId: number; botUsername: string }) {
    const { botId, botUsername } = studio;
    await oneAtATime(botId, async () => {
      let fresh: string;
      try {
        fresh = await bot.api.replaceManagedBotToken(botId);
      } catch (err) {
        log.warn({ err: errorSummary(err), bot_id: botId }, 'platform bot: replaceManagedBotToken failed');
        // Telegram refuses a bot this bot does not manage (one connected with a @BotFather token).
        const notManaged = err instanceof GrammyError && err.error_code === 400;
        await ctx.reply(
          notManaged ? onboardingTexts.newTokenNotManaged(botUsername) : onboardingTexts.newTokenFailed(botUsername),
        );
        return;
      }
      try {
        if (!(await port.replaceToken(botId, fresh))) throw new Error('no studio has this bot');
      } catch (err) {
        // Not remembered: the managed_bot update of the change (or the next /newtoken) stores it.
        log.error({ err: errorSummary(err), bot_id: botId }, 'platform bot: a new managed bot token not stored');
        await ctx.reply(onboardingTexts.newTokenNotStored(botUsername));
        return;
      }
      remember(botId, fresh);
      log.info({ bot_id: botId }, 'platform bot: a managed bot token replaced on its owner’s request');
      await ctx.reply(onboardingTexts.newTokenDone(botUsername));
    });
  }

  // Owners talk to the platform bot in private chats, as a person.
  const pm = bot.chatType('private').filter((ctx) => ctx.from !== undefined);

  pm.command('start', async (ctx) => {
    await ctx.reply(onboardingTexts.start(ctx.from.first_name), { reply_markup: createBotKeyboard(ctx.from) });
  });

  const showStudios = async (ctx: Context & { from: User }) => {
    const studios = await port.studiosOf(ctx.from.id);
    if (studios.length === 0) return ctx.reply(onboardingTexts.noStudios);
    // As withLogin: https links as buttons, any other (a development server) as lines of text.
    const buttons = studios
      .filter((s) => s.loginUrl.startsWith('https://'))
      .map((s) => [{ text: onboardingTexts.studioButton(s.name), url: s.loginUrl }]);
    const lines = studios.filter((s) => !s.loginUrl.startsWith('https://')).map((s) => `${s.name}: ${s.loginUrl}`);
    await ctx.reply(
      [onboardingTexts.studiosList(studios), ...lines].join('\n'),
      buttons.length > 0 ? { reply_markup: { inline_keyboard: buttons } } : undefined,
    );
  };
  pm.command('studios', showStudios);
  pm.hears(onboardingTexts.studiosButton, showStudios);

  pm.command('newtoken', async (ctx) => {
    const studios = await port.studiosOf(ctx.from.id);
    if (studios.length === 0) return ctx.reply(onboardingTexts.noStudios);
    const managed = studios.flatMap((s) => (s.botId === undefined ? [] : [{ ...s, botId: s.botId }]));
    if (managed.length === 0) return ctx.reply(onboardingTexts.newTokenNoBots);
    if (managed.length === 1) return newToken(ctx, managed[0]);
    await ctx.reply(onboardingTexts.newTokenChoose, {
      reply_markup: {
        inline_keyboard: managed.map((s) => [
          { text: onboardingTexts.newTokenButton(s.botUsername), callback_data: `${NEW_TOKEN_CALLBACK}${s.botId}` },
        ]),
      },
    });
  });

  pm.callbackQuery(new RegExp(`^${NEW_TOKEN_CALLBACK}(\\d+)$`), async (ctx) => {
    const botId = Number(ctx.match[1]);
    // Only a bot of the presser's own studios.
    const studio = (await port.studiosOf(ctx.from.id)).find((s) => s.botId === botId);
    if (!studio) return ctx.answerCallbackQuery({ text: onboardingTexts.notYourBot });
    await ctx.answerCallbackQuery();
    await newToken(ctx, { botId, botUsername: studio.botUsername });
  });

  pm.callbackQuery(new RegExp(`^${CREATE_CALLBACK}(\\d+)$`), async (ctx) => {
    await ctx.answerCallbackQuery();
    const botId = Number(ctx.match[1]);
    // The button is in the owner's chat only, under the failure message about their bot.
    const outcome = await connectManagedBot(ctx.from, { id: botId, is_bot: true, first_name: String(botId) });
    if (outcome === 'duplicate') await ctx.reply(onboardingTexts.alreadyDone);
  });

  // A button of an older message: its spinner stopped.
  pm.on('callback_query', (ctx) => ctx.answerCallbackQuery());

  // The service message of a bot created with the button: said, and the reply keyboard removed. The
  // managed_bot update (below) creates the studio.
  pm.on('message:managed_bot_created', async (ctx) => {
    const created = ctx.msg.managed_bot_created.bot;
    await ctx.reply(onboardingTexts.botCreated(created.username ?? String(created.id)), {
      reply_markup: { remove_keyboard: true },
    });
  });

  pm.on('message:text', async (ctx) => {
    const text = ctx.msg.text.trim();
    if (BOT_TOKEN_PATTERN.test(text)) return connectPastedToken(ctx, ctx.from, text);
    await ctx.reply(onboardingTexts.hint);
  });
  pm.on('message', (ctx) => ctx.reply(onboardingTexts.hint));

  bot.on('managed_bot', async (ctx) => {
    const { user, bot: managed } = ctx.update.managed_bot;
    await connectManagedBot(user, managed);
  });

  let initializing: Promise<void> | null = null;
  /** getMe once, bounded (bot.init() would retry while Telegram is unreachable). */
  function init(): Promise<void> {
    if (bot.isInited()) return Promise.resolve();
    initializing ??= bot.api
      .getMe(AbortSignal.timeout(TELEGRAM_TIMEOUT_S * 1000) as Parameters<typeof bot.api.getMe>[0])
      .then((me) => {
        if (!bot.isInited()) bot.botInfo = me;
      })
      .finally(() => {
        initializing = null;
      });
    return initializing;
  }

  return {
    bot,
    webhookSecret,
    verifySecret: webhookSecretCheck(webhookSecret),
    async handleUpdate(update) {
      try {
        await init();
        await bot.handleUpdate(update);
      } catch (err) {
        const cause = err instanceof Error && 'error' in err ? (err as { error: unknown }).error : err;
        log.error({ err: errorSummary(cause), update_id: update.update_id }, 'platform bot: update not handled');
        const chatId = update.message?.chat.type === 'private' ? update.message.chat.id : undefined;
        if (chatId !== undefined) await tell(chatId, { text: onboardingTexts.error });
      }
    },
    async setUp(webhookUrl) {
      await init();
      if (!bot.botInfo.can_manage_bots)
        log.warn(
          { bot: bot.botInfo.username },
          'platform bot: Bot Management Mode is off (enable it in @BotFather), so «Создать бота студии» cannot create bots',
        );
      await bot.api.setWebhook(webhookUrl, {
        secret_token: webhookSecret,
        allowed_updates: [...ONBOARDING_ALLOWED_UPDATES],
        drop_pending_updates: false,
      });
      await bot.api.setMyCommands(ONBOARDING_COMMANDS);
      log.info({ url: webhookUrl }, 'platform bot: webhook registered');
    },
  };
}

/** An error for the log, without anything that could carry a token (a request URL). */
function errorSummary(err: unknown): unknown {
  if (err instanceof GrammyError)
    return { method: err.method, error_code: err.error_code, description: err.description };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return err;
}
