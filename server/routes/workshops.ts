import type { FastifyInstance } from 'fastify';
import { workshopsApi } from '../../contract/endpoints/workshops';
import { getWorkshop, listWorkshops } from '../../db/repositories/workshops';
import { NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import { CATALOG_MSG, workshops } from '../../core/catalog/catalog';

export default async function workshopsRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const db = database.db;

  route(app, workshopsApi.list, async (req) => listWorkshops(db, req.query.skip, req.query.limit));

  route(app, workshopsApi.create, async (req, reply) =>
    reply.status(201).send(await workshops.create(database, actorOf(req), req.body)),
  );

  route(app, workshopsApi.get, async (req) => {
    const w = await getWorkshop(db, req.params.id);
    if (!w) throw new NotFound(CATALOG_MSG.workshopNotFound);
    return w;
  });

  route(app, workshopsApi.update, async (req) => {
    return workshops.update(database, actorOf(req), req.params.id, req.body);
  });

  route(app, workshopsApi.delete, async (req) => {
    await workshops.remove(database, actorOf(req), req.params.id);
    return { message: 'Workshop deleted successfully' };
  });
}
