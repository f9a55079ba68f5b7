import { GrammyError, type RawApi } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';

/*
 * The transport: a rendered notification as Bot API calls to one chat, and what Telegram's answer means
 * for the row (delivered, rate limited, never deliverable, or worth a retry).
 */

export type OutboxMethod = 'sendMessage' | 'sendVenue' | 'sendLocation' | 'sendDocument' | 'sendPhoto' | 'sendInvoice';

/** A Bot API call of a notification; `chat_id` comes from the row. */
export type OutboxCall = {
  [M in OutboxMethod]: { method: M; params: Omit<Parameters<RawApi[M]>[0], 'chat_id'> };
}[OutboxMethod];

/**
 * What bot/messages.ts renders: a text message (HTML, no link previews), or any calls, sent in order
 * (a row with several calls is retried as a whole, so keep the calls that may fail last).
 */
type RenderedPart = { text: string; reply_markup?: InlineKeyboardMarkup } | OutboxCall;
export type RenderedMessage = RenderedPart | RenderedPart[];

/** A Bot API client without auto-retry: the worker does its own retries. */
export type OutboxApi = Pick<RawApi, OutboxMethod>;

/** What one Bot API send came to: delivered, rate limited by Telegram, or any other failure. */
export type SendResult = 'ok' | '429' | 'failed';

/** What a failed send means for its row. */
export type Failure =
  | { kind: 'limited'; retryAfterS: number }
  /** 403: the user blocked the bot (or never started it); 400: Telegram will never accept this request. */
  | { kind: 'undeliverable'; error: string }
  | { kind: 'transient'; error: string };

export const describeError = (err: unknown) =>
  err instanceof GrammyError
    ? `${err.error_code}: ${err.description}`
    : err instanceof Error
      ? err.message
      : String(err);

export function classify(err: unknown): Failure {
  if (err instanceof GrammyError && err.error_code === 429)
    return { kind: 'limited', retryAfterS: err.parameters.retry_after ?? 5 };
  if (err instanceof GrammyError && (err.error_code === 403 || err.error_code === 400))
    return { kind: 'undeliverable', error: describeError(err) };
  return { kind: 'transient', error: describeError(err) };
}

/** The calls of a rendered notification, addressed to the row's chat. */
export function callsOf(message: RenderedMessage): OutboxCall[] {
  return (Array.isArray(message) ? message : [message]).map((part) =>
    'method' in part
      ? part
      : {
          method: 'sendMessage',
          params: {
            text: part.text,
            parse_mode: 'HTML',
            link_preview_options: { is_disabled: true },
            ...(part.reply_markup && { reply_markup: part.reply_markup }),
          },
        },
  );
}

function call(api: OutboxApi, chat_id: number, c: OutboxCall): Promise<unknown> {
  switch (c.method) {
    case 'sendMessage':
      return api.sendMessage({ chat_id, ...c.params });
    case 'sendVenue':
      return api.sendVenue({ chat_id, ...c.params });
    case 'sendLocation':
      return api.sendLocation({ chat_id, ...c.params });
    case 'sendDocument':
      return api.sendDocument({ chat_id, ...c.params });
    case 'sendPhoto':
      return api.sendPhoto({ chat_id, ...c.params });
    case 'sendInvoice':
      return api.sendInvoice({ chat_id, ...c.params });
  }
}

/**
 * Sends the calls to the chat in order; throws the first failure. `onSend` hears of each call's result
 * and how long Telegram took to answer; an observer that throws never breaks delivery.
 */
export async function sendCalls(
  api: OutboxApi,
  chatId: number,
  calls: OutboxCall[],
  onSend?: (result: SendResult, ms: number) => void,
): Promise<void> {
  for (const c of calls) {
    const started = performance.now();
    let result: SendResult = 'ok';
    try {
      await call(api, chatId, c);
    } catch (err) {
      result = err instanceof GrammyError && err.error_code === 429 ? '429' : 'failed';
      throw err;
    } finally {
      try {
        onSend?.(result, performance.now() - started);
      } catch {
        /* metrics must not stop delivery */
      }
    }
  }
}
