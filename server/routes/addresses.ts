import type { FastifyInstance } from 'fastify';
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
import { getAddress, listAddresses } from '../../db/repositories/addresses';
import { NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { CATALOG_MSG, addresses } from '../../core/catalog/catalog';

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
    async (req, reply) => reply.status(201).send(await addresses.create(database, actorOf(req), req.body)),
  );

  r.get(
    '/address/:id',
    { config, schema: { tags, summary: 'An address by id', params: IdParam, response: { 200: AddressPublic } } },
    async (req) => {
      const a = await getAddress(db, req.params.id);
      if (!a) throw new NotFound(CATALOG_MSG.addressNotFound);
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
      return addresses.update(database, actorOf(req), req.params.id, req.body);
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
      await addresses.remove(database, actorOf(req), req.params.id);
      return { message: 'Address deleted successfully' };
    },
  );
}
