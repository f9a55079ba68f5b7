import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { UserFromGetMe } from 'grammy/types';
import { API_PREFIX, buildApp, type AppDeps } from '../server/app';
import { WEBHOOK_PATH } from '../server/routes/telegram';
import type { Config } from '../server/config';
import type { Database } from '../db/database';
import { LATEST_MIGRATION } from '../db/migrate';
import { createTelegram, type Telegram, type TelegramOptions } from '../bot/runtime';
import { createFiscalSender, type FiscalSender } from '../core/jobs/fiscal-sender';
import { createLpfr } from '../core/fiscal/lpfr';
import type { PlatformStore } from './store';
import { migrateStudio, openStudioDatabase, type Servers, type Studio } from './studios';
import { decrypt, sha256, studioSecretKey, webhookSecretOf } from './secrets';
import { studioGateway } from './studio-gateway';
import type { SendStats } from './send-stats';

/*
 * The studios this instance serves right now: each one a whole single-studio server (its Fastify app,
 * bot, outbox worker and fiscal sender) on its own database, opened when first asked for and closed
 * when it has been used least recently of more than PLATFORM_LIVE_STUDIOS.
 */

export interface StudioContext {
  studio: Studio;
  config: Config;
  database: Database;
  app: FastifyInstance;
  telegram: Telegram | null;
  fiscal: FiscalSender;
  usedAt: number;
  /** What the store said of the studio and its bot when it opened: another instance may change it. */
  fingerprint: string;
  /** When the store was last asked whether that is still so, and the question in flight. */
  checkedAt: number;
  checking?: Promise<boolean>;
}

/**
 * How long a live studio is served without asking the store whether it changed (suspended, moved to
 * another server, its name, zone or bot token changed, by another instance or the platform command):
 * at most this long after the change, every instance serves the new state.
 */
export const REVALIDATE_MS = 2000;

/** Why a studio is not served: answered 503 with this text (404 when there is no such studio). */
export type Unavailable = { unavailable: string };

export const UNAVAILABLE = {
  suspended: 'Студия приостановлена. Напишите владельцу платформы.',
  moving: 'Студия переезжает на другой сервер, попробуйте через минуту.',
  failed: 'Студия временно недоступна: её данные обновляются. Попробуйте позже.',
} as const;

export interface StudioHost {
  /** The studio's live context, opening it when needed; null: no such studio. */
  open(slug: string): Promise<StudioContext | Unavailable | null>;
  /**
   * Runs `fn` on the studio's database: the live one, or opened for it alone (a studio's periodic jobs
   * need neither its app nor its bot). Undefined when the studio is not served.
   */
  withDatabase<T>(slug: string, fn: (database: Database, timezone: string) => Promise<T>): Promise<T | undefined>;
  /** The studio whose bot sends this webhook secret, if any. */
  slugBySecret(secret: string): Promise<string | null>;
  /** Closes a live studio (suspended, moving, deleted, its token replaced): the next request opens it again. */
  closeStudio(slug: string): Promise<void>;
  live(): StudioContext[];
  close(): Promise<void>;
}

export interface StudioHostDeps {
  config: Config;
  store: PlatformStore;
  servers: Servers;
  log: FastifyBaseLogger;
  telegramOptions?: TelegramOptions;
  /** Passed to every studio's buildApp (tests: rate limits, timeouts). */
  app?: Partial<AppDeps>;
  /** Whether studios' bots and fiscal senders run (tests of the HTTP side turn them off). */
  background?: boolean;
  /** Where each studio's sends are counted (its 429s, for the platform owner's view). */
  sendStats?: SendStats;
}

/** A studio's configuration: the platform's, with the studio's own name, zone, address, bot and keys. */
export function studioConfig(platform: Config, studio: Studio, bot: { token: string } | null): Config {
  const basePath = `/s/${studio.slug}`;
  return {
    ...platform,
    secretKey: studioSecretKey(platform.secretKey, studio.id),
    publicUrl: `${platform.publicUrl}${basePath}`,
    basePath,
    businessName: studio.name,
    businessTimezone: studio.timezone,
    botToken: bot?.token,
    botMode: 'webhook',
    webhookSecret: bot ? webhookSecretOf(platform.secretKey, bot.token) : platform.webhookSecret,
    // The platform owner's first superuser is no studio's.
    firstSuperuser: platform.firstSuperuser,
  };
}

