import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import type { Database } from '../../db/database';
import { bool } from '../../db/database';
import { getUserById, type UserRow } from '../../db/repositories/users';
import { HttpError } from '../http-error';
import { verifyInitData, type TelegramUser } from './telegram-init-data';
import { noteTelegramLanguage } from '../../core/language/customer-language';
import type { Access } from '../../contract/endpoints';
import type { Capability } from '../../contract/roles';
import { assertCan, staffActor } from '../../core/kernel/actor';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route (its endpoint description says). Every /api route declares it; the check
     * below runs before the handler, so no route can forget it.
     */
    auth?: Access;
    /** What a staff caller's role must be able to do (contract/roles.ts). */
    can?: Capability;
  }
  interface FastifyInstance {
    /** The studio's time zone: a host's days are counted on its clock. */
    businessTimezone: string;
  }
  interface FastifyRequest {
    /** The staff member behind a Bearer token. */
    staff: UserRow | null;
    telegramUser: TelegramUser | null;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    /** ver: the user's token_version when signed; a password change bumps it and ends older tokens. */
    payload: { sub: string; ver?: number };
  }
}

export const TOKEN_TTL = '8d';

export async function registerAuth(
  app: FastifyInstance,
  opts: { database: Database; secretKey: string; botToken?: string; businessTimezone: string },
) {
  app.decorate('businessTimezone', opts.businessTimezone);
  await app.register(fastifyJwt, {
    secret: opts.secretKey,
    sign: { algorithm: 'HS256', expiresIn: TOKEN_TTL },
    verify: { algorithms: ['HS256'] },
  });
  app.decorateRequest('staff', null);
  app.decorateRequest('telegramUser', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.method === 'HEAD') return;
    const { auth, can } = route.config ?? {};
    if (!auth) throw new Error(`Route ${String(route.method)} ${route.url} declares no config.auth`);
    if (auth !== 'public' && !can) throw new Error(`Route ${String(route.method)} ${route.url} declares no config.can`);
  });

  // onRequest, before the body is parsed and validated: an anonymous caller gets 401, never field messages.
  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config.auth;
    if (!access || access === 'public') return;
    const [scheme, credentials] = splitAuthorization(req);
    if (access === 'customer' && scheme === 'tma') {
      if (!opts.botToken) throw new HttpError(503, 'Telegram не настроен на сервере');
      const tgUser = credentials ? verifyInitData(credentials, opts.botToken) : null;
      if (!tgUser) throw new HttpError(401, 'Недействительные данные Telegram: откройте приложение из бота заново');
      req.telegramUser = tgUser;
      // The app's language is the customer's too: notifications written later follow it.
      if (tgUser.language_code) await noteTelegramLanguage(opts.database.db, tgUser.id, tgUser.language_code);
      return;
    }
    if (scheme !== 'bearer' || !credentials) throw new HttpError(401, 'Not authenticated');
    req.staff = await staffFromToken(app, opts.database, credentials);
    // The role table decides; a host's days are the commands' own check.
    assertCan(staffActor(req.staff, opts.businessTimezone), req.routeOptions.config.can!);
  });
}

/** The staff member behind the request: set by the check above on staff routes (and customer routes called by staff). */
export function requireStaff(req: FastifyRequest): UserRow {
  if (!req.staff) throw new HttpError(401, 'Not authenticated');
  return req.staff;
}

function splitAuthorization(req: FastifyRequest): [string, string] {
  const header = req.headers.authorization ?? '';
  const space = header.indexOf(' ');
  if (space < 0) return [header.toLowerCase(), ''];
  return [header.slice(0, space).toLowerCase(), header.slice(space + 1).trim()];
}

async function staffFromToken(app: FastifyInstance, database: Database, token: string): Promise<UserRow> {
  let payload: { sub: string; ver?: number };
  try {
    payload = app.jwt.verify<{ sub: string; ver?: number }>(token);
  } catch {
    throw new HttpError(401, 'Could not validate credentials');
  }
  const id = Number(payload.sub);
  const user = Number.isSafeInteger(id) ? await getUserById(database.db, id) : undefined;
  // Tokens signed before the version existed carry none: they count as version 0.
  if (!user || (payload.ver ?? 0) !== user.token_version) throw new HttpError(401, 'Could not validate credentials');
  if (!bool(user.is_active)) throw new HttpError(401, 'Inactive user');
  return user;
}
