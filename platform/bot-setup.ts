import { profileCalls } from '../bot/profile-calls';

/*
 * A studio's bot set up by the platform, with plain Bot API calls (no grammY Bot per studio here):
 * its webhook, the studio bot's commands and menu button (the ones bot/runtime.ts sets for the single
 * studio), and its description from the studio's name.
 */

const TIMEOUT_MS = 10_000;
/** Telegram's limits: the description ("What can this bot do?") 0-512 characters, the short one (profile) 0-120. */
const DESCRIPTION_MAX = 512;
const SHORT_DESCRIPTION_MAX = 120;

/** A Bot API call Telegram refused (ok: false): its description, and the error code. */
export class TelegramCallError extends Error {
  constructor(
    readonly method: string,
    readonly errorCode: number,
    readonly description: string,
  ) {
    super(`Telegram ${method}: ${description}`);
    this.name = 'TelegramCallError';
  }
}

/** One Bot API call (JSON), its result; throws TelegramCallError on `ok: false`. The token stays out of errors. */
async function call<T>(apiRoot: string, token: string, method: string, params: object = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${apiRoot}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new Error(`Telegram ${method}: no answer (${err instanceof Error ? err.message : String(err)})`);
  }
  let body: { ok?: boolean; result?: T; error_code?: number; description?: string };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new TelegramCallError(method, res.status, `HTTP ${res.status} without a JSON answer`);
  }
  if (!body.ok)
    throw new TelegramCallError(method, body.error_code ?? res.status, body.description ?? `HTTP ${res.status}`);
  return body.result as T;
}

const clip = (text: string, max: number) =>
  [...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text;

/** The bot's description: shown in an empty chat with it, above «Start». */
export const studioDescription = (studioName: string) =>
  clip(
    `Бот студии «${clip(studioName, 200)}»: здесь можно выбрать мастер-класс, записаться, посмотреть и отменить свои записи.`,
    DESCRIPTION_MAX,
  );

/** The short description: on the bot's profile page and when it is shared. */
export const studioShortDescription = (studioName: string) =>
  clip(`${clip(studioName, 70)}: запись на мастер-классы`, SHORT_DESCRIPTION_MAX);

export interface StudioBotSetup {
  apiRoot: string;
  token: string;
  /** The studio bot's webhook: an https URL. */
  webhookUrl: string;
  /** Its secret_token (1-256 of A-Z, a-z, 0-9, _ and -), sent back in X-Telegram-Bot-Api-Secret-Token. */
  webhookSecret: string;
  /** The studio's public origin: the menu button opens `${publicUrl}/apply` (only when https). */
  publicUrl: string;
  studioName: string;
  /** The update types the studio bot handles (bot/runtime.ts ALLOWED_UPDATES). */
  allowedUpdates: readonly string[];
}

/**
 * Sets a studio's bot up, in this order: setWebhook (pending updates kept), setMyCommands (Russian for
 * everyone, each other language for users whose Telegram is in it), setChatMenuButton «Записаться»
 * (https only: Telegram opens web apps only there), setMyDescription, setMyShortDescription.
 * Throws TelegramCallError with Telegram's description when it refuses a call.
 */
export async function setUpStudioBot(setup: StudioBotSetup): Promise<void> {
  const { apiRoot, token } = setup;
  await call(apiRoot, token, 'setWebhook', {
    url: setup.webhookUrl,
    secret_token: setup.webhookSecret,
    allowed_updates: [...setup.allowedUpdates],
    drop_pending_updates: false,
  });
  for (const c of profileCalls(setup.publicUrl)) await call(apiRoot, token, c.method, c.params);
  await describeStudioBot({ apiRoot, token, studioName: setup.studioName });
}

/** The bot's description and short description, which name the studio (set again when it is renamed). */
export async function describeStudioBot(bot: { apiRoot: string; token: string; studioName: string }): Promise<void> {
  await call(bot.apiRoot, bot.token, 'setMyDescription', { description: studioDescription(bot.studioName) });
  await call(bot.apiRoot, bot.token, 'setMyShortDescription', {
    short_description: studioShortDescription(bot.studioName),
  });
}

/** A studio's bot let go: its webhook removed (deleteWebhook), so Telegram stops posting its updates here. */
export async function removeStudioBot(setup: { apiRoot: string; token: string }): Promise<void> {
  await call(setup.apiRoot, setup.token, 'deleteWebhook', { drop_pending_updates: false });
}
