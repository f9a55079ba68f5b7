import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import type { Config } from '../server/config';
import { HttpError } from '../server/http-error';
import { integrityViolation, nowIso, type Database } from '../db/database';
import { LATEST_MIGRATION } from '../db/migrate';
import { outboxBacklog } from '../db/repositories/notifications';
import { generatePassword, hashPassword, verifyDummy, verifyPassword } from '../core/staff/passwords';
import { LOGIN_FAILURES_MAX, LOGIN_FAILURE_WINDOW_MS } from '../core/staff/users';
import {
  PLATFORM_API,
  type PlatformDeleted,
  type PlatformOwner,
  type PlatformStudio,
  type PlatformStudioHealth,
  type PlatformStudioList,
  type PlatformWebhook,
} from '../contract/platform';
import type { Platform } from './server';
import type { PlatformStore } from './store';
import { openStudioDatabase, type Studio } from './studios';
import { decrypt } from './secrets';
import { removeStudioBot } from './bot-setup';
import { dropStudioData, exportStudio } from './studio-archive';

/*
 * The platform owner's API: their login, the studios with their health, suspending and resuming one,
 * its archive, and deleting it. Every route but the login needs the owner's token, checked by one
 * onRequest hook before the body is read; the token is signed with a key of its own (no studio's), so a
 * studio's staff token is refused here and an owner's token by every studio.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A platform API route anyone may call (only the login). */
    platformPublic?: boolean;
  }
}

export interface PlatformRouteDeps extends Omit<Platform, 'app'> {
  config: Config;
  /** Where the first owner's generated password is told (once); console.log by default. */
  announce?: (text: string) => void;
}

/** The owner's signing key: derived from SECRET_KEY under a name no studio's key uses (studio:<id>). */
export const platformOwnerKey = (secretKey: string) =>
  crypto.createHmac('sha256', secretKey).update('platform-owner').digest('hex');

const TOKEN_TTL = '12h';
const AUDIENCE = 'platform-owner';
const DAY_MS = 86_400_000;
/** Per client address, like the studios' rule (20 a minute), a little wider. */
const LOGINS_PER_MINUTE_PER_ADDRESS = 30;
/** getWebhookInfo of a bot is asked once a minute at most, and waited for this long. */
const WEBHOOK_CACHE_MS = 60_000;
const WEBHOOK_TIMEOUT_MS = 2_000;
/** Studios whose databases are read at once for the list. */
const HEALTH_CONCURRENCY = 4;

export const PLATFORM_MSG = {
  notAuthenticated: 'Войдите как владелец платформы',
  badToken: 'Вход владельца платформы недействителен или истёк: войдите снова',
  credentialsMissing: 'Укажите email и пароль',
  badCredentials: 'Неверный email или пароль',
  tooManyFailures: 'Слишком много неудачных попыток входа с этим email. Попробуйте через 15 минут.',
  tooManyLogins: 'Слишком много попыток входа. Подождите минуту.',
  noStudio: 'Такой студии нет: обновите список',
  moving: 'Студия сейчас переезжает на другой сервер: дождитесь конца переезда и повторите',
  notSuspended: 'Студия не приостановлена: возобновлять нечего',
  confirm: (slug: string) => `Чтобы удалить студию, введите её адрес «${slug}» точно, как он написан`,
  noData: 'Данных студии нет на сервере: выгружать нечего',
  sharedSchema: 'Эта студия хранится в основной схеме базы (с неё платформа началась): её нельзя удалить отсюда',
  dropFailed: (why: string) => `Данные студии удалить не удалось: ${why}. Студия приостановлена; повторите удаление`,
  badRequest: 'Неверный запрос',
  internal: 'Внутренняя ошибка сервера',
} as const;

