import type { FastifyInstance, FastifyRequest } from 'fastify';
import { customersApi } from '../../contract/endpoints/customers';
import { personalDataApi } from '../../contract/endpoints/personal-data';
import { currentPrivacy } from '../../core/booking/consent';
import { exportPersonalData, forgetPerson, type TelegramPerson } from '../../core/privacy/personal-data';
import { Forbidden } from '../../core/kernel/errors';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import type { RouteDeps } from './deps';

/** The privacy text, and a Telegram customer's own data: export and erasure. */
export default async function personalDataRoutes(app: FastifyInstance, { database }: RouteDeps) {
  /** Only the Telegram user themself: staff manage bookings, not someone's right to be forgotten. */
  function me(req: FastifyRequest): TelegramPerson {
    if (!req.telegramUser) throw new Forbidden('appOnly');
    return { id: req.telegramUser.id, username: req.telegramUser.username ?? null };
  }

  route(app, personalDataApi.privacy, async () => currentPrivacy(database.db));

  route(app, personalDataApi.myData, async (req) => exportPersonalData(database.db, me(req)));

  route(app, personalDataApi.forgetMe, async (req) => forgetPerson(database, me(req), actorOf(req)));

  // A request that reached the studio another way (email, in person): a superuser answers it.
  route(app, customersApi.data, async (req) => exportPersonalData(database.db, { id: req.params.telegram_id }));

  route(app, customersApi.erase, async (req) => forgetPerson(database, { id: req.params.telegram_id }, actorOf(req)));
}
