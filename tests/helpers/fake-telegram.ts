import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { UserFromGetMe } from 'grammy/types';

/**
 * A fake Telegram Bot API: a real HTTP server on loopback that answers `/bot<token>/<method>`
 * like Telegram, records every call with its parameters, and can be told to answer errors
 * (429 with retry_after, 403 for a blocked user, anything else). Point TELEGRAM_API_ROOT at `url`.
 * It refuses what Telegram refuses: an unknown method (404), and parameters the Bot API reference rules
 * out (400 "Bad Request: …"), so a call that passes the tests is one Telegram takes.
 *
 * It serves several bots at once: any token is the test bot (FAKE_BOT) unless a test made it another
 * bot's (addBot, registerManagedBot); a bot's revoked or wrong token answers 401 Unauthorized, as
 * Telegram does. Managed bots (Bot API 9.6): a test registers one as Telegram would after its owner
 * created it with a request_managed_bot button, builds the `managed_bot` update (and the
 * managed_bot_created service message) for it, and the manager bot gets its token with
 * getManagedBotToken or a new one with replaceManagedBotToken.
 */

export interface ApiError {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number };
}

/** A Bot API call's parameters, as JSON (the fields the tests read are typed). */
export interface CallParams {
  chat_id?: number | string;
  text?: string;
  parse_mode?: string;
  message_id?: number;
  reply_markup?: string | { inline_keyboard?: InlineButton[][] };
  [field: string]: unknown;
}

/** One button of an inline keyboard, as sent. */
export type InlineButton = { text: string; url?: string; callback_data?: string; web_app?: { url: string } };

export interface FakeCall {
  method: string;
  token: string;
  params: CallParams;
  at: number;
  /** What the fake answered. */
  ok: boolean;
  error?: ApiError;
}

/** `unreachable`: the connection is dropped without an answer, as when Telegram cannot be reached. */
type Failure = ApiError | 'unreachable';

interface Rule {
  method: string;
  chatId?: number;
  times: number;
  error: Failure;
}

