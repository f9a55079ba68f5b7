import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ForgetResult, PersonalDataExport, PrivacyPublic, TelegramIdParam } from '../../contract';
import { currentPrivacy } from '../../core/booking/consent';
import { exportPersonalData, forgetPerson, type TelegramPerson } from '../../core/privacy/personal-data';
import { Forbidden } from '../../core/kernel/errors';
import { actorOf } from '../plugins/actor';
import type { RouteDeps } from './deps';

/** The privacy text, and a Telegram customer's own data: export and erasure. */
export default async function personalDataRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['personal data'];

  /** Only the Telegram user themself: staff manage bookings, not someone's right to be forgotten. */
  function me(req: FastifyRequest): TelegramPerson {
    if (!req.telegramUser) throw new Forbidden('Откройте приложение из Telegram: данные привязаны к вашему аккаунту');
    return { id: req.telegramUser.id, username: req.telegramUser.username ?? null };
  }

  r.get(
    '/privacy',
    {
      config: { auth: 'public' },
      schema: { tags, summary: 'The privacy text the booking consent refers to', response: { 200: PrivacyPublic } },
    },
    async () => currentPrivacy(database.db),
  );

  r.get(
    '/me/data',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Everything stored about the Telegram user',
        errors: [403],
        response: { 200: PersonalDataExport },
      },
    },
    async (req) => exportPersonalData(database.db, me(req)),
  );

  r.delete(
    '/me/data',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Cancel upcoming bookings and erase the Telegram user’s personal data',
        errors: [403],
        response: { 200: ForgetResult },
      },
    },
    async (req) => forgetPerson(database, me(req), actorOf(req)),
  );

  // A request that reached the studio another way (email, in person): a superuser answers it.
  r.get(
    '/customers/:telegram_id/data',
    {
      config: { auth: 'superuser' },
      schema: {
        tags,
        summary: 'Everything stored about a Telegram user, for their access request',
        params: TelegramIdParam,
        response: { 200: PersonalDataExport },
      },
    },
    async (req) => exportPersonalData(database.db, { id: req.params.telegram_id }),
  );

  r.delete(
    '/customers/:telegram_id/data',
    {
      config: { auth: 'superuser' },
      schema: {
        tags,
        summary: 'Erase a Telegram user’s personal data at their request',
        params: TelegramIdParam,
        response: { 200: ForgetResult },
      },
    },
    async (req) => forgetPerson(database, { id: req.params.telegram_id }, actorOf(req)),
  );
}
