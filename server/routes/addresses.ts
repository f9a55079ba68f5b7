import type { FastifyInstance } from 'fastify';
import { addressesApi } from '../../contract/endpoints/addresses';
import { getAddress, listAddresses } from '../../db/repositories/addresses';
import { NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import { CATALOG_MSG, addresses } from '../../core/catalog/catalog';

export default async function addressesRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const db = database.db;

  route(app, addressesApi.list, async (req) => listAddresses(db, req.query.skip, req.query.limit));

  route(app, addressesApi.create, async (req, reply) =>
    reply.status(201).send(await addresses.create(database, actorOf(req), req.body)),
  );

  route(app, addressesApi.get, async (req) => {
    const a = await getAddress(db, req.params.id);
    if (!a) throw new NotFound(CATALOG_MSG.addressNotFound);
    return a;
  });

  route(app, addressesApi.update, async (req) => {
    return addresses.update(database, actorOf(req), req.params.id, req.body);
  });

  route(app, addressesApi.delete, async (req) => {
    await addresses.remove(database, actorOf(req), req.params.id);
    return { message: 'Address deleted successfully' };
  });
}