/** Who the fake bot is (getMe); buildTestApp gives the bot this identity up front. */
export const FAKE_BOT: UserFromGetMe = {
  id: 123456789,
  is_bot: true,
  first_name: 'Студия',
  username: 'studio_test_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};

/** Telegram's flood limits, as the fake enforces them when asked to (startFakeTelegram({ limits })). */
export interface FloodLimits {
  /** Messages per second over all chats (a sliding second). */
  perSecond: number;
  /** A private chat: one message per second sustained, with a burst of `privateBurst` allowed (network jitter). */
  privateBurst: number;
  /** Messages per minute in one group (negative chat id; a sliding minute). */
  groupPerMinute: number;
}

export const TELEGRAM_LIMITS: FloodLimits = { perSecond: 30, privateBurst: 2, groupPerMinute: 20 };

/** A bot the fake knows (besides FAKE_BOT): who getMe says it is, and its current token. */
export interface FakeBotHandle {
  me: UserFromGetMe;
  /** The current token (after a rotation, the new one). */
  readonly token: string;
}

/** A managed bot, as Telegram keeps it after its owner created it through a manager bot. */
export interface FakeManagedBot extends FakeBotHandle {
  owner: TgUser;
  managerToken: string;
  /** The `managed_bot` update Telegram sends the manager bot (on creation, and on a token change). */
  update(): { update_id: number; managed_bot: { user: TgUser; bot: TgBotUser } };
  /** The service message in the owner's chat with the manager bot, sent on creation with the button. */
  createdMessage(): ReturnType<typeof managedBotCreatedUpdate>;
}

export interface FakeTelegram {
  url: string;
  env: { TELEGRAM_API_ROOT: string };
  calls: FakeCall[];
  /** Successful calls of a method (optionally to one chat, optionally with one bot's token). */
  ok(method: string, chatId?: number, token?: string): FakeCall[];
  /** Every call made with this token. */
  callsOf(token: string): FakeCall[];
  /** A bot created in @BotFather: getMe with its token answers it. The token is made up unless given. */
  addBot(
    bot: { id: number; username: string; firstName?: string; canManageBots?: boolean },
    token?: string,
  ): FakeBotHandle;
  /**
   * A bot created by `owner` with the request_managed_bot button of the manager bot whose token is
   * `managerToken`, as Telegram keeps it: the manager may get its token (getManagedBotToken) and
   * replace it (replaceManagedBotToken).
   */
  registerManagedBot(opts: {
    managerToken: string;
    owner: TgUser;
    id?: number;
    username: string;
    firstName?: string;
  }): FakeManagedBot;
  /** The owner revokes the bot's token in @BotFather: a new one (answered), the old one answers 401. */
  rotateToken(botId: number): string;
  /** This token answers 401 Unauthorized from now on (revoked, or never issued). */
  revokeToken(token: string): void;
  /** Successful sendMessage calls (optionally to one chat). */
  messages(chatId?: number): FakeCall[];
  /** The next `times` calls of `method` (to `chatId`, if given) answer this error, or get no answer at all. */
  failNext(method: string, error: Failure, opts?: { chatId?: number; times?: number }): void;
  /** Every sendMessage to this chat answers 403, as when the user blocked the bot. */
  block(chatId: number): void;
  /** Delay every answer (widens race windows). */
  latencyMs: number;
  /** 429s answered because a flood limit was exceeded (limit mode only). */
  floodErrors: number;
  /** Updates handed out by getUpdates (long polling). */
  pushUpdate(update: { update_id: number }): void;
  waitFor(pred: (calls: FakeCall[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Forgets the calls, the rules, the blocked chats, the bots added and what the flood limits counted. */
  reset(): void;
  close(): Promise<void>;
}

export const TOO_MANY = (retryAfter: number): ApiError => ({
  error_code: 429,
  description: `Too Many Requests: retry after ${retryAfter}`,
  parameters: { retry_after: retryAfter },
});
export const BLOCKED: ApiError = { error_code: 403, description: 'Forbidden: bot was blocked by the user' };
/** Telegram's answer to a call with a token that is not (or no longer) a bot's. */
export const UNAUTHORIZED: ApiError = { error_code: 401, description: 'Unauthorized' };

/** A bot token as @BotFather issues them: the bot's id, a colon, 35 letters, digits, _ and -. */
export const makeBotToken = (botId: number) =>
  `${botId}:AA${crypto.randomBytes(33).toString('base64url').slice(0, 33)}`;

/** A bot's User object (as in updates), from what getMe answers. */
export type TgBotUser = { id: number; is_bot: true; first_name: string; username: string };

const botUser = (me: UserFromGetMe): TgBotUser => ({
  id: me.id,
  is_bot: true,
  first_name: me.first_name,
  username: me.username,
});

const botIdentity = (bot: { id: number; username: string; firstName?: string; canManageBots?: boolean }) => ({
  ...FAKE_BOT,
  id: bot.id,
  first_name: bot.firstName ?? bot.username,
  username: bot.username,
  can_manage_bots: bot.canManageBots ?? false,
});

/** Whether a method sends something to a chat (counted against the flood limits). */
const isSend = (method: string) => /^(send|edit|copy|forward)/.test(method);

/**
 * The flood limits: answers a 429 with retry_after (seconds) when a send exceeds one, as Telegram
 * does, or null and counts the send.
 */
function floodControl(limits: FloodLimits) {
  let global: number[] = [];
  const privateTokens = new Map<number, { tokens: number; at: number }>();
  const groups = new Map<number, number[]>();
  return (chatId: number, now: number): ApiError | null => {
    global = global.filter((t) => now - t < 1000);
    if (global.length >= limits.perSecond) return TOO_MANY(Math.max(1, Math.ceil((global[0] + 1000 - now) / 1000)));
    if (chatId < 0) {
      const sent = (groups.get(chatId) ?? []).filter((t) => now - t < 60_000);
      if (sent.length >= limits.groupPerMinute) return TOO_MANY(Math.ceil((sent[0] + 60_000 - now) / 1000));
      groups.set(chatId, [...sent, now]);
    } else {
      const b = privateTokens.get(chatId) ?? { tokens: limits.privateBurst, at: now };
      const tokens = Math.min(limits.privateBurst, b.tokens + (now - b.at) / 1000);
      if (tokens < 1) return TOO_MANY(1);
      privateTokens.set(chatId, { tokens: tokens - 1, at: now });
    }
    global.push(now);
    return null;
  };
}

/** A file uploaded with a call (multipart/form-data, as grammY sends an InputFile). */
export interface UploadedFile {
  filename: string;
  text: string;
}

/**
 * A multipart call's fields, parsed leniently as Telegram does (grammY writes `name=x` unquoted and no
 * spaces after `;`): JSON-looking values parsed, files as {filename, text}, and a field that says
 * `attach://<part>` replaced by that part's file.
 */
function multipartParams(raw: Buffer, contentType: string): CallParams {
  const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
  if (!boundary) throw new Error('no boundary');
  const fields: Record<string, string | UploadedFile> = {};
  for (const part of raw.toString('utf8').split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    const head = part.slice(0, split);
    const value = part.slice(split + 4).replace(/\r\n$/, '');
    const name = /name="?([^";\r\n]+)"?/i.exec(head.replace(/filename=[^;\r\n]*/i, ''))?.[1];
    const filename = /filename="?([^";\r\n]+)"?/i.exec(head)?.[1];
    if (name) fields[name] = filename ? { filename, text: value } : value;
  }
  const params: CallParams = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const attached = /^attach:\/\/(.+)$/.exec(value)?.[1];
    if (attached) params[key] = fields[attached];
    else if (/^[[{]/.test(value)) {
      try {
        params[key] = JSON.parse(value);
      } catch {
        params[key] = value;
      }
    } else params[key] = value;
  }
  return params;
}

/**
 * `limits`: answer 429s as Telegram does when a flood limit is exceeded; `clock`: whose time the limits
 * and the calls' `at` are in (a virtual clock shared with the outbox worker; the real one by default).
 */
export async function startFakeTelegram(
  opts: { limits?: FloodLimits; clock?: { now(): number } } = {},
): Promise<FakeTelegram> {
  let flood = opts.limits ? floodControl(opts.limits) : null;
  const now = () => opts.clock?.now() ?? Date.now();
  const calls: FakeCall[] = [];
  let rules: Rule[] = [];
  const blocked = new Set<number>();
  let messageId = 1;
  const updates: { update_id: number }[] = [];
  /** The bots added (by id): who they are, their current token, and for a managed bot its manager and owner. */
  const bots = new Map<number, { me: UserFromGetMe; token: string; managerId?: number; owner?: TgUser }>();
  /** Tokens that answer 401: revoked, or made up by a test. */
  const revoked = new Set<string>();

  const chatOf = (params: CallParams) => (params.chat_id === undefined ? undefined : Number(params.chat_id));
  const botIdOf = (token: string) => Number(token.split(':')[0]);
  /** The bot added with this (current) token, if any. */
  const botOf = (token: string) => {
    const bot = bots.get(botIdOf(token));
    return bot?.token === token ? bot : undefined;
  };
  /** A token Telegram would not take: revoked, or a known bot's id with another secret. */
  const unauthorized = (token: string) => revoked.has(token) || (bots.has(botIdOf(token)) && !botOf(token));

  function addBot(me: UserFromGetMe, token: string, managed?: { managerId: number; owner: TgUser }) {
    if (me.id === FAKE_BOT.id) throw new Error('fake Telegram: FAKE_BOT is every unknown token already');
    if (botIdOf(token) !== me.id) throw new Error(`fake Telegram: a token of bot ${me.id} starts with "${me.id}:"`);
    bots.set(me.id, { me, token, ...managed });
  }

  /** A new token for the bot; the old one answers 401 from now on. */
  function rotate(botId: number): string {
    const bot = bots.get(botId);
    if (!bot) throw new Error(`fake Telegram: no bot ${botId}`);
    revoked.add(bot.token);
    bot.token = makeBotToken(botId);
    return bot.token;
  }

  /** getManagedBotToken / replaceManagedBotToken: a user_id that is a bot this bot manages. */
  function managedBotError(method: string, params: CallParams, token: string): ApiError | undefined {
    if (method !== 'getManagedBotToken' && method !== 'replaceManagedBotToken') return undefined;
    const bot = bots.get(Number(params.user_id));
    // As MTProto's bots.exportBotToken, which these methods stand on, answers for a bot that is not the caller's.
    return bot?.managerId === botIdOf(token) ? undefined : bad('BOT_INVALID');
  }

  function result(method: string, params: CallParams, token: string): unknown {
    const chat = { id: chatOf(params) ?? 0, type: 'private', first_name: 'Анна' };
    const date = Math.floor(Date.now() / 1000);
    const me = botOf(token)?.me ?? FAKE_BOT;
    switch (method) {
      case 'getMe':
        return me;
      case 'getManagedBotToken':
        return bots.get(Number(params.user_id))?.token;
      case 'replaceManagedBotToken':
        return rotate(Number(params.user_id));
      case 'sendMessage':
        return {
          message_id: messageId++,
          date,
          chat,
          from: me,
          text: params.text,
          reply_markup: params.reply_markup,
          // Sent for a business account: Telegram says which connection, and that a bot sent it.
          ...(params.business_connection_id !== undefined && {
            business_connection_id: params.business_connection_id,
            sender_business_bot: me,
          }),
        };
      case 'sendDocument': {
        const doc = params.document as UploadedFile | string | undefined;
        return {
          message_id: messageId++,
          date,
          chat,
          from: me,
          caption: params.caption,
          document: {
            file_id: `doc${messageId}`,
            file_unique_id: `udoc${messageId}`,
            file_name: typeof doc === 'object' ? doc.filename : undefined,
          },
        };
      }
      case 'sendPhoto':
        // A Message with the photo's sizes, as Telegram answers (the bot reads nothing of it but its id).
        return {
          message_id: messageId++,
          date,
          chat,
          from: me,
          caption: params.caption,
          photo: [{ file_id: `photo${messageId}`, file_unique_id: `uphoto${messageId}`, width: 320, height: 320 }],
        };
      case 'editMessageText':
        return {
          message_id: Number(params.message_id ?? messageId++),
          date,
          edit_date: date,
          chat,
          from: me,
          text: params.text,
        };
      case 'getUpdates':
        return updates.filter((u) => u.update_id >= Number(params.offset ?? 0)).slice(0, Number(params.limit ?? 100));
      case 'getWebhookInfo':
        return { url: '', has_custom_certificate: false, pending_update_count: 0 };
      case 'createInvoiceLink':
        return `https://t.me/$invoice-${messageId++}`;
      case 'savePreparedInlineMessage':
        return { id: `prepared-${messageId++}`, expiration_date: date + PREPARED_MESSAGE_TTL_S };
      case 'sendInvoice':
        return {
          message_id: messageId++,
          date,
          chat,
          from: me,
          invoice: {
            title: params.title,
            description: params.description,
            start_parameter: '',
            currency: params.currency,
            total_amount: invoiceTotal(params),
          },
        };
      default:
        return true;
    }
  }

  /** A bot added, with its token read when asked (it changes with a rotation). */
  const handleOf = (id: number): FakeBotHandle => {
    const bot = bots.get(id)!;
    return {
      me: bot.me,
      get token() {
        return bots.get(id)?.token ?? bot.token;
      },
    };
  };

  const fake: FakeTelegram = {
    url: '',
    env: { TELEGRAM_API_ROOT: '' },
    calls,
    latencyMs: 0,
    floodErrors: 0,
    ok: (method, chatId, token) =>
      calls.filter(
        (c) =>
          c.ok &&
          c.method === method &&
          (chatId === undefined || chatOf(c.params) === chatId) &&
          (token === undefined || c.token === token),
      ),
    callsOf: (token) => calls.filter((c) => c.token === token),
    addBot(bot, token = makeBotToken(bot.id)) {
      addBot(botIdentity(bot), token);
      return handleOf(bot.id);
    },
    registerManagedBot({ managerToken, owner, id = nextManagedBotId++, username, firstName }) {
      addBot(botIdentity({ id, username, firstName }), makeBotToken(id), { managerId: botIdOf(managerToken), owner });
      const h = handleOf(id);
      return {
        ...h,
        get token() {
          return h.token;
        },
        owner,
        managerToken,
        update: () => managedBotUpdate(owner, botUser(h.me)),
        createdMessage: () => managedBotCreatedUpdate(owner, botUser(h.me)),
      };
    },
    rotateToken: rotate,
    revokeToken(token) {
      revoked.add(token);
    },
    messages: (chatId) => fake.ok('sendMessage', chatId),
    failNext(method, error, opts = {}) {
      rules.push({ method, chatId: opts.chatId, times: opts.times ?? 1, error });
    },
    block(chatId) {
      blocked.add(chatId);
    },
    pushUpdate(update) {
      updates.push(update);
    },
    async waitFor(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(calls)) {
        if (Date.now() > deadline)
          throw new Error(
            `fake Telegram: condition not met in ${timeoutMs} ms; calls: ${calls.map((c) => c.method).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    reset() {
      calls.length = 0;
      if (opts.limits) flood = floodControl(opts.limits);
      rules = [];
      blocked.clear();
      updates.length = 0;
      bots.clear();
      revoked.clear();
      fake.latencyMs = 0;
      fake.floodErrors = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server = http.createServer((req, res) => {
    // A request the client gave up on (an aborted long poll) is not a call anyone made.
    let abandoned = false;
    res.on('close', () => {
      if (!res.writableFinished) abandoned = true;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handle());
    async function handle() {
      // Telegram counts a message against its limits when it arrives, whatever the answer's latency.
      const receivedAt = now();
      const m = /^\/bot([^/]+)\/(\w+)/.exec(req.url ?? '');
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (!m) return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token, method] = m;
      let params: CallParams = {};
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      const type = req.headers['content-type'] ?? '';
      try {
        if (type.includes('multipart/form-data')) params = multipartParams(raw, type);
        else if (body)
          params = type.includes('json') ? JSON.parse(body) : Object.fromEntries(new URLSearchParams(body));
      } catch {
        return answer(400, { ok: false, error_code: 400, description: 'Bad Request: cannot parse body' });
      }
      if (fake.latencyMs > 0) await new Promise((r) => setTimeout(r, fake.latencyMs));
      // Long polling: hold an empty getUpdates a little instead of answering in a tight loop.
      if (method === 'getUpdates' && Number(params.timeout ?? 0) > 0) {
        for (let i = 0; i < 10 && !updates.some((u) => u.update_id >= Number(params.offset ?? 0)); i++)
          await new Promise((r) => setTimeout(r, 20));
      }
      if (abandoned) return;
      const chatId = chatOf(params);
      let error: ApiError | undefined;
      if (unauthorized(token)) {
        calls.push({ method, token, params, at: receivedAt, ok: false, error: UNAUTHORIZED });
        return answer(401, { ok: false, ...UNAUTHORIZED });
      }
      const rule = rules.find(
        (r) => r.method === method && r.times > 0 && (r.chatId === undefined || r.chatId === chatId),
      );
      if (rule?.error === 'unreachable') {
        rule.times--;
        calls.push({ method, token, params, at: receivedAt, ok: false });
        res.socket?.destroy();
        return;
      }
      if (rule) {
        rule.times--;
        error = rule.error;
      } else if ((error = botApiCallError(method, params))) {
        // A call Telegram would refuse: an unknown method, or parameters its reference rules out.
      } else if ((error = paymentCallError(method, params))) {
        // A payments call Telegram would refuse.
      } else if ((error = preparedMessageCallError(method, params))) {
        // A prepared message Telegram would refuse.
      } else if ((error = businessCallError(method, params))) {
        // A send for a business account Telegram would refuse.
      } else if ((error = managedBotError(method, params, token))) {
        // A managed bot's token asked by a bot that does not manage it.
      } else if (method === 'sendMessage' && chatId !== undefined && blocked.has(chatId)) {
        error = BLOCKED;
      } else if (flood && chatId !== undefined && isSend(method)) {
        error = flood(chatId, receivedAt) ?? undefined;
        if (error) fake.floodErrors++;
      }
      calls.push({ method, token, params, at: receivedAt, ok: !error, error });
      if (error) return answer(error.error_code, { ok: false, ...error });
      return answer(200, { ok: true, result: result(method, params, token) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.env.TELEGRAM_API_ROOT = fake.url;
  return fake;
}

/* ---------- every other call the product makes, checked as the Bot API reference states it ---------- */

/**
 * The Bot API methods the fake answers: the ones the product calls (grammY's polling included) and the
 * payments ones above. Any other name is answered 404 "Not Found", as Telegram answers a method it lacks.
 */
export const KNOWN_METHODS = new Set([
  'getMe',
  'getUpdates',
  'setWebhook',
  'deleteWebhook',
  'getWebhookInfo',
  'setMyCommands',
  'setChatMenuButton',
  'setMyDescription',
  'setMyShortDescription',
  'getManagedBotToken',
  'replaceManagedBotToken',
  'sendMessage',
  'deleteMessage',
  'editMessageText',
  'editMessageReplyMarkup',
  'answerCallbackQuery',
  'sendChatAction',
  'sendDocument',
  'sendPhoto',
  'sendVenue',
  'sendLocation',
  'sendInvoice',
  'createInvoiceLink',
  'answerPreCheckoutQuery',
  'savePreparedInlineMessage',
]);

export const NOT_FOUND: ApiError = { error_code: 404, description: 'Not Found' };

/** The update types a bot may ask for (allowed_updates), as the Update object lists them. */
const UPDATE_TYPES = new Set([
  'message',
  'edited_message',
  'channel_post',
  'edited_channel_post',
  'business_connection',
  'business_message',
  'edited_business_message',
  'deleted_business_messages',
  'message_reaction',
  'message_reaction_count',
  'inline_query',
  'chosen_inline_result',
  'callback_query',
  'shipping_query',
  'pre_checkout_query',
  'purchased_paid_media',
  'poll',
  'poll_answer',
  'my_chat_member',
  'chat_member',
  'chat_join_request',
  'chat_boost',
  'removed_chat_boost',
  'guest_message',
  'managed_bot',
]);

const CHAT_ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);

/** The HTML tags Telegram's HTML parse mode supports; any other start tag is refused. */
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'tg-emoji',
  'tg-time',
  'code',
  'pre',
  'blockquote',
]);

/** The fields of an InlineKeyboardButton that say what it does: a button has exactly one of them. */
const INLINE_ACTIONS = [
  'url',
  'callback_data',
  'web_app',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'copy_text',
  'callback_game',
  'pay',
] as const;

/** The optional fields of a KeyboardButton (a reply keyboard's): at most one of them. */
const REPLY_BUTTON_ACTIONS = [
  'request_users',
  'request_chat',
  'request_contact',
  'request_location',
  'request_poll',
  'request_managed_bot',
  'web_app',
] as const;

const BOT_COMMAND_SCOPES = new Set([
  'default',
  'all_private_chats',
  'all_group_chats',
  'all_chat_administrators',
  'chat',
  'chat_administrators',
  'chat_member',
]);

const isInteger = (v: unknown) =>
  (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v));
const isNumber = (v: unknown) =>
  (typeof v === 'number' && Number.isFinite(v)) ||
  (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
const isBoolean = (v: unknown) => typeof v === 'boolean' || v === 'true' || v === 'false';
/** Integer, or a channel's @username. */
const isChatId = (v: unknown) => isInteger(v) || (typeof v === 'string' && /^@\w{4,}$/.test(v));
const length = (s: string) => [...s].length;
const isHttpsUrl = (v: unknown) => typeof v === 'string' && /^https:\/\/[^\s/]+\S*$/.test(v);
const cantParse = (what: string) => bad(`can't parse entities: ${what}`);
const byteOffset = (text: string, i: number) => Buffer.byteLength(text.slice(0, i));

/** The text a person sees of an HTML-formatted text, or Telegram's error for HTML it cannot parse. */
export function parseTelegramHtml(html: string): { text: string } | { error: ApiError } {
  const open: string[] = [];
  let text = '';
  let i = 0;
  while (i < html.length) {
    const c = html[i];
    if (c === '&') {
      const entity = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.exec(html.slice(i));
      if (!entity) return { error: cantParse(`unescaped "&" at byte offset ${byteOffset(html, i)}`) };
      const name = entity[1].toLowerCase();
      text +=
        name === 'lt'
          ? '<'
          : name === 'gt'
            ? '>'
            : name === 'amp'
              ? '&'
              : name === 'quot'
                ? '"'
                : String.fromCodePoint(name.startsWith('#x') ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
      i += entity[0].length;
    } else if (c === '>') {
      return { error: cantParse(`unescaped ">" at byte offset ${byteOffset(html, i)}`) };
    } else if (c === '<') {
      const end = html.indexOf('>', i);
      if (end < 0) return { error: cantParse(`Unclosed start tag at byte offset ${byteOffset(html, i)}`) };
      const tag = html.slice(i + 1, end);
      if (tag.startsWith('/')) {
        const name = tag.slice(1).trim().toLowerCase();
        const expected = open.pop();
        if (expected === undefined)
          return { error: cantParse(`Unexpected end tag at byte offset ${byteOffset(html, i)}`) };
        if (name !== expected)
          return {
            error: cantParse(
              `Unmatched end tag at byte offset ${byteOffset(html, i)}, expected "</${expected}>", found "</${name}>"`,
            ),
          };
      } else {
        const m = /^([a-zA-Z][\w-]*)((?:\s+[\w-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*$/.exec(tag);
        const name = m?.[1].toLowerCase();
        if (!m || !name || !HTML_TAGS.has(name))
          return {
            error: cantParse(`Unsupported start tag "${tag.split(/\s/)[0]}" at byte offset ${byteOffset(html, i)}`),
          };
        const attributes = m[2];
        if (name === 'span' && !/\bclass\s*=\s*("tg-spoiler"|'tg-spoiler'|tg-spoiler)/.test(attributes))
          return { error: cantParse(`Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(html, i)}`) };
        if (name === 'tg-emoji' && !/\bemoji-id\s*=/.test(attributes))
          return { error: cantParse(`Custom emoji entity must contain a custom emoji identifier`) };
        open.push(name);
      }
      i = end + 1;
    } else {
      text += c;
      i++;
    }
  }
  if (open.length > 0)
    return { error: cantParse(`Can't find end tag corresponding to start tag "${open[open.length - 1]}"`) };
  return { text };
}

/**
 * A text or caption with its parse_mode: the parse mode known, HTML that parses, and the visible text
 * (after entity parsing, without surrounding whitespace, as Telegram counts it) within `max` characters.
 */
function formattedTextError(
  value: unknown,
  parseMode: unknown,
  opts: { max: number; required: boolean; empty: string; tooLong: string },
): ApiError | undefined {
  if (value === undefined && !opts.required) return undefined;
  if (typeof value !== 'string') return bad(opts.empty);
  if (parseMode !== undefined && parseMode !== '' && !['HTML', 'MarkdownV2', 'Markdown'].includes(String(parseMode)))
    return bad('unsupported parse_mode');
  let visible = value;
  if (parseMode === 'HTML') {
    const parsed = parseTelegramHtml(value);
    if ('error' in parsed) return parsed.error;
    visible = parsed.text;
  } else if (parseMode === 'MarkdownV2' || parseMode === 'Markdown') {
    visible = value.replace(/\\(.)/g, '$1');
  }
  visible = visible.trim();
  if (opts.required && visible.length === 0) return bad(opts.empty);
  if (length(visible) > opts.max) return bad(opts.tooLong);
  return undefined;
}

/** An InlineKeyboardMarkup's problem: rows of buttons that each have text and exactly one valid action. */
function inlineKeyboardError(markup: unknown, opts: { webApp: boolean }): ApiError | undefined {
  const rows = (markup as { inline_keyboard?: unknown } | undefined)?.inline_keyboard;
  if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row)))
    return bad('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
  for (const b of rows.flat() as Record<string, unknown>[]) {
    if (!b || typeof b !== 'object')
      return bad("can't parse inline keyboard button: InlineKeyboardButton must be an Object");
    if (typeof b.text !== 'string')
      return bad('can\'t parse inline keyboard button: Field "text" must be of type String');
    if (b.text.trim() === '') return bad('BUTTON_TEXT_INVALID');
    const actions = INLINE_ACTIONS.filter((a) => b[a] !== undefined);
    if (actions.length === 0)
      return bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
    if (actions.length > 1) return bad("can't parse inline keyboard button: a button must have exactly one action");
    if (b.callback_data !== undefined) {
      const bytes = typeof b.callback_data === 'string' ? Buffer.byteLength(b.callback_data) : 0;
      if (bytes < 1 || bytes > 64) return bad('BUTTON_DATA_INVALID');
    }
    if (b.url !== undefined && !(typeof b.url === 'string' && /^(https?|tg):\/\/\S+$/.test(b.url)))
      return bad('BUTTON_URL_INVALID');
    if (b.web_app !== undefined) {
      // Web app buttons only in the bot's private chats, never where the web app cannot open.
      if (!opts.webApp) return bad('BUTTON_TYPE_INVALID');
      if (!isHttpsUrl((b.web_app as { url?: unknown } | null)?.url)) return bad('BUTTON_URL_INVALID');
    }
  }
  return undefined;
}

/** A ReplyKeyboardMarkup's problem: rows of buttons with text and at most one request or web app. */
function replyKeyboardError(markup: { keyboard?: unknown }, opts: { webApp: boolean }): ApiError | undefined {
  const rows = markup.keyboard;
  if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row)))
    return bad('field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays');
  if (rows.flat().length === 0) return bad('keyboard must be non-empty');
  for (const b of rows.flat() as unknown[]) {
    if (typeof b === 'string') {
      if (b.trim() === '') return bad('BUTTON_TEXT_INVALID');
      continue;
    }
    const button = b as Record<string, unknown> | null;
    if (!button || typeof button.text !== 'string' || button.text.trim() === '')
      return bad('can\'t parse keyboard button: Field "text" must be of type String');
    if (REPLY_BUTTON_ACTIONS.filter((a) => button[a] !== undefined).length > 1)
      return bad("can't parse keyboard button: a button can have at most one optional field");
    if (button.web_app !== undefined) {
      if (!opts.webApp) return bad('BUTTON_TYPE_INVALID');
      if (!isHttpsUrl((button.web_app as { url?: unknown } | null)?.url)) return bad('BUTTON_URL_INVALID');
    }
    if (button.request_managed_bot !== undefined) {
      // KeyboardButtonRequestManagedBot: private chats only; a signed 32-bit request_id unique in the message.
      if (!opts.webApp) return bad('BUTTON_TYPE_INVALID');
      const request = button.request_managed_bot as Record<string, unknown> | null;
      if (!request || typeof request !== 'object' || !isInteger(request.request_id))
        return bad('can\'t parse keyboard button: Field "request_id" must be of type Integer');
      const id = Number(request.request_id);
      if (id < -(2 ** 31) || id >= 2 ** 31) return bad('BUTTON_ID_INVALID');
      for (const field of ['suggested_name', 'suggested_username'])
        if (request[field] !== undefined && typeof request[field] !== 'string')
          return bad(`can't parse keyboard button: Field "${field}" must be of type String`);
    }
  }
  const requestIds = (rows.flat() as Record<string, { request_id?: unknown } | undefined>[])
    .flatMap((b) =>
      typeof b === 'object' ? ['request_users', 'request_chat', 'request_managed_bot'].map((f) => b[f]) : [],
    )
    .filter((r) => r !== undefined)
    .map((r) => Number(r.request_id));
  if (new Set(requestIds).size !== requestIds.length) return bad('BUTTON_ID_INVALID');
  for (const flag of ['is_persistent', 'resize_keyboard', 'one_time_keyboard', 'selective'])
    if (markup[flag as keyof typeof markup] !== undefined && !isBoolean(markup[flag as keyof typeof markup]))
      return bad(`field "${flag}" must be of type Boolean`);
  return undefined;
}

/**
 * A reply_markup's problem: an inline keyboard, a reply keyboard, a keyboard removal or a forced reply
 * (only an inline keyboard where `inlineOnly`). Web app buttons open only in the bot's private chats
 * (a positive chat id).
 */
function replyMarkupError(raw: unknown, chatId: unknown, opts: { inlineOnly?: boolean } = {}): ApiError | undefined {
  if (raw === undefined) return undefined;
  let markup: Record<string, unknown>;
  try {
    markup = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
  } catch {
    return bad("can't parse reply keyboard markup JSON object");
  }
  if (!markup || typeof markup !== 'object' || Array.isArray(markup))
    return bad("can't parse reply keyboard markup JSON object");
  const webApp = isInteger(chatId) && Number(chatId) > 0;
  if (markup.inline_keyboard !== undefined) return inlineKeyboardError(markup, { webApp });
  if (opts.inlineOnly) return bad('inline keyboard expected');
  if (markup.keyboard !== undefined) return replyKeyboardError(markup, { webApp });
  if (markup.remove_keyboard !== undefined)
    return markup.remove_keyboard === true ? undefined : bad('field "remove_keyboard" must be True');
  if (markup.force_reply !== undefined)
    return markup.force_reply === true ? undefined : bad('field "force_reply" must be True');
  return bad("can't parse reply keyboard markup JSON object");
}

const chatIdError = (params: CallParams) =>
  params.chat_id === undefined || params.chat_id === ''
    ? bad('chat_id is empty')
    : !isChatId(params.chat_id)
      ? bad('chat not found')
      : undefined;

/** Which message an edit is of: chat_id and message_id, or inline_message_id. */
const editTargetError = (params: CallParams) =>
  params.inline_message_id !== undefined
    ? undefined
    : (chatIdError(params) ?? (isInteger(params.message_id) ? undefined : bad('message identifier is not specified')));

const MESSAGE_TEXT = { max: 4096, required: true, empty: 'message text is empty', tooLong: 'message is too long' };
const CAPTION = {
  max: 1024,
  required: false,
  empty: 'caption must be a String',
  tooLong: 'message caption is too long',
};

function allowedUpdatesError(raw: unknown): ApiError | undefined {
  if (raw === undefined) return undefined;
  const list = param<unknown>(raw);
  if (!Array.isArray(list)) return bad('allowed_updates must be an Array of Strings');
  const unknown = list.find((u) => typeof u !== 'string' || !UPDATE_TYPES.has(u));
  return unknown === undefined ? undefined : bad(`unsupported update type "${String(unknown)}" in allowed_updates`);
}

function botCommandScopeError(raw: unknown): ApiError | undefined {
  if (raw === undefined) return undefined;
  const scope = param<Record<string, unknown> | null>(raw);
  if (!scope || typeof scope !== 'object' || !BOT_COMMAND_SCOPES.has(String(scope.type)))
    return bad("can't parse BotCommandScope: unsupported type");
  if (['chat', 'chat_administrators', 'chat_member'].includes(String(scope.type)) && !isChatId(scope.chat_id))
    return bad('chat not found');
  if (scope.type === 'chat_member' && !isInteger(scope.user_id)) return bad('USER_ID_INVALID');
  return undefined;
}

/** The parameters of a call Telegram would refuse (400), or an unknown method (404). */
export function botApiCallError(method: string, params: CallParams): ApiError | undefined {
  if (!KNOWN_METHODS.has(method)) return NOT_FOUND;
  switch (method) {
    case 'sendMessage':
      return (
        chatIdError(params) ??
        formattedTextError(params.text, params.parse_mode, MESSAGE_TEXT) ??
        replyMarkupError(params.reply_markup, params.chat_id)
      );
    case 'editMessageText':
      return (
        editTargetError(params) ??
        formattedTextError(params.text, params.parse_mode, MESSAGE_TEXT) ??
        replyMarkupError(params.reply_markup, params.chat_id ?? 1, { inlineOnly: true })
      );
    case 'editMessageReplyMarkup':
      return (
        editTargetError(params) ?? replyMarkupError(params.reply_markup, params.chat_id ?? 1, { inlineOnly: true })
      );
    case 'sendDocument':
    case 'sendPhoto': {
      const field = method === 'sendDocument' ? 'document' : 'photo';
      const file = params[field];
      return (
        chatIdError(params) ??
        (file === undefined || file === '' ? bad(`there is no ${field} in the request`) : undefined) ??
        formattedTextError(params.caption, params.parse_mode, CAPTION) ??
        replyMarkupError(params.reply_markup, params.chat_id)
      );
    }
    case 'sendVenue':
    case 'sendLocation': {
      const lat = Number(params.latitude);
      const lon = Number(params.longitude);
      if (chatIdError(params)) return chatIdError(params);
      if (!isNumber(params.latitude) || lat < -90 || lat > 90) return bad('wrong latitude');
      if (!isNumber(params.longitude) || lon < -180 || lon > 180) return bad('wrong longitude');
      if (method === 'sendVenue') {
        if (typeof params.title !== 'string') return bad('venue title must be a String');
        if (typeof params.address !== 'string') return bad('venue address must be a String');
      }
      const accuracy = params.horizontal_accuracy;
      if (accuracy !== undefined && (!isNumber(accuracy) || Number(accuracy) < 0 || Number(accuracy) > 1500))
        return bad('wrong horizontal accuracy');
      return replyMarkupError(params.reply_markup, params.chat_id);
    }
    case 'sendInvoice':
      // The rest of the invoice is checked with the payments calls.
      return replyMarkupError(params.reply_markup, params.chat_id, { inlineOnly: true });
    case 'sendChatAction':
      return (
        chatIdError(params) ??
        (CHAT_ACTIONS.has(String(params.action)) ? undefined : bad('wrong parameter action in request'))
      );
    case 'answerCallbackQuery': {
      if (typeof params.callback_query_id !== 'string' || !params.callback_query_id) return bad('QUERY_ID_INVALID');
      if (params.text !== undefined && (typeof params.text !== 'string' || length(params.text) > 200))
        return bad('MESSAGE_TOO_LONG');
      if (params.show_alert !== undefined && !isBoolean(params.show_alert)) return bad('show_alert must be a Boolean');
      if (params.url !== undefined && !(typeof params.url === 'string' && /^(https?|tg):\/\/\S+$/.test(params.url)))
        return bad('URL_INVALID');
      if (params.cache_time !== undefined && !isInteger(params.cache_time)) return bad('cache_time must be an Integer');
      return undefined;
    }
    case 'setMyCommands': {
      const commands = param<unknown>(params.commands);
      if (!Array.isArray(commands)) return bad('commands must be an Array of BotCommand');
      if (commands.length > 100) return bad('too many commands specified');
      for (const c of commands as Record<string, unknown>[]) {
        if (!c || typeof c.command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(c.command))
          return bad('BOT_COMMAND_INVALID');
        if (typeof c.description !== 'string' || length(c.description) < 1 || length(c.description) > 256)
          return bad('BOT_COMMAND_DESCRIPTION_INVALID');
      }
      if (
        params.language_code !== undefined &&
        params.language_code !== '' &&
        !/^[a-z]{2}$/.test(String(params.language_code))
      )
        return bad('invalid language_code specified');
      return botCommandScopeError(params.scope);
    }
    case 'setChatMenuButton': {
      if (params.chat_id !== undefined && !isInteger(params.chat_id)) return bad('chat not found');
      if (params.menu_button === undefined) return undefined;
      const button = param<Record<string, unknown> | null>(params.menu_button);
      if (!button || typeof button !== 'object') return bad("can't parse menu button JSON object");
      if (button.type === 'commands' || button.type === 'default') return undefined;
      if (button.type !== 'web_app') return bad('unsupported menu button type');
      if (typeof button.text !== 'string' || button.text.trim() === '') return bad('menu button text is empty');
      if (!isHttpsUrl((button.web_app as { url?: unknown } | null)?.url)) return bad('BUTTON_URL_INVALID');
      return undefined;
    }
    case 'setWebhook': {
      if (typeof params.url !== 'string') return bad('url must be a String');
      if (params.url !== '' && !isHttpsUrl(params.url))
        return bad('bad webhook: An HTTPS URL must be provided for webhook');
      const secret = params.secret_token;
      if (secret !== undefined && !(typeof secret === 'string' && /^[A-Za-z0-9_-]{1,256}$/.test(secret)))
        return bad('bad webhook: secret token contains unallowed characters or has a wrong length');
      const max = params.max_connections;
      if (max !== undefined && (!isInteger(max) || Number(max) < 1 || Number(max) > 100))
        return bad('bad webhook: max_connections must be between 1 and 100');
      if (params.drop_pending_updates !== undefined && !isBoolean(params.drop_pending_updates))
        return bad('drop_pending_updates must be a Boolean');
      return allowedUpdatesError(params.allowed_updates);
    }
    case 'deleteMessage':
      return (
        chatIdError(params) ?? (isInteger(params.message_id) ? undefined : bad('message identifier is not specified'))
      );
    case 'getManagedBotToken':
    case 'replaceManagedBotToken':
      return isInteger(params.user_id) && Number(params.user_id) > 0 ? undefined : bad('USER_ID_INVALID');
    case 'setMyDescription':
    case 'setMyShortDescription': {
      // The bot's description (0-512 characters) and short description (0-120); empty removes it.
      const [field, max] = method === 'setMyDescription' ? ['description', 512] : ['short_description', 120];
      const value = params[field];
      if (value !== undefined && typeof value !== 'string') return bad(`${field} must be a String`);
      if (typeof value === 'string' && length(value) > max) return bad(`${field} is too long`);
      if (
        params.language_code !== undefined &&
        params.language_code !== '' &&
        !/^[a-z]{2}$/.test(String(params.language_code))
      )
        return bad('invalid language_code specified');
      return undefined;
    }
    case 'deleteWebhook':
      return params.drop_pending_updates !== undefined && !isBoolean(params.drop_pending_updates)
        ? bad('drop_pending_updates must be a Boolean')
        : undefined;
    case 'getUpdates': {
      if (params.offset !== undefined && !isInteger(params.offset)) return bad('offset must be an Integer');
      const limit = params.limit;
      if (limit !== undefined && (!isInteger(limit) || Number(limit) < 1 || Number(limit) > 100))
        return bad('limit must be between 1 and 100');
      if (params.timeout !== undefined && (!isInteger(params.timeout) || Number(params.timeout) < 0))
        return bad('timeout must be a non-negative Integer');
      return allowedUpdatesError(params.allowed_updates);
    }
    default:
      return undefined;
  }
}

/* ---------- payments, checked as the Bot API reference states them ---------- */

const param = <T>(v: unknown): T => (typeof v === 'string' && /^[[{]/.test(v) ? JSON.parse(v) : v) as T;
const invoiceTotal = (params: CallParams) =>
  param<{ amount: number }[]>(params.prices).reduce((sum, p) => sum + p.amount, 0);
const bad = (description: string): ApiError => ({ error_code: 400, description: `Bad Request: ${description}` });

/** createInvoiceLink / sendInvoice / answerPreCheckoutQuery parameters Telegram would refuse, if any. */
function paymentCallError(method: string, params: CallParams): ApiError | undefined {
  if (method === 'createInvoiceLink' || method === 'sendInvoice') {
    const title = String(params.title ?? '');
    const description = String(params.description ?? '');
    const payload = String(params.payload ?? '');
    if ([...title].length < 1 || [...title].length > 32) return bad('invalid invoice title');
    if ([...description].length < 1 || [...description].length > 255) return bad('invalid invoice description');
    if (Buffer.byteLength(payload) < 1 || Buffer.byteLength(payload) > 128) return bad('invalid invoice payload');
    if (!/^[A-Z]{3}$/.test(String(params.currency ?? ''))) return bad('invalid currency');
    if (params.provider_token === undefined) return bad('PAYMENT_PROVIDER_INVALID');
    const prices = param<{ label?: string; amount?: unknown }[] | undefined>(params.prices);
    if (!Array.isArray(prices) || prices.length === 0) return bad('prices must be non-empty');
    if (prices.some((p) => !p.label || !Number.isInteger(p.amount))) return bad('invalid price');
    // Telegram's limits for one payment (currencies.json), here for the dinar only, in para.
    const total = invoiceTotal(params);
    if (params.currency === 'RSD' && (total < 10_391 || total > 103_910_127))
      return bad('CURRENCY_TOTAL_AMOUNT_INVALID');
    if (method === 'sendInvoice' && params.chat_id === undefined) return bad('chat not found');
  }
  if (method === 'answerPreCheckoutQuery') {
    if (!params.pre_checkout_query_id) return bad('query id is empty');
    const ok = params.ok === true || params.ok === 'true';
    if (!ok && !params.error_message) return bad('error_message required when ok is false');
  }
  return undefined;
}

/* ---------- prepared inline messages (a mini-app's shareMessage), checked as the Bot API reference states them ---------- */

/** How long the fake keeps a prepared message usable. */
export const PREPARED_MESSAGE_TTL_S = 24 * 3600;

const ALLOW_FLAGS = ['allow_user_chats', 'allow_bot_chats', 'allow_group_chats', 'allow_channel_chats'] as const;

/** savePreparedInlineMessage parameters Telegram would refuse: user_id, result (an InlineQueryResultArticle), the chat types. */
function preparedMessageCallError(method: string, params: CallParams): ApiError | undefined {
  if (method !== 'savePreparedInlineMessage') return undefined;
  const userId = Number(params.user_id);
  if (!Number.isSafeInteger(userId) || userId <= 0) return bad('USER_ID_INVALID');
  const r = param<Record<string, unknown> | undefined>(params.result);
  if (!r || typeof r !== 'object') return bad('result must be an InlineQueryResult');
  if (r.type !== 'article') return bad(`unsupported inline query result type "${String(r.type)}"`);
  const id = String(r.id ?? '');
  if (Buffer.byteLength(id) < 1 || Buffer.byteLength(id) > 64) return bad('RESULT_ID_INVALID');
  if (typeof r.title !== 'string' || !r.title) return bad('title of the article is empty');
  const content = r.input_message_content as { message_text?: unknown } | undefined;
  const text = typeof content?.message_text === 'string' ? content.message_text : '';
  if ([...text].length < 1 || [...text].length > 4096) return bad('MESSAGE_EMPTY or MESSAGE_TOO_LONG');
  if (r.reply_markup !== undefined) {
    // A message sent through an inline query cannot carry a web app button: only a link opens the mini-app.
    const problem = inlineKeyboardError(r.reply_markup, { webApp: false });
    if (problem) return problem;
  }
  for (const flag of ALLOW_FLAGS)
    if (
      params[flag] !== undefined &&
      typeof params[flag] !== 'boolean' &&
      params[flag] !== 'true' &&
      params[flag] !== 'false'
    )
      return bad(`${flag} must be a boolean`);
  // With no chat type allowed the message could be sent nowhere.
  if (!ALLOW_FLAGS.some((f) => params[f] === true || params[f] === 'true')) return bad('PEER_TYPES_INVALID');
  return undefined;
}

/* ---------- Telegram Business ---------- */

/** The business connections the fake knows as enabled with the right to reply (tests say which). */
export const businessConnections = new Set<string>();

/**
 * A send with business_connection_id: the connection must exist and may reply, and the message may not
 * carry web-app buttons (Telegram refuses those for business accounts).
 */
function businessCallError(method: string, params: CallParams): ApiError | undefined {
  if (params.business_connection_id === undefined) return undefined;
  if (!isSend(method) && method !== 'sendChatAction') return bad('business_connection_id is not supported here');
  if (!businessConnections.has(String(params.business_connection_id))) return bad('BUSINESS_CONNECTION_INVALID');
  const markup = param<{ inline_keyboard?: { web_app?: unknown }[][] } | undefined>(params.reply_markup);
  if (markup?.inline_keyboard?.some((row) => row.some((b) => b.web_app !== undefined)))
    return bad('BUTTON_TYPE_INVALID');
  return undefined;
}

/** Telegram's update when a business account connects the bot, changes its rights, or disconnects it. */
export function businessConnectionUpdate(id: string, owner: TgUser, opts: { canReply: boolean; enabled: boolean }) {
  if (opts.enabled && opts.canReply) businessConnections.add(id);
  else businessConnections.delete(id);
  return {
    update_id: nextUpdateId++,
    business_connection: {
      id,
      user: owner,
      user_chat_id: owner.id,
      date: Math.floor(Date.now() / 1000),
      rights: { can_reply: opts.canReply, can_read_messages: true },
      is_enabled: opts.enabled,
    },
  };
}

/** A message in a chat of the business account: `from` is the customer, or the owner writing to them. */
export function businessMessageUpdate(connectionId: string, chatWith: TgUser, from: TgUser, text: string) {
  return {
    update_id: nextUpdateId++,
    business_message: {
      message_id: nextMessageId++,
      business_connection_id: connectionId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatWith.id, type: 'private', first_name: chatWith.first_name },
      from,
      text,
    },
  };
}

/* ---------- updates, as Telegram would post them to the webhook ---------- */

let nextUpdateId = 1;
let nextMessageId = 10_000;
let nextManagedBotId = 7_000_000_001;

export interface TgUser {
  id: number;
  is_bot: false;
  first_name: string;
  username?: string;
  language_code?: string;
}

export const tgUser = (id: number, username?: string): TgUser => ({
  id,
  is_bot: false,
  first_name: 'Анна',
  ...(username && { username }),
});

/** A private text message; a leading /command gets its bot_command entity. */
export function textUpdate(from: TgUser, text: string) {
  const command = /^\/\w+/.exec(text);
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: {
        id: from.id,
        type: 'private',
        first_name: from.first_name,
        ...(from.username && { username: from.username }),
      },
      from,
      text,
      ...(command && { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] }),
    },
  };
}

/** A press on an inline button with this callback data, under the bot message `messageId`. */
export function callbackUpdate(from: TgUser, data: string, messageId = 1) {
  return {
    update_id: nextUpdateId++,
    callback_query: {
      id: String(nextUpdateId * 7),
      from,
      chat_instance: `ci${from.id}`,
      data,
      message: {
        message_id: messageId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: from.id, type: 'private', first_name: from.first_name },
        from: FAKE_BOT,
        text: '…',
      },
    },
  };
}

/** Telegram's last check before it charges the customer for an invoice (`total_amount` in minor units). */
export function preCheckoutUpdate(from: TgUser, payload: string, totalAmount: number, currency = 'RSD') {
  return {
    update_id: nextUpdateId++,
    pre_checkout_query: {
      id: `pcq${nextUpdateId}`,
      from,
      currency,
      total_amount: totalAmount,
      invoice_payload: payload,
    },
  };
}

/** The service message of a payment made, as Telegram delivers it once charged. */
export function successfulPaymentUpdate(from: TgUser, payload: string, totalAmount: number, chargeId: string) {
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: 'private', first_name: from.first_name },
      from,
      successful_payment: {
        currency: 'RSD',
        total_amount: totalAmount,
        invoice_payload: payload,
        telegram_payment_charge_id: chargeId,
        provider_payment_charge_id: `prov-${chargeId}`,
      },
    },
  };
}

