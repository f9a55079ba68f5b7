import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { validateInput } from './plugins/validation';
import type { Config } from './config';
import type { Database } from '../db/database';
import { clientErrorHandler, frameworkError, registerErrorHandling } from './plugins/errors';
import { registerAuth } from './plugins/auth';
import { customerLanguage } from '../core/language/customer-language';
import { registerJsonBody } from './plugins/json-body';
import { CUSTOMER_WRITES_PER_MINUTE, registerCustomerWriteLimit } from './plugins/customer-writes';
import { databaseRateLimitStore } from './plugins/rate-limit-store';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerStatic } from './plugins/static';
import { registerSwagger } from './plugins/swagger';
import { createMailer, type Mailer } from './email';
import type { Lifecycle, RouteDeps, StudioGateway, TelegramGateway } from './routes/deps';
import type { Metrics } from './metrics';
import { HttpError } from './http-error';
import metricsRoutes from './routes/metrics';
import utilsRoutes from './routes/utils';
import loginRoutes from './routes/login';
import usersRoutes from './routes/users';
import workshopsRoutes from './routes/workshops';
import addressesRoutes from './routes/addresses';
import scheduleRoutes from './routes/schedule';
import recordsRoutes from './routes/records';
import settingsRoutes from './routes/settings';
import businessSettingsRoutes from './routes/business-settings';
import personalDataRoutes from './routes/personal-data';
import telegramRoutes from './routes/telegram';
import journeyRoutes from './routes/journey';
import shareRoutes from './routes/share';
import attendanceRoutes from './routes/attendance';
import auditRoutes from './routes/audit';
import exportsRoutes from './routes/exports';
import insightsRoutes from './routes/insights';
import paymentsRoutes from './routes/payments';
import certificatesRoutes, { certificatePageRoutes } from './routes/certificates';
import promoCodesRoutes from './routes/promo-codes';
import fiscalRoutes from './routes/fiscal';
import studioRoutes from './routes/studio';
import { JsonRequestLog, OneLineRequestLog } from './request-log';
import { devMiniAppRoute } from './routes/dev-miniapp';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** None: silent (tests). */
  logger?: FastifyBaseLogger;
  /** Requests per window per client; tests raise them. */
  rateLimits?: Partial<RouteDeps['rateLimits']>;
  /** Request timeouts; tests shorten them. */
  timeouts?: Partial<typeof TIMEOUTS>;
  /** The bot behind the webhook and the account link; none (no BOT_TOKEN): the webhook does not exist and linking answers 503. */
  telegram?: TelegramGateway | null;
  /** Prometheus metrics, served at GET /metrics with METRICS_TOKEN; none: no metrics. */
  metrics?: Metrics | null;
  /** Whether the instance drains (readiness answers 503); main.ts sets it on SIGTERM. */
  lifecycle?: Lifecycle;
  /**
   * The platform serving this studio (its name and zone, its owner's login links); none (a single
   * studio): GET /studio answers from the configuration, PATCH /studio 409, every login link is refused.
   */
  studio?: StudioGateway | null;
}

export const API_PREFIX = '/api/v1';

/**
 * A client gets `requestTimeout` to send a whole request (`headersTimeout` for its headers), an idle
 * socket is closed after `connectionTimeout` and an idle keep-alive connection after
 * `keepAliveTimeout`; Node checks the first two every `checkInterval`. So a client trickling a body
 * holds a connection for about half a minute at most, not for ever.
 */
export const TIMEOUTS = {
  requestTimeout: 30_000,
  headersTimeout: 15_000,
  connectionTimeout: 60_000,
  keepAliveTimeout: 10_000,
  checkInterval: 2_000,
};