/** On a platform with no owner, the first one from FIRST_SUPERUSER (its password generated when not given). */
export async function ensurePlatformOwner(
  store: PlatformStore,
  first: { email: string; password?: string },
): Promise<{ email: string; password: string; generated: boolean } | null> {
  if (await store.db.selectFrom('owners').select('id').executeTakeFirst()) return null;
  const generated = !first.password;
  const password = first.password ?? generatePassword();
  const email = first.email.trim().toLowerCase();
  try {
    await store.db
      .insertInto('owners')
      .values({ email, password_hash: await hashPassword(password), created_at: nowIso() })
      .execute();
  } catch (err) {
    // Instances started together: another one created it (and tells its password).
    if (integrityViolation(err) === 'unique') return null;
    throw err;
  }
  return { email, password, generated };
}

/** Failures per email within the window, in this process (the platform store has no table for them). */
function failureCounter(max: number, windowMs: number) {
  const seen = new Map<string, number[]>();
  const recent = (key: string, now: number) => (seen.get(key) ?? []).filter((t) => t > now - windowMs);
  return {
    blocked: (key: string, now = Date.now()) => recent(key, now).length >= max,
    add(key: string, now = Date.now()) {
      if (seen.size > 10_000) for (const [k] of seen) if (recent(k, now).length === 0) seen.delete(k);
      seen.set(key, [...recent(key, now), now]);
    },
    clear: (key: string) => seen.delete(key),
  };
}

/** «2 декабря 2026 г. в 08:00 UTC»: when an owner did something, in the studio's problem line. */
const when = () =>
  `${new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date())} UTC`;

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

