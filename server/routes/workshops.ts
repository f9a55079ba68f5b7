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
import {
  countSchedulesOfWorkshop,
  deleteWorkshop,
  getWorkshop,
  insertWorkshop,
  listWorkshops,
  updateWorkshop,
} from '../../db/repositories/workshops';
import { Conflict, NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { createAudited, deleteAudited, updateAudited } from '../../core/notify/audited-change';

const NOT_FOUND = 'Мастер-класс не найден';

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
    async (req, reply) =>
      reply
        .status(201)
        .send(await createAudited(database, 'workshop', actorOf(req), (trx) => insertWorkshop(trx, req.body))),
  );

  r.get(
    '/workshops/:id',
    { config, schema: { tags, summary: 'A workshop by id', params: IdParam, response: { 200: WorkshopPublic } } },
    async (req) => {
      const w = await getWorkshop(db, req.params.id);
      if (!w) throw new NotFound(NOT_FOUND);
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
      const w = await updateAudited(
        database,
        'workshop',
        req.params.id,
        actorOf(req),
        (trx) => getWorkshop(trx, req.params.id),
        (trx) => updateWorkshop(trx, req.params.id, req.body),
      );
      if (!w) throw new NotFound(NOT_FOUND);
      return w;
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
      const deleted = await deleteAudited(
        database,
        'workshop',
        req.params.id,
        actorOf(req),
        (trx) => getWorkshop(trx, req.params.id),
        async (trx) => {
          const used = await countSchedulesOfWorkshop(trx, req.params.id);
          if (used > 0)
            throw new Conflict(
              `Нельзя удалить мастер-класс: он есть в расписании (занятий: ${used}). Сначала удалите эти занятия.`,
            );
          await deleteWorkshop(trx, req.params.id);
        },
      );
      if (!deleted) throw new NotFound(NOT_FOUND);
      return { message: 'Workshop deleted successfully' };
    },
  );
}
