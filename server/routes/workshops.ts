import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IdParam,
  Message,
  Pagination,
  WorkshopCreate,
  WorkshopPublic,
  WorkshopsPublic,
  WorkshopUpdate,
} from '../../contract';
import { getWorkshop, listWorkshops } from '../../db/repositories/workshops';
import { NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { CATALOG_MSG, workshops } from '../../core/catalog/catalog';

export default async function workshopsRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['workshops'];
  const config = { auth: 'user' as const };

  r.get(
    '/workshops/',
    {
      config,
      schema: { tags, summary: 'List workshops', querystring: Pagination, response: { 200: WorkshopsPublic } },
    },
    async (req) => listWorkshops(db, req.query.skip, req.query.limit),
  );

  r.post(
    '/workshops/',
    { config, schema: { tags, summary: 'Create a workshop', body: WorkshopCreate, response: { 201: WorkshopPublic } } },
    async (req, reply) => reply.status(201).send(await workshops.create(database, actorOf(req), req.body)),
  );

  r.get(
    '/workshops/:id',
    { config, schema: { tags, summary: 'A workshop by id', params: IdParam, response: { 200: WorkshopPublic } } },
    async (req) => {
      const w = await getWorkshop(db, req.params.id);
      if (!w) throw new NotFound(CATALOG_MSG.workshopNotFound);
      return w;
    },
  );

  r.put(
    '/workshops/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Update a workshop',
        params: IdParam,
        body: WorkshopUpdate,
        response: { 200: WorkshopPublic },
      },
    },
    async (req) => {
      return workshops.update(database, actorOf(req), req.params.id, req.body);
    },
  );

  r.delete(
    '/workshops/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a workshop no session uses',
        errors: [409],
        params: IdParam,
        response: { 200: Message },
      },
    },
    async (req) => {
      await workshops.remove(database, actorOf(req), req.params.id);
      return { message: 'Workshop deleted successfully' };
    },
  );
}