export function createStudioHost(deps: StudioHostDeps): StudioHost {
  const { config, store, servers, log } = deps;
  /** By slug, in the order last used (a Map keeps insertion order: re-inserted on use). */
  const live = new Map<string, Promise<StudioContext | Unavailable | null>>();
  const secrets = new Map<string, string>();
  /** The contexts opened, for the scheduler and the platform view. */
  const opened = new Map<string, StudioContext>();

  /** The studio's row when it may be served: active and at the code's version (migrated first if behind). */
  async function servable(slug: string): Promise<Studio | Unavailable | null> {
    const studio = await store.db.selectFrom('studios').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!studio) return null;
    if (studio.status !== 'active') return { unavailable: UNAVAILABLE[studio.status] };
    if (studio.version === LATEST_MIGRATION) return studio;
    // Newer code never serves a studio at an older version: it is migrated first (or reported failed).
    const r = await migrateStudio(store, servers, config.dataDir, studio);
    if (!r.ok) {
      log.error({ studio: slug, problem: r.problem }, 'platform: studio migration failed');
      return { unavailable: UNAVAILABLE.failed };
    }
    return store.db.selectFrom('studios').selectAll().where('id', '=', studio.id).executeTakeFirstOrThrow();
  }

  /** The studio's row and its bot's as the store has them now, as one string. */
  async function fingerprintOf(slug: string): Promise<string> {
    const row = await store.db
      .selectFrom('studios')
      .leftJoin('bots', 'bots.studio_id', 'studios.id')
      .select([
        'studios.status',
        'studios.server',
        'studios.location',
        'studios.version',
        'studios.name',
        'studios.timezone',
        'bots.token',
        'bots.state',
      ])
      .where('studios.slug', '=', slug)
      .executeTakeFirst();
    return JSON.stringify(row ?? null);
  }

  /** Whether a live studio is still what the store says (asked at most every REVALIDATE_MS, once at a time). */
  function current(ctx: StudioContext): Promise<boolean> {
    if (Date.now() - ctx.checkedAt < REVALIDATE_MS) return Promise.resolve(true);
    ctx.checking ??= fingerprintOf(ctx.studio.slug)
      .then((fp) => {
        ctx.checkedAt = Date.now();
        return fp === ctx.fingerprint;
      })
      .finally(() => (ctx.checking = undefined));
    return ctx.checking;
  }

  async function build(slug: string): Promise<StudioContext | Unavailable | null> {
    const fingerprint = await fingerprintOf(slug);
    const studio = await servable(slug);
    if (!studio || 'unavailable' in studio) return studio;
    const botRow = await store.db
      .selectFrom('bots')
      .selectAll()
      .where('studio_id', '=', studio.id)
      .where('state', '=', 'ok')
      .executeTakeFirst();
    const bot = botRow ? { token: decrypt(config.secretKey, botRow.token), row: botRow } : null;
    const cfg = studioConfig(config, studio, bot);
    const database = openStudioDatabase(studio, servers, config.dataDir);
    const studioLog = log.child({ studio: slug });
    const telegram = bot
      ? createTelegram({
          config: cfg,
          database,
          log: studioLog,
          webhookPath: API_PREFIX + WEBHOOK_PATH,
          // Every studio's bot posts to the platform's one webhook, which finds the studio by the secret.
          webhookUrl: `${config.publicUrl}${API_PREFIX}${WEBHOOK_PATH}`,
          options: {
            ...deps.telegramOptions,
            onSend: (result, ms) => {
              deps.telegramOptions?.onSend?.(result, ms);
              deps.sendStats?.record(studio.id, result);
            },
            botInfo: botInfoOf(bot.row.bot_id, bot.row.username),
            // Commands, menu button and webhook were set when the bot joined (platform/bot-setup.ts).
            setup: false,
          },
        })
      : null;
    const app = await buildApp({
      ...deps.app,
      config: cfg,
      database,
      logger: studioLog,
      telegram,
      studio: studioGateway(
        store,
        host,
        studio.id,
        studio.slug,
        studioLog,
        bot && { apiRoot: config.telegramApiRoot, token: bot.token },
      ),
    });
    await app.ready();
    const fiscal = createFiscalSender({
      database,
      log: studioLog,
      pin: config.fiscalPfrPin,
      portFor: (url) => createLpfr({ url, timeoutMs: config.fiscalPfrTimeoutMs }),
      options: { timeoutMs: config.fiscalPfrTimeoutMs },
    });
    if (deps.background !== false) {
      fiscal.start();
      await telegram?.start();
    }
    const ctx: StudioContext = {
      studio,
      config: cfg,
      database,
      app,
      telegram,
      fiscal,
      usedAt: Date.now(),
      // Read before the studio: a change meanwhile (or its migration on open) reopens it at the next check.
      fingerprint,
      checkedAt: Date.now(),
    };
    opened.set(slug, ctx);
    return ctx;
  }

  async function closeContext(ctx: StudioContext) {
    opened.delete(ctx.studio.slug);
    await Promise.all([ctx.telegram?.stop(), ctx.fiscal.stop()]);
    await ctx.app.close();
  }

  async function evict() {
    while (live.size > config.platform.liveStudios) {
      const [slug, p] = live.entries().next().value!;
      live.delete(slug);
      const ctx = await p.catch(() => null);
      if (ctx && 'app' in ctx)
        await closeContext(ctx).catch((err: unknown) => log.error({ err, studio: slug }, 'platform: close failed'));
    }
  }

  const host: StudioHost = {
    async open(slug) {
      let p = live.get(slug);
      if (p) {
        live.delete(slug);
        live.set(slug, p);
      } else {
        p = build(slug);
        live.set(slug, p);
        // A studio that is not served (or failed to open) is asked again next time, not kept.
        p.then(
          (ctx) => {
            if (!ctx || !('app' in ctx)) live.delete(slug);
          },
          () => live.delete(slug),
        );
        void evict();
      }
      const ctx = await p;
      if (!ctx || !('app' in ctx)) return ctx;
      if (!(await current(ctx))) {
        await host.closeStudio(slug);
        return host.open(slug);
      }
      ctx.usedAt = Date.now();
      return ctx;
    },
    async withDatabase(slug, fn) {
      const ctx = opened.get(slug);
      if (ctx) return fn(ctx.database, ctx.config.businessTimezone);
      const studio = await servable(slug);
      if (!studio || 'unavailable' in studio) return undefined;
      const database = openStudioDatabase(studio, servers, config.dataDir);
      try {
        return await fn(database, studio.timezone);
      } finally {
        await database.close();
      }
    },
    async slugBySecret(secret) {
      const known = secrets.get(secret);
      if (known) return known;
      const row = await store.db
        .selectFrom('bots')
        .innerJoin('studios', 'studios.id', 'bots.studio_id')
        .select('studios.slug')
        .where('bots.secret_hash', '=', sha256(secret))
        .where('bots.state', '=', 'ok')
        .executeTakeFirst();
      if (row) secrets.set(secret, row.slug);
      return row?.slug ?? null;
    },
    async closeStudio(slug) {
      for (const [s, known] of secrets) if (known === slug) secrets.delete(s);
      const p = live.get(slug);
      if (!p) return;
      live.delete(slug);
      const ctx = await p.catch(() => null);
      if (ctx && 'app' in ctx) await closeContext(ctx);
    },
    live: () => [...opened.values()],
    async close() {
      const all = [...live.values()];
      live.clear();
      for (const p of all) {
        const ctx = await p.catch(() => null);
        if (ctx && 'app' in ctx) await closeContext(ctx).catch(() => {});
      }
    },
  };
  return host;
}

/** What getMe said of a studio's bot when it joined: its studio opens without asking Telegram again. */
function botInfoOf(id: number, username: string): UserFromGetMe {
  return {
    id,
    is_bot: true,
    first_name: username,
    username,
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  } as UserFromGetMe;
}
