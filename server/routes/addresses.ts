import type { FastifyInstance } from 'fastify';
import { withCoordinates } from '../../contract/map-coordinates';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AddressCreate,
  AddressesPublic,
  AddressPublic,
  AddressUpdate,
  IdParam,
  Message,
  Pagination,
} from '../../contract';
import {
  countSchedulesOfAddress,
  deleteAddress,
  getAddress,
  insertAddress,
  listAddresses,
  updateAddress,
} from '../../db/repositories/addresses';
import { Conflict, NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { createAudited, deleteAudited, updateAudited } from '../../core/notify/audited-change';

const NOT_FOUND = 'Адрес не найден';

export default async function addressesRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['address'];
  const config = { auth: 'user' as const };

  r.get(
    '/address/',
    {
      config,
      schema: { tags, summary: 'List addresses', querystring: Pagination, response: { 200: AddressesPublic } },
    },
    async (req) => listAddresses(db, req.query.skip, req.query.limit),
  );

  r.post(
    '/address/',
    { config, schema: { tags, summary: 'Create an address', body: AddressCreate, response: { 201: AddressPublic } } },
    async (req, reply) =>
      reply
        .status(201)
        .send(
          await createAudited(database, 'address', actorOf(req), (trx) =>
            insertAddress(trx, withCoordinates(req.body)),
          ),
        ),
  );

  r.get(
    '/address/:id',
    { config, schema: { tags, summary: 'An address by id', params: IdParam, response: { 200: AddressPublic } } },
    async (req) => {
      const a = await getAddress(db, req.params.id);
      if (!a) throw new NotFound(NOT_FOUND);
      return a;
    },
  );

  r.put(
    '/address/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Update an address',
        params: IdParam,
        body: AddressUpdate,
        response: { 200: AddressPublic },
      },
    },
    async (req) => {
      const a = await updateAudited(
        database,
        'address',
        req.params.id,
        actorOf(req),
        (trx) => getAddress(trx, req.params.id),
        (trx) => updateAddress(trx, req.params.id, withCoordinates(req.body)),
      );
      if (!a) throw new NotFound(NOT_FOUND);
      return a;
    },
  );

  r.delete(
    '/address/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete an address no session uses',
        errors: [409],
        params: IdParam,
        response: { 200: Message },
      },
    },
    async (req) => {
      const deleted = await deleteAudited(
        database,
        'address',
        req.params.id,
        actorOf(req),
        (trx) => getAddress(trx, req.params.id),
        async (trx) => {
          const used = await countSchedulesOfAddress(trx, req.params.id);
          if (used > 0)
            throw new Conflict(
              `Нельзя удалить адрес: он указан в расписании (занятий: ${used}). Сначала измените или удалите эти занятия.`,
            );
          await deleteAddress(trx, req.params.id);
        },
      );
      if (!deleted) throw new NotFound(NOT_FOUND);
      return { message: 'Address deleted successfully' };
    },
  );
}
