import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TelegramLink } from '../../contract';
import type { Update } from 'grammy/types';
import type { Telegram } from '../../bot/runtime';
import { HttpError } from '../services/errors';
import { createLinkToken, linkUrl } from '../services/telegram-link';
import type { RouteDeps } from './deps';

const NO_BOT = 'Telegram-бот не настроен на сервере';
const BOT_UNREACHABLE = 'Telegram сейчас недоступен, попробуйте позже';

/** An update as Telegram posts it; the bot reads the rest. */
const UpdateBody = z.looseObject({ update_id: z.number().int() });

/**
 * The bot's webhook (DESIGN §4, §6) and the staff account link (issue 3, §5).
 * Without a bot (no BOT_TOKEN) the webhook does not exist and linking answers 503.
 */
export default async function telegramRoutes(app: FastifyInstance, { database }: RouteDeps, telegram: Telegram | null) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  if (telegram) {
    r.post('/telegram/webhook', { config: { auth: 'public' }, schema: { hide: true, body: UpdateBody } }, async (req) => {
      // The secret token Telegram was given in setWebhook; timing-safe, never in a URL.
      if (!telegram.verifySecret(req.headers['x-telegram-bot-api-secret-token'])) throw new HttpError(401, 'Unauthorized');
      await telegram.handleUpdate(req.body as unknown as Update);
      return { ok: true };
    });
  }

  // A one-time deep link t.me/<bot>?start=link_<token>, valid 15 minutes, that connects this staff account to Telegram.
  r.post('/users/me/telegram-link', { config: { auth: 'user' }, schema: { tags: ['users'], response: { 200: TelegramLink } } }, async (req) => {
    if (!telegram) throw new HttpError(503, NO_BOT);
    let username: string;
    try {
      username = await telegram.username();
    } catch (err) {
      req.log.error({ err }, 'telegram: getMe failed');
      throw new HttpError(503, BOT_UNREACHABLE);
    }
    const { token, expires_at } = await createLinkToken(database, req.staff!.id);
    return { url: linkUrl(username, token), expires_at };
  });
}
