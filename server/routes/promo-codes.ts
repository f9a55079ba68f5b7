import type { FastifyInstance } from 'fastify';
import { promoCodesApi } from '../../contract/endpoints/promo-codes';
import { createPromoCode, listCodes, quotePrice, updateCode } from '../../core/promo/promo-codes';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';

export default async function promoCodesRoutes(app: FastifyInstance, { database, config }: RouteDeps) {
  const tz = config.businessTimezone;

  route(app, promoCodesApi.list, async (req) => {
    const data = await listCodes(database.db, actorOf(req), tz);
    return { data, count: data.length };
  });

  route(app, promoCodesApi.create, async (req, reply) =>
    reply.status(201).send(await createPromoCode(database, actorOf(req), req.body, tz)),
  );

  route(app, promoCodesApi.update, async (req) => updateCode(database, actorOf(req), req.params.id, req.body, tz));

  route(app, promoCodesApi.quote, async (req) => quotePrice(database.db, actorOf(req), req.body));
}
