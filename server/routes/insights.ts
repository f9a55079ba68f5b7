import type { FastifyInstance } from 'fastify';
import { rangeBounds } from '../../contract';
import { customersApi } from '../../contract/endpoints/customers';
import { statsApi } from '../../contract/endpoints/stats';
import { getCustomer, listCustomerBookings, listCustomers } from '../../db/repositories/customers';
import { nowIso } from '../../db/database';
import { dashboardStats } from '../../core/staff/stats';
import { NotFound } from '../../core/kernel/errors';
import { setCustomerNote } from '../../core/staff/customer-notes';
import { actorOf } from '../plugins/actor';
import type { RouteDeps } from './deps';
import { route } from '../route';

/** What staff read about the business: the dashboard's figures and the customers. */
export default async function insightsRoutes(
  app: FastifyInstance,
  { database, config: { businessTimezone } }: RouteDeps,
) {
  const db = database.db;

  route(app, statsApi.dashboard, async (req) => dashboardStats(db, rangeBounds(req.query, businessTimezone)));

  route(app, customersApi.list, async (req) => {
    const { rows, count } = await listCustomers(db, req.query.q || undefined, req.query, nowIso());
    return { data: rows, count };
  });

  route(app, customersApi.get, async (req) => {
    const customer = await getCustomer(db, req.params.telegram_id, nowIso());
    if (!customer) throw new NotFound('customerNotFound');
    return { ...customer, records: await listCustomerBookings(db, req.params.telegram_id) };
  });

  route(app, customersApi.note, async (req) => ({
    telegram_id: req.params.telegram_id,
    note: await setCustomerNote(database, actorOf(req), req.params.telegram_id, req.body.note),
  }));
}