export async function platformRoutes(app: FastifyInstance, deps: PlatformRouteDeps): Promise<void> {
  const { config, store, servers, host } = deps;
  const announce = deps.announce ?? ((t: string) => console.log(t));

  const first = await ensurePlatformOwner(store, {
    email: config.firstSuperuser,
    password: config.firstSuperuserPassword,
  });
  if (first)
    announce(
      `\nPlatform owner created: ${first.email}\n${
        first.generated
          ? `password: ${first.password}  (generated: shown this once, keep it)`
          : 'password: from FIRST_SUPERUSER_PASSWORD'
      }\n`,
    );

  const failures = failureCounter(LOGIN_FAILURES_MAX, LOGIN_FAILURE_WINDOW_MS);
  const attempts = failureCounter(LOGINS_PER_MINUTE_PER_ADDRESS, 60_000);
  const owners = new WeakMap<FastifyRequest, PlatformOwner>();
  const webhooks = new Map<number, { at: number; info: Promise<PlatformWebhook | null> }>();

  const dataFile = (studio: Studio) =>
    servers.dialect === 'sqlite' ? path.resolve(config.dataDir, studio.location) : null;

  /** The studio's database, or null when it has none here (no file: nothing is created by looking). */
  function openData(studio: Studio): Database | null {
    const file = dataFile(studio);
    if (file !== null && (studio.location === '' || !fs.existsSync(file))) return null;
    return openStudioDatabase(studio, servers, config.dataDir);
  }

  async function readHealth(studio: Studio, now: number): Promise<PlatformStudioHealth> {
    const database = openData(studio);
    if (!database) throw new Error('нет файла данных');
    try {
      const db = database.db;
      const since = new Date(now - DAY_MS).toISOString();
      const backlog = await outboxBacklog(db);
      const retrying = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'pending')
        .where('last_error', 'is not', null)
        .executeTakeFirstOrThrow();
      const failed = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'failed')
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      const last = await db
        .selectFrom('notifications')
        .select(['last_error', 'created_at'])
        .where('last_error', 'is not', null)
        .where('created_at', '>=', since)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return {
        pending: backlog.pending,
        oldest_pending_s: backlog.oldest_age_s === null ? null : Math.round(backlog.oldest_age_s),
        retrying: Number(retrying.n),
        failed_24h: Number(failed.n),
        rate_limited_24h: deps.sendStats.rateLimited(studio.id, now - DAY_MS),
        last_error: last?.last_error ?? null,
        last_error_at: last ? iso(last.created_at) : null,
      };
    } finally {
      await database.close();
    }
  }

  /** Telegram's getWebhookInfo of a bot, at most once a minute; null when Telegram does not answer in time. */
  function webhookOf(botId: number, sealedToken: string): Promise<PlatformWebhook | null> {
    const cached = webhooks.get(botId);
    if (cached && Date.now() - cached.at < WEBHOOK_CACHE_MS) return cached.info;
    const info = (async () => {
      try {
        const token = decrypt(config.secretKey, sealedToken);
        const res = await fetch(`${config.telegramApiRoot}/bot${token}/getWebhookInfo`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
        const body = (await res.json()) as {
          ok?: boolean;
          result?: {
            url?: string;
            pending_update_count?: number;
            last_error_date?: number;
            last_error_message?: string;
          };
        };
        if (!body.ok || !body.result) return null;
        const r = body.result;
        return {
          url: r.url ?? '',
          pending_update_count: r.pending_update_count ?? 0,
          last_error: r.last_error_message ?? null,
          last_error_at: r.last_error_date ? new Date(r.last_error_date * 1000).toISOString() : null,
        };
      } catch {
        return null;
      }
    })();
    webhooks.set(botId, { at: Date.now(), info });
    return info;
  }

  async function studioOf(req: FastifyRequest): Promise<Studio> {
    const id = Number((req.params as { id?: string }).id);
    const studio =
      Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647
        ? await store.db.selectFrom('studios').selectAll().where('id', '=', id).executeTakeFirst()
        : undefined;
    if (!studio) throw new HttpError(404, PLATFORM_MSG.noStudio);
    return studio;
  }

  const ownerOf = (req: FastifyRequest) => owners.get(req)!;

  async function view(studio: Studio): Promise<PlatformStudio> {
    const [one] = await viewAll([studio]);
    return one;
  }

  async function viewAll(studios: Studio[]): Promise<PlatformStudio[]> {
    const bots = studios.length
      ? await store.db
          .selectFrom('bots')
          .selectAll()
          .where(
            'studio_id',
            'in',
            studios.map((s) => s.id),
          )
          .execute()
      : [];
    const now = Date.now();
    const out: PlatformStudio[] = new Array(studios.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < studios.length; i = next++) {
        const s = studios[i];
        const bot = bots.find((b) => b.studio_id === s.id);
        let health: PlatformStudioHealth | null = null;
        let healthProblem: string | null = null;
        const [h, webhook] = await Promise.all([
          readHealth(s, now).catch((err: unknown) => {
            healthProblem = `Данные студии не прочитались: ${err instanceof Error ? err.message : String(err)}`;
            return null;
          }),
          bot?.state === 'ok' ? webhookOf(Number(bot.bot_id), bot.token) : Promise.resolve(null),
        ]);
        health = h;
        out[i] = {
          id: s.id,
          slug: s.slug,
          name: s.name,
          status: s.status,
          problem: s.problem,
          server: s.server,
          version: s.version,
          created_at: iso(s.created_at),
          owner_telegram_id: s.owner_telegram_id === null ? null : Number(s.owner_telegram_id),
          bot: bot ? { username: bot.username, state: bot.state, problem: bot.problem } : null,
          health,
          health_problem: healthProblem,
          webhook,
        };
      }
    };
    await Promise.all(Array.from({ length: Math.min(HEALTH_CONCURRENCY, studios.length) }, worker));
    return out;
  }

  await app.register(
    async (scope) => {
      await scope.register(fastifyJwt, {
        secret: platformOwnerKey(config.secretKey),
        sign: { algorithm: 'HS256', expiresIn: TOKEN_TTL, aud: AUDIENCE },
        verify: { algorithms: ['HS256'], allowedAud: AUDIENCE },
      });
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16_384 },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      scope.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
        if (err instanceof HttpError) return reply.status(err.statusCode).send({ detail: err.detail });
        const status = err.statusCode ?? 500;
        if (status >= 400 && status < 500)
          return reply.status(status).send({
            detail:
              status === 415
                ? 'Неподдерживаемый тип данных: пришлите JSON или форму'
                : status === 413
                  ? 'Слишком большой запрос'
                  : PLATFORM_MSG.badRequest,
          });
        req.log.error({ err }, 'platform api: request failed');
        return reply.status(500).send({ detail: PLATFORM_MSG.internal });
      });

      // Before the body is read: an anonymous caller gets 401, never field messages.
      scope.addHook('onRequest', async (req) => {
        if (req.routeOptions.config.platformPublic) return;
        const [scheme, token = ''] = (req.headers.authorization ?? '').trim().split(/\s+/, 2);
        if (scheme.toLowerCase() !== 'bearer' || !token) throw new HttpError(401, PLATFORM_MSG.notAuthenticated);
        let sub: string;
        try {
          sub = scope.jwt.verify<{ sub: string }>(token).sub;
        } catch {
          throw new HttpError(401, PLATFORM_MSG.badToken);
        }
        const id = Number(sub);
        const owner = Number.isSafeInteger(id)
          ? await store.db.selectFrom('owners').select(['id', 'email']).where('id', '=', id).executeTakeFirst()
          : undefined;
        if (!owner) throw new HttpError(401, PLATFORM_MSG.badToken);
        owners.set(req, owner);
      });

      scope.post('/login', { config: { platformPublic: true } }, async (req, reply) => {
        const body = (req.body ?? {}) as Record<string, unknown>;
        const email = (text(body.email) || text(body.username)).trim().toLowerCase();
        const password = text(body.password);
        if (!email || !password) throw new HttpError(422, PLATFORM_MSG.credentialsMissing);
        if (attempts.blocked(req.ip)) throw new HttpError(429, PLATFORM_MSG.tooManyLogins);
        attempts.add(req.ip);
        if (failures.blocked(email)) throw new HttpError(429, PLATFORM_MSG.tooManyFailures);
        const owner = await store.db.selectFrom('owners').selectAll().where('email', '=', email).executeTakeFirst();
        const ok = owner ? await verifyPassword(password, owner.password_hash) : await verifyDummy(password);
        if (!owner || !ok) {
          failures.add(email);
          throw new HttpError(401, PLATFORM_MSG.badCredentials);
        }
        failures.clear(email);
        reply.header('cache-control', 'no-store');
        return { access_token: scope.jwt.sign({ sub: String(owner.id) }), token_type: 'bearer' };
      });

      scope.get('/me', async (req): Promise<PlatformOwner> => ownerOf(req));

      scope.get('/studios', async (_req, reply): Promise<PlatformStudioList> => {
        const studios = await store.db.selectFrom('studios').selectAll().orderBy('id').execute();
        reply.header('cache-control', 'no-store');
        return { studios: await viewAll(studios), latest_version: LATEST_MIGRATION };
      });

      scope.post('/studios/:id/suspend', async (req): Promise<PlatformStudio> => {
        const studio = await studioOf(req);
        if (studio.status === 'moving') throw new HttpError(409, PLATFORM_MSG.moving);
        if (studio.status !== 'suspended') {
          const problem = `Приостановлена владельцем платформы ${ownerOf(req).email}, ${when()}`;
          await store.db
            .updateTable('studios')
            .set({ status: 'suspended', problem })
            .where('id', '=', studio.id)
            .where('status', '!=', 'moving')
            .execute();
        }
        // At once: its live app (bot, outbox) closes; the next request finds it suspended.
        await host.closeStudio(studio.slug);
        req.log.info({ studio: studio.slug, owner: ownerOf(req).email }, 'platform: studio suspended');
        return view(await studioOf(req));
      });

      scope.post('/studios/:id/resume', async (req): Promise<PlatformStudio> => {
        const studio = await studioOf(req);
        if (studio.status !== 'suspended') throw new HttpError(409, PLATFORM_MSG.notSuspended);
        await store.db
          .updateTable('studios')
          .set({ status: 'active', problem: null })
          .where('id', '=', studio.id)
          .where('status', '=', 'suspended')
          .execute();
        await host.closeStudio(studio.slug);
        req.log.info({ studio: studio.slug, owner: ownerOf(req).email }, 'platform: studio resumed');
        return view(await studioOf(req));
      });

      scope.get('/studios/:id/export', async (req, reply) => {
        const studio = await studioOf(req);
        if (studio.status === 'moving') throw new HttpError(409, PLATFORM_MSG.moving);
        const database = openData(studio);
        if (!database) throw new HttpError(404, PLATFORM_MSG.noData);
        const lines = exportStudio(database)[Symbol.asyncIterator]();
        let head: IteratorResult<string>;
        try {
          // The first line before the answer's headers: a studio that cannot be read answers an error, not a broken file.
          head = await lines.next();
        } catch (err) {
          await database.close();
          throw err;
        }
        async function* body() {
          try {
            if (!head.done) yield `${head.value}\n`;
            for (let r = await lines.next(); !r.done; r = await lines.next()) yield `${r.value}\n`;
          } finally {
            await lines.return?.(undefined);
            await database!.close();
          }
        }
        const gzip = createGzip();
        pipeline(Readable.from(body()), gzip, (err) => {
          if (err) req.log.error({ err, studio: studio.slug }, 'platform: export failed');
        });
        req.log.info({ studio: studio.slug, owner: ownerOf(req).email }, 'platform: studio exported');
        return reply
          .header('content-type', 'application/gzip')
          .header('content-disposition', `attachment; filename="${studio.slug}-${nowIso().slice(0, 10)}.ndjson.gz"`)
          .header('cache-control', 'no-store')
          .send(gzip);
      });

      scope.delete('/studios/:id', async (req): Promise<PlatformDeleted> => {
        const studio = await studioOf(req);
        const confirm = text((req.body as { confirm?: unknown } | null)?.confirm);
        if (confirm !== studio.slug) throw new HttpError(422, PLATFORM_MSG.confirm(studio.slug));
        if (studio.status === 'moving') throw new HttpError(409, PLATFORM_MSG.moving);
        if (servers.dialect === 'postgres' && studio.location === 'public')
          throw new HttpError(409, PLATFORM_MSG.sharedSchema);
        const who = ownerOf(req).email;
        // Not served from here on: a request meanwhile answers 503 instead of opening it again.
        await store.db
          .updateTable('studios')
          .set({ status: 'suspended', problem: `Удаляется владельцем платформы ${who}, ${when()}` })
          .where('id', '=', studio.id)
          .execute();
        await host.closeStudio(studio.slug);
        const bot = await store.db.selectFrom('bots').selectAll().where('studio_id', '=', studio.id).executeTakeFirst();
        let webhookRemoved = false;
        let webhookProblem: string | null = null;
        if (bot) {
          try {
            await removeStudioBot({ apiRoot: config.telegramApiRoot, token: decrypt(config.secretKey, bot.token) });
            webhookRemoved = true;
          } catch (err) {
            webhookProblem = `Вебхук бота @${bot.username} не снят: ${err instanceof Error ? err.message : String(err)}`;
            req.log.warn({ studio: studio.slug, err }, 'platform: deleteWebhook failed, deleting anyway');
          }
          webhooks.delete(Number(bot.bot_id));
        }
        try {
          await dropStudioData(studio, servers, config.dataDir);
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          await store.db
            .updateTable('studios')
            .set({ problem: PLATFORM_MSG.dropFailed(why) })
            .where('id', '=', studio.id)
            .execute();
          req.log.error({ studio: studio.slug, err }, 'platform: dropping the studio data failed');
          throw new HttpError(500, PLATFORM_MSG.dropFailed(why));
        }
        // Its bot, wakes and login links go with it (foreign keys, on delete cascade).
        await store.db.deleteFrom('studios').where('id', '=', studio.id).execute();
        req.log.warn({ studio: studio.slug, owner: who, webhook_removed: webhookRemoved }, 'platform: studio deleted');
        return { slug: studio.slug, webhook_removed: webhookRemoved, webhook_problem: webhookProblem };
      });
    },
    { prefix: PLATFORM_API },
  );
}
