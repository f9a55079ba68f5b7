import { Api, BotError, GrammyError, type Bot } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import { nowIso, type Database } from '../db/database';
import { markUpdateHandled, releaseUpdate, takeUpdate } from '../db/repositories/telegram-updates';
import type { SendGate } from './delivery/send-gate';
import { createOutbox, DEFAULT_OUTBOX_OPTIONS, type Outbox, type OutboxDeps, type OutboxOptions } from './outbox';
import { createBot } from './createBot';
import { renderContext, type BotConfig, type BotContext, type Log } from './context';
import { renderNotificationForChat } from './messages';
import { webAppsEnabled } from './keyboards/webapp';
import { profileCalls } from './profile-calls';
import { webhookSecretCheck } from './webhook-secret';
import { alertChargeNotRecorded, type InvoiceParams } from '../core/payments/telegram';
import { paymentReportOf } from './features/payments';
import { SHARE_CHAT_TYPES, type PreparedInlineMessage, type ShareArticle } from '../core/journey/share-messages';

export const ALLOWED_UPDATES = [
  'message',
  'callback_query',
  'pre_checkout_query',
  'business_connection',
  'business_message',
] as const;
const SETUP_RETRY_MS = 30_000;
const INIT_TIMEOUT_MS = 10_000;
const INVOICE_TIMEOUT_MS = 10_000;
/** How long an update being handled is this instance's; past it (the process died) a redelivery takes it. */
const UPDATE_LEASE_MS = 60_000;
/** Deliveries of one update whose handling fails before it is given up (the error is logged and told). */
const UPDATE_ATTEMPTS = 5;

export interface TelegramOptions {
  outbox?: Partial<OutboxOptions>;
  /** Told the result and duration of each send the outbox makes (metrics). */
  onSend?: OutboxDeps['onSend'];
  /** Known bot info: skips getMe. */
  botInfo?: UserFromGetMe;
  /** How long a taken update is this instance's (tests shorten it). */
  updateLeaseMs?: number;
  /** false: commands, menu button and webhook are already set (a platform sets a studio's bot up once). */
  setup?: boolean;
  /** The cap every bot of this process shares (a platform's studios): each send of this bot's outbox passes it. */
  sendGate?: SendGate;
}

/**
 * What became of a webhook update: `handled` (now or before: answer 200), `busy` (another instance is
 * handling it: answer non-2xx, so Telegram sends it again later). A failure throws, after letting the
 * update go, so Telegram's next delivery handles it again: a payment is never lost to a passing fault.
 */
export type UpdateOutcome = 'handled' | 'busy';