/** Builds the whole server from its dependencies: no environment, no listening. */
/** Fastify's trustProxy from TRUST_PROXY: a number is that many hops from the server (proxy-addr asks per hop, nearest first). */
export function trustProxyOption(config: Pick<Config, 'trustProxy'>) {
  const t = config.trustProxy;
  return typeof t === 'number' ? (_address: string, hop: number) => hop < t : t;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const timeouts = { ...TIMEOUTS, ...deps.timeouts };
  const routerOptions = { ignoreTrailingSlash: true, maxParamLength: 10_000 };
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    logController: config.env === 'production' ? new JsonRequestLog() : new OneLineRequestLog(),
    routerOptions,
    bodyLimit: 256 * 1024,
    trustProxy: trustProxyOption(config),
    requestTimeout: timeouts.requestTimeout,
    connectionTimeout: timeouts.connectionTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    http: {
      headersTimeout: Math.min(timeouts.headersTimeout, timeouts.requestTimeout),
      connectionsCheckingInterval: timeouts.checkInterval,
    },
    frameworkErrors: (err, _req, reply) => {
      const { status, body } = frameworkError(err);
      // (The reply's generic types cannot be resolved in this option's signature.)
      void reply.code(status as never).send(body as never);
    },
    clientErrorHandler,
    // Every schema is zod: Fastify's default JSON-schema compilers (ajv, ~45 ms of start-up) are not loaded
    // for nothing. (The option's types are ajv's; Fastify calls these like the compilers set below.)
    schemaController: {
      compilersFactory: {
        buildValidator: (() => validateInput) as never,
        buildSerializer: (() => serializerCompiler) as never,
      },
    },
  });
  app.setValidatorCompiler(validateInput);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, (telegramId) => customerLanguage(database.db, telegramId));
  registerJsonBody(app);

  registerSecurityHeaders(app, {
    // The mini-app runs inside Telegram's web client, which frames it.
    frameguard: false,
    contentSecurityPolicy: {
      directives: {
        'frame-ancestors': ["'self'", 'https://web.telegram.org', 'https://*.telegram.org'],
        'img-src': ["'self'", 'data:', 'https:'],
      },
    },
  });
  // JSON and pages go out gzip/br when the client accepts it (a phone on mobile data loads the schedule
  // first); hashed assets are already compressed at build time. Request bodies stay uncompressed only,
  // as before: a compressed body is refused rather than inflated.
  await app.register(compress, { requestEncodings: ['identity'] });
  // Not strict: an OPTIONS without Origin is no preflight and answers 204 like any other OPTIONS, not a text/plain 400.
  await app.register(cors, { origin: [config.publicUrl], strictPreflight: false });
  await app.register(formbody);
  // On PostgreSQL (several instances) counted in the database, so a limit holds whichever instance
  // answers; SQLite serves one instance, whose own counters are exact and cost its one writer nothing.
  await app.register(rateLimit, {
    global: false,
    ...(database.dialect === 'postgres' && { store: databaseRateLimitStore(database) }),
  });
  const rateLimits = {
    login: 20,
    passwordRecovery: 5,
    customerWrites: CUSTOMER_WRITES_PER_MINUTE,
    ...deps.rateLimits,
  };
  registerCustomerWriteLimit(app, rateLimits.customerWrites);
  const openapi = registerSwagger(app, routerOptions);
  await registerAuth(app, {
    database,
    secretKey: config.secretKey,
    botToken: config.botToken,
    businessTimezone: config.businessTimezone,
  });

  const routeDeps: RouteDeps = {
    config,
    database,
    mailer: deps.mailer ?? createMailer(config, app.log),
    log: app.log,
    rateLimits,
    lifecycle: deps.lifecycle ?? { draining: false },
  };
  if (deps.metrics && config.metricsToken) await metricsRoutes(app, deps.metrics, config.metricsToken);
  // Without a token there are no metrics: a scraper is told so, not handed the admin's page.
  else
    app.get('/metrics', { schema: { hide: true } }, async () => {
      throw new HttpError(404, 'Метрики выключены: задайте METRICS_TOKEN');
    });
  const telegram = deps.telegram ?? null;
  await app.register(
    async (api) => {
      api.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, openapi);
      for (const routes of [
        utilsRoutes,
        loginRoutes,
        usersRoutes,
        workshopsRoutes,
        addressesRoutes,
        scheduleRoutes,
        recordsRoutes,
        settingsRoutes,
        businessSettingsRoutes,
        attendanceRoutes,
        auditRoutes,
        exportsRoutes,
        insightsRoutes,
        personalDataRoutes,
        promoCodesRoutes,
        fiscalRoutes,
      ]) {
        await routes(api, routeDeps);
      }
      await telegramRoutes(api, routeDeps, telegram);
      await journeyRoutes(api, routeDeps, telegram);
      await shareRoutes(api, routeDeps, telegram);
      await paymentsRoutes(api, routeDeps, telegram);
      await certificatesRoutes(api, routeDeps, telegram);
      await studioRoutes(api, routeDeps, deps.studio ?? null);
    },
    { prefix: API_PREFIX },
  );

  await certificatePageRoutes(app, routeDeps, telegram);
  devMiniAppRoute(app, config);
  await registerStatic(app, {
    distDir: path.resolve(config.distDir),
    client: {
      businessName: config.businessName,
      businessTimezone: config.businessTimezone,
      botEnabled: Boolean(config.botToken),
      basePath: config.basePath ?? '',
    },
  });
  app.addHook('onClose', () => database.close());
  return app;
}
