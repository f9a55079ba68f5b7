import type { FastifyInstance } from 'fastify';
import type { Update } from 'grammy/types';
import type { OnboardingBot } from './onboarding-bot';

/** Where Telegram posts the platform bot's updates. */
export const ONBOARDING_WEBHOOK = '/platform/telegram/webhook';

/** The platform bot's webhook: a wrong secret is refused before the body is read; an update is answered 200 once handled. */
export function onboardingRoute(app: FastifyInstance, bot: OnboardingBot) {
  app.post(
    ONBOARDING_WEBHOOK,
    {
      schema: { hide: true },
      onRequest: async (req, reply) => {
        if (!bot.verifySecret(req.headers['x-telegram-bot-api-secret-token']))
          return reply.code(401).send({ detail: 'Неверный секрет вебхука' });
      },
    },
    async (req) => {
      await bot.handleUpdate(req.body as Update);
      return { ok: true };
    },
  );
}
