import type { FastifyInstance } from 'fastify';
import { studioApi } from '../../contract/endpoints/studio';
import { changeStudio, finishSetup, loginByTelegramLink, viewStudio } from '../../core/staff/studio';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import type { RouteDeps, StudioGateway } from './deps';

/** The studio's name and zone, the first-run wizard's end, and the owner's login by the platform bot's link. */
export default async function studioRoutes(app: FastifyInstance, deps: RouteDeps, studio: StudioGateway | null) {
  const { database, config } = deps;

  route(
    app,
    studioApi.telegramLink,
    async (req) => {
      const user = await loginByTelegramLink(database, studio, req.body.token);
      // The password login's token (server/routes/login.ts): the same signer and claims.
      return {
        access_token: app.jwt.sign({ sub: String(user.id), ver: user.token_version }),
        token_type: 'bearer' as const,
      };
    },
    {
      rateLimit: {
        max: deps.rateLimits.login,
        timeWindow: '1 minute',
        errorResponseBuilder: () => {
          const detail = 'Слишком много попыток входа. Подождите минуту и попробуйте снова.';
          return { statusCode: 429, detail, message: detail };
        },
      },
    },
  );

  route(app, studioApi.get, async (req) =>
    viewStudio(database, actorOf(req), studio, { name: config.businessName, timezone: config.businessTimezone }),
  );

  route(app, studioApi.update, async (req, reply) => {
    await changeStudio(database, actorOf(req), studio, req.body);
    return reply.code(204).send();
  });

  route(app, studioApi.setupDone, async (req, reply) => {
    await finishSetup(database, actorOf(req));
    return reply.code(204).send();
  });
}