/** Everything Telegram: the bot and the outbox worker that delivers notifications. */
export interface Telegram {
  bot: Bot<BotContext>;
  outbox: Outbox;
  /** Timing-safe check of the X-Telegram-Bot-Api-Secret-Token header. */
  verifySecret(header: unknown): boolean;
  /** Handles one update (webhook) once it succeeds, whatever the instance; throws when it should come again. */
  handleUpdate(update: Update): Promise<UpdateOutcome>;
  /** The bot's @username (getMe once). */
  username(): Promise<string>;
  /** A Telegram invoice link for the mini-app's openInvoice. */
  createInvoiceLink(params: InvoiceParams & { provider_token: string }): Promise<string>;
  /** A message only this user may send, from the mini-app's shareMessage, to people's chats and groups. */
  savePreparedInlineMessage(userId: number, result: ShareArticle): Promise<PreparedInlineMessage>;
  /** At server start: commands, menu button, webhook or polling, the outbox worker. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The outbox worker's own Bot API client: no auto-retry (the worker retries), a bounded timeout. */
export function createOutboxFor(deps: {
  config: BotConfig;
  database: Database;
  log: Log;
  options?: Partial<OutboxOptions>;
  onSend?: OutboxDeps['onSend'];
  sendGate?: SendGate;
}): Outbox {
  const { config, sendGate } = deps;
  const options = { ...DEFAULT_OUTBOX_OPTIONS, ...deps.options };
  const token = config.botToken;
  if (!token) throw new Error('the outbox needs BOT_TOKEN');
  const api = new Api(token, {
    apiRoot: config.telegramApiRoot,
    timeoutSeconds: Math.ceil(options.sendTimeoutMs / 1000),
  });
  const rc = renderContext(config);
  return createOutbox({
    database: deps.database,
    api: api.raw,
    // The bot's turn under the process's cap, by its id (the token's first part).
    ...(sendGate && { permit: () => sendGate.permit(token.split(':')[0]) }),
    log: deps.log,
    options,
    render: (n, chatId) => renderNotificationForChat(deps.database.db, n, chatId, rc),
    onSend: deps.onSend,
  });
}

/** `webhookPath`: where the server takes Telegram's updates, registered with setWebhook in webhook mode. */
export function createTelegram(deps: {
  config: BotConfig;
  database: Database;
  log: Log;
  webhookPath: string;
  /** Where Telegram posts updates, when not PUBLIC_URL + webhookPath (a platform's one webhook for every studio). */
  webhookUrl?: string;
  options?: TelegramOptions;
}): Telegram {
  const { config, database, log } = deps;
  const webhookUrl = deps.webhookUrl ?? `${config.publicUrl}${deps.webhookPath}`;
  const bot = createBot({ config, database, log, botInfo: deps.options?.botInfo });
  const outbox = createOutboxFor({
    config,
    database,
    log,
    options: deps.options?.outbox,
    onSend: deps.options?.onSend,
    sendGate: deps.options?.sendGate,
  });
  const updateLeaseMs = deps.options?.updateLeaseMs ?? UPDATE_LEASE_MS;
  const https = webAppsEnabled(config.publicUrl);
  let initializing: Promise<void> | null = null;
  let setupTimer: NodeJS.Timeout | null = null;
  let stopped = false;

  /** getMe once (bot.init() would retry forever while Telegram is unreachable; this fails within INIT_TIMEOUT_MS). */
  function init(): Promise<void> {
    if (bot.isInited()) return Promise.resolve();
    initializing ??= bot.api
      .getMe(AbortSignal.timeout(INIT_TIMEOUT_MS) as Parameters<typeof bot.api.getMe>[0])
      .then((me) => {
        if (!bot.isInited()) bot.botInfo = me;
      })
      .finally(() => {
        initializing = null;
      });
    return initializing;
  }

  /** Commands, the menu button and the webhook: retried in the background until Telegram answers. */
  async function setup(): Promise<void> {
    if (deps.options?.setup === false) return;
    try {
      await init();
      for (const c of profileCalls(config.publicUrl)) await bot.api.raw[c.method](c.params as never);
      if (config.botMode === 'webhook' && https) {
        await bot.api.setWebhook(webhookUrl, {
          secret_token: config.webhookSecret,
          allowed_updates: [...ALLOWED_UPDATES],
        });
        log.info({ url: webhookUrl }, 'telegram: webhook registered');
      }
      if (config.botMode === 'polling' && !stopped) {
        // bot.start() removes any webhook first, then long-polls until stop().
        void bot
          .start({
            allowed_updates: [...ALLOWED_UPDATES],
            onStart: (me) => log.info({ bot: me.username }, 'telegram: polling started'),
          })
          .catch((err) => log.error({ err }, 'telegram: polling stopped with an error'));
      }
      log.info({ bot: bot.botInfo.username, mode: config.botMode }, 'telegram: bot ready');
    } catch (err) {
      if (stopped) return;
      log.error({ err }, `telegram: setup failed, retrying in ${SETUP_RETRY_MS / 1000} s`);
      setupTimer = setTimeout(() => void setup(), SETUP_RETRY_MS);
      setupTimer.unref();
    }
  }

  return {
    bot,
    outbox,
    verifySecret: webhookSecretCheck(config.webhookSecret),
    async handleUpdate(update) {
      // Telegram sends an update again when it thinks the first try failed, to whichever instance
      // answers. An update counts as handled only once its handler finished: one that failed (the
      // database dropped, getMe failed) is let go and thrown, so Telegram's retry handles it; one whose
      // process died is taken again when its lease has run out. Handlers are idempotent where it counts
      // (a payment is recorded once by its charge id).
      const id = update.update_id;
      const taken = await takeUpdate(database.db, id, new Date(), updateLeaseMs, UPDATE_ATTEMPTS);
      if (taken.status !== 'take') return taken.status === 'busy' ? 'busy' : 'handled';
      try {
        await init();
        await bot.handleUpdate(update);
      } catch (err) {
        // Telegram itself refused a call of the handler (the user blocked the bot, a message gone):
        // sending the update again would meet the same answer.
        const refusedByTelegram = err instanceof BotError && err.error instanceof GrammyError;
        if (!refusedByTelegram && taken.attempt < UPDATE_ATTEMPTS) {
          log.error({ err, update_id: id, attempt: taken.attempt }, 'telegram: update failed, Telegram will retry it');
          await releaseUpdate(database.db, id, nowIso());
          throw err;
        }
        if (err instanceof BotError) await bot.errorHandler(err);
        else log.error({ err, update_id: id }, 'telegram: update not handled, given up');
        // A charge must not vanish silently: staff are told to record it by hand.
        const charge = paymentReportOf(update.message);
        if (charge)
          await alertChargeNotRecorded(database, charge).catch((e: unknown) =>
            log.error({ err: e, update_id: id }, 'telegram: a charge not recorded could not be told to staff'),
          );
      }
      await markUpdateHandled(database.db, id, nowIso());
      return 'handled';
    },
    async username() {
      await init();
      return bot.botInfo.username;
    },
    async createInvoiceLink({ title, description, payload, currency, prices, provider_token }) {
      // Bounded: a customer waits for the answer (and a certificate's transaction holds it).
      const signal = AbortSignal.timeout(INVOICE_TIMEOUT_MS) as Parameters<typeof bot.api.createInvoiceLink>[7];
      try {
        return await bot.api.createInvoiceLink(
          title,
          description,
          payload,
          provider_token,
          currency,
          prices,
          {},
          signal,
        );
      } catch (err) {
        log.warn({ err, payload }, 'telegram: no invoice link');
        throw err;
      }
    },
    savePreparedInlineMessage: (userId, result) => bot.api.savePreparedInlineMessage(userId, result, SHARE_CHAT_TYPES),
    async start() {
      stopped = false;
      if (!https) {
        log.warn(
          { publicUrl: config.publicUrl },
          config.botMode === 'webhook'
            ? 'telegram: PUBLIC_URL is not https, so the webhook is not registered and mini-app buttons are left out; use BOT_MODE=polling for local development'
            : 'telegram: PUBLIC_URL is not https, so mini-app buttons and the menu button are left out',
        );
      }
      await setup();
      outbox.start();
    },
    async stop() {
      stopped = true;
      if (setupTimer) clearTimeout(setupTimer);
      if (bot.isRunning()) await bot.stop();
      await outbox.stop();
    },
  };
}
