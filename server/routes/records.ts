import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordsApi } from '../../contract/endpoints/records';
import {
  cancelRecord,
  changePeopleCount,
  createRecord,
  restoreRecord,
  viewRecord,
  type Customer,
  type RecordResult,
} from '../../core/booking/engine';
import { recordPage, recordView } from '../../core/views/record-view';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';

export default async function recordsRoutes(app: FastifyInstance, { database, config: appConfig }: RouteDeps) {
  const db = database.db;
  const page = recordPage(appConfig);
  const view = (r: RecordResult, req: FastifyRequest) => recordView(db, actorOf(req), r, page);

  // A Telegram customer (verified init data) or staff; the commands check ownership.
  route(app, recordsApi.create, async (req, reply) => {
    // Identity comes from the verified init data, never from the body; staff may book on a customer's behalf.
    const customer: Customer = req.telegramUser
      ? { telegram_id: req.telegramUser.id, telegram_login: req.telegramUser.username ?? null }
      : { telegram_id: req.body.telegram_id ?? null, telegram_login: req.body.telegram_login ?? null };
    return reply
      .status(201)
      .send(await view(await createRecord(database, actorOf(req), req.body, customer, req.ip), req));
  });

  route(app, recordsApi.get, async (req) => {
    return view(await viewRecord(db, actorOf(req), req.params.id), req);
  });

  route(app, recordsApi.updatePeople, async (req) => {
    return view(await changePeopleCount(database, actorOf(req), req.params.id, req.body.people_count), req);
  });

  route(app, recordsApi.cancel, async (req) => {
    return view(await cancelRecord(database, actorOf(req), req.params.id, req.body.cancel_reason), req);
  });

  route(app, recordsApi.restore, async (req) => {
    return view(await restoreRecord(database, actorOf(req), req.params.id), req);
  });
}
