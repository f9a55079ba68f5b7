import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { usersApi } from '../../contract/endpoints/users';
import type { Update } from 'grammy/types';
import { HttpError } from '../http-error';
import { createLinkToken, linkUrl } from '../../core/staff/telegram-link';
import { requireStaff } from '../plugins/auth';
import type { RouteDeps, TelegramGateway } from './deps';
import { route } from '../route';

const NO_BOT = 'Telegram-бот не настроен на сервере';
const BOT_UNREACHABLE = 'Telegram сейчас недоступен, попробуйте позже';
const UPDATE_BUSY = 'This update is being handled by another instance: send it again later';
const UPDATE_FAILED = 'This update was not handled: send it again';

/** Where Telegram posts updates, under the API prefix (the bot registers it with setWebhook). */
export const WEBHOOK_PATH = '/telegram/webhook';

/** An update as Telegram posts it: its id is checked here, the bot reads the rest. */
const UpdateBody = z.custom<Update>(
  (v) => typeof v === 'object' && v !== null && 'update_id' in v && Number.isSafeInteger(v.update_id),
);

/**
 * The bot's webhook and the staff account link.
 * Without a bot (no BOT_TOKEN) the webhook does not exist and linking answers 503.
 */
export default async function telegramRoutes(
  app: FastifyInstance,
  { database }: RouteDeps,
  telegram: TelegramGateway | null,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  if (telegram) {
    r.post(
      WEBHOOK_PATH,
      {
        config: { auth: 'public' },
        schema: { hide: true, body: UpdateBody },
        // The secret token Telegram was given in setWebhook (timing-safe, never in a URL), checked before the body is read.
        onRequest: async (req) => {
          if (!telegram.verifySecret(req.headers['x-telegram-bot-api-secret-token']))
            throw new HttpError(401, 'Unauthorized');
        },
        // Telegram's updates pass as they are, control characters included: refusing one would make Telegram
        // retry it and hold back the chat's later updates. What the bot stores is checked where it stores it.
        validatorCompiler: validatorCompiler as FastifySchemaCompiler<unknown>,
      },
      // Anything but 200 makes Telegram send the update again later: while another instance handles it,
      // and when its handling failed (a payment must not be lost to a passing fault).
      async (req, reply) => {
        try {
          if ((await telegram.handleUpdate(req.body)) === 'busy')
            return reply.status(503).send({ detail: UPDATE_BUSY });
        } catch {
          return reply.status(500).send({ detail: UPDATE_FAILED });
        }
        return { ok: true };
      },
    );
  }

  // A one-time deep link t.me/<bot>?start=link_<token>, valid 15 minutes, that connects this staff account to Telegram.
  route(app, usersApi.telegramLink, async (req) => {
    if (!telegram) throw new HttpError(503, NO_BOT);
    let username: string;
    try {
      username = await telegram.username();
    } catch (err) {
      req.log.error({ err }, 'telegram: getMe failed');
      throw new HttpError(503, BOT_UNREACHABLE);
    }
    const { token, expires_at } = await createLinkToken(database, requireStaff(req).id);
    return { url: linkUrl(username, token), expires_at };
  });
}