/**
 * Telegram's `managed_bot` update (ManagedBotUpdated): a bot managed by the receiving bot was created,
 * or its token or owner changed. `user` created the bot; its token is fetched with getManagedBotToken.
 */
export function managedBotUpdate(owner: TgUser, bot: TgBotUser) {
  return { update_id: nextUpdateId++, managed_bot: { user: owner, bot } };
}

/**
 * The service message (Message.managed_bot_created, ManagedBotCreated) the manager bot gets in the
 * owner's chat when the owner created the bot with its request_managed_bot button.
 */
export function managedBotCreatedUpdate(owner: TgUser, bot: TgBotUser) {
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: owner.id, type: 'private', first_name: owner.first_name },
      from: owner,
      managed_bot_created: { bot },
    },
  };
}

/** Posts an update to the webhook, with the secret header unless told otherwise. */
export function postUpdate(app: FastifyInstance, secret: string | null, update: unknown) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/telegram/webhook',
    headers: secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret },
    payload: update as object,
  });
}

/**
 * Posts an update as Telegram delivers it: again while the webhook answers 503 (another request is
 * handling a copy of it); the final status.
 */
export async function deliverUpdate(app: FastifyInstance, secret: string, update: unknown): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const { statusCode } = await postUpdate(app, secret, update);
    if (statusCode !== 503) return statusCode;
    await new Promise((r) => setTimeout(r, 20));
  }
  return 503;
}

/** The inline keyboard of a recorded sendMessage/editMessageText, as [[{text, …}]]. */
export const keyboardOf = (call: FakeCall): InlineButton[][] => {
  const rm = (
    typeof call.params.reply_markup === 'string' ? JSON.parse(call.params.reply_markup) : call.params.reply_markup
  ) as { inline_keyboard?: InlineButton[][] } | undefined;
  return rm?.inline_keyboard ?? [];
};

/** Telegram shows the text without its HTML tags. */
export const plain = (html: string | undefined) => {
  if (html === undefined) throw new Error('the call has no text');
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
};
