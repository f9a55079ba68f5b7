import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { TIMEOUTS, API_PREFIX, trustProxyOption } from '../server/app';
import { registerSecurityHeaders } from '../server/plugins/security-headers';
import { WEBHOOK_PATH } from '../server/routes/telegram';
import type { Config } from '../server/config';
import { registerStatic } from '../server/plugins/static';
import { openPlatformStore, type PlatformStore } from './store';
import { adoptSingleStudio, createServers, migrateStudios, type Servers } from './studios';
import { studioFinderRoute } from './studio-finder';
import { createStudioHost, type StudioHost, type StudioHostDeps } from './host';
import { createSendStats, type SendStats } from './send-stats';

/*
 * The platform's HTTP front: one server for every studio. `/s/<slug>/…` is that studio's whole
 * single-studio server with the prefix taken off; Telegram's updates for any studio's bot come to one
 * webhook and find their studio by the secret Telegram sends with them (an unknown one is refused
 * before its body is read); everything else is the platform's own (its pages and API).
 */

export const STUDIO_PATH = /^\/s\/([a-z0-9][a-z0-9-]{1,39})(?=\/|$|\?)/;
const STUDIO_WEBHOOK = API_PREFIX + WEBHOOK_PATH;

export interface Platform {
  app: FastifyInstance;
  host: StudioHost;
  store: PlatformStore;
  servers: Servers;
  /** This instance's count of its studios' 429s. */
  sendStats: SendStats;
}

export interface PlatformDeps {
  config: Config;
  log?: FastifyBaseLogger;
  /** More of each studio's host (tests: no bots, rate limits). */
  host?: Partial<StudioHostDeps>;
  /** Whether the instance drains (readiness answers 503); set on SIGTERM. */
  lifecycle?: { draining: boolean };
  /** Registers the platform's own routes (its API, the onboarding bot's webhook) on its app. */
  routes?: (app: FastifyInstance, platform: Omit<Platform, 'app'> & { config: Config }) => Promise<void>;
}

const json = (res: http.ServerResponse, status: number, detail: string) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ detail }));
};

export async function buildPlatform(deps: PlatformDeps): Promise<Platform> {
  const { config } = deps;
  const silent = Fastify({ logger: false }).log;
  const log = deps.log ?? silent;
  const store = await openPlatformStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const servers = createServers(config.platform.databases, { poolSize: 10 + config.platform.liveStudios });
  // A single-studio deployment becomes the platform's first studio, its database as it is.
  await adoptSingleStudio(store, servers, {
    databaseUrl: config.databaseUrl,
    businessName: config.businessName,
    businessTimezone: config.businessTimezone,
    slug: config.platform.firstStudio,
    secretKey: config.secretKey,
    botToken: config.botToken,
  });
  const sendStats = createSendStats();
  const host = createStudioHost({ config, store, servers, log, sendStats, ...deps.host });
  const firstStudio = config.platform.firstStudio;

  async function dispatch(req: http.IncomingMessage, res: http.ServerResponse, platform: http.RequestListener) {
    const url = req.url ?? '/';
    const studio = STUDIO_PATH.exec(url);
    if (studio) {
      const ctx = await host.open(studio[1]);
      if (!ctx) return json(res, 404, 'Такой студии нет. Проверьте адрес.');
      if (!('app' in ctx)) return json(res, 503, ctx.unavailable);
      req.url = url.slice(studio[0].length) || '/';
      return ctx.app.routing(req, res);
    }
    if (req.method === 'POST' && url.split('?')[0].replace(/\/$/, '') === STUDIO_WEBHOOK) {
      const secret = req.headers['x-telegram-bot-api-secret-token'];
      const slug = typeof secret === 'string' && secret ? await host.slugBySecret(secret) : null;
      if (!slug) return json(res, 401, 'Неверный секрет вебхука');
      const ctx = await host.open(slug);
      // Telegram sends it again later: the studio is back by then or its bot's webhook is gone.
      if (!ctx || !('app' in ctx)) return json(res, 503, ctx ? ctx.unavailable : 'Такой студии нет');
      return ctx.app.routing(req, res);
    }
    // The first studio (the single-studio deployment it was) keeps its old addresses: its bot's
    // buttons and links sent before. Its pages move under its prefix; its API answers in place.
    const own =
      url.startsWith('/platform') ||
      url.startsWith('/assets/') ||
      url.startsWith('/api/platform') ||
      url.startsWith(`${API_PREFIX}/utils/`);
    if (
      !own &&
      (await store.db.selectFrom('studios').select('id').where('slug', '=', firstStudio).executeTakeFirst())
    ) {
      if (url.startsWith('/api/')) {
        const ctx = await host.open(firstStudio);
        if (ctx && 'app' in ctx) return ctx.app.routing(req, res);
      } else if (req.method === 'GET' || req.method === 'HEAD') {
        res.writeHead(302, { location: `/s/${firstStudio}${url === '/' ? '/' : url}` });
        return res.end();
      }
    }
    return platform(req, res);
  }

  const app = Fastify({
    loggerInstance: log,
    // The owner's login is limited per client address: behind a proxy, the client's, not the proxy's.
    trustProxy: trustProxyOption(config),
    requestTimeout: TIMEOUTS.requestTimeout,
    keepAliveTimeout: TIMEOUTS.keepAliveTimeout,
    connectionTimeout: TIMEOUTS.connectionTimeout,
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => {
        dispatch(req, res, handler).catch((err: unknown) => {
          log.error({ err, url: req.url }, 'platform: request failed');
          if (!res.headersSent) json(res, 500, 'Внутренняя ошибка сервера');
          else res.destroy();
        });
      });
      server.headersTimeout = TIMEOUTS.headersTimeout;
      return server;
    },
  });
  // The platform's own pages (the owner's view, the studio finder) are never framed.
  registerSecurityHeaders(app, {});
  // The platform instance's own liveness and readiness (a load balancer's probes), like a studio server's.
  const lifecycle = deps.lifecycle ?? { draining: false };
  app.get(`${API_PREFIX}/utils/health-check/`, { schema: { hide: true } }, async () => true);
  app.get(`${API_PREFIX}/utils/ready`, { schema: { hide: true } }, async (_req, reply) => {
    if (lifecycle.draining) return reply.code(503).send({ detail: 'Сервер останавливается' });
    await sql`select 1`.execute(store.db);
    return { status: 'ok' };
  });
  await deps.routes?.(app, { host, store, servers, sendStats, config });
  studioFinderRoute(app, store);
  await registerStatic(app, {
    distDir: path.resolve(config.distDir),
    client: {
      businessName: config.businessName,
      businessTimezone: config.businessTimezone,
      botEnabled: false,
      basePath: '',
    },
  });
  app.addHook('onClose', async () => {
    await host.close();
    await servers.close();
    await store.close();
  });
  return { app, host, store, servers, sendStats };
}

/** A deploy: every studio behind the code's version is migrated, one at a time; failures are listed. */
export async function migratePlatform(platform: Omit<Platform, 'app'>, config: Config) {
  return migrateStudios(platform.store, platform.servers, config.dataDir);
}
