import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from '../db/database';
import { registerErrorHandling } from './plugins/errors';
import { registerAuth } from './plugins/auth';
import { registerStatic } from './plugins/static';
import { createMailer, type Mailer } from './services/email';
import type { RouteDeps } from './routes/deps';
import utilsRoutes from './routes/utils';
import loginRoutes from './routes/login';
import usersRoutes from './routes/users';
import workshopsRoutes from './routes/workshops';
import addressesRoutes from './routes/addresses';
import scheduleRoutes from './routes/schedule';
import recordsRoutes from './routes/records';
import settingsRoutes from './routes/settings';
import telegramRoutes from './routes/telegram';
import { createTelegram, type Telegram } from '../bot/runtime';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Requests per window per client; tests raise them. */
  rateLimits?: Partial<RouteDeps['rateLimits']>;
  /** The bot, outbox worker and digest job; built from the config when BOT_TOKEN is set, null: none. Started by main.ts. */
  telegram?: Telegram | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Null without BOT_TOKEN. */
    telegram: Telegram | null;
  }
}

export const API_PREFIX = '/api/v1';

/** Builds the whole server from its dependencies: no environment, no listening (DESIGN §3). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 10_000 },
    bodyLimit: 256 * 1024,
    trustProxy: config.env === 'production',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(helmet, {
    // The mini-app runs inside Telegram's web client, which frames it.
    frameguard: false,
    contentSecurityPolicy: {
      directives: {
        'frame-ancestors': ["'self'", 'https://web.telegram.org', 'https://*.telegram.org'],
        'img-src': ["'self'", 'data:', 'https:'],
      },
    },
  });
  await app.register(cors, { origin: [config.publicUrl] });
  await app.register(formbody);
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Workshop booking API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await registerAuth(app, { database, secretKey: config.secretKey, botToken: config.botToken });

  const routeDeps: RouteDeps = {
    config,
    database,
    mailer: deps.mailer ?? createMailer(config, app.log),
    log: app.log,
    rateLimits: { login: 20, passwordRecovery: 5, ...deps.rateLimits },
  };
  const telegram = deps.telegram !== undefined ? deps.telegram : config.botToken ? createTelegram({ config, database, log: app.log }) : null;
  app.decorate('telegram', telegram);
  await app.register(
    async (api) => {
      api.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
      for (const routes of [utilsRoutes, loginRoutes, usersRoutes, workshopsRoutes, addressesRoutes, scheduleRoutes, recordsRoutes, settingsRoutes]) {
        await routes(api, routeDeps);
      }
      await telegramRoutes(api, routeDeps, telegram);
    },
    { prefix: API_PREFIX },
  );

  await registerStatic(app, {
    distDir: path.resolve(config.distDir),
    client: { businessName: config.businessName, businessTimezone: config.businessTimezone, botEnabled: Boolean(config.botToken) },
  });
  app.addHook('onClose', async () => {
    await telegram?.stop();
    await database.close();
  });
  return app;
}
