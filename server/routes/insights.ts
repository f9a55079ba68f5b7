import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CustomerDetail,
  CustomersPage,
  CustomersQuery,
  Stats,
  StatsQuery,
  TelegramIdParam,
  rangeBounds,
} from '../../contract';
import { getCustomer, listCustomerBookings, listCustomers } from '../../db/repositories/customers';
import { nowIso } from '../../db/database';
import { dashboardStats } from '../../core/staff/stats';
import { NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';

/** What staff read about the business: the dashboard's figures and the customers. */
export default async function insightsRoutes(
  app: FastifyInstance,
  { database, config: { businessTimezone } }: RouteDeps,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const config = { auth: 'user' as const };

  r.get(
    '/stats/',
    {
      config,
      schema: {
        tags: ['stats'],
        summary: 'Dashboard figures for sessions in a period (default: the last 30 days) and the next 7 days',
        querystring: StatsQuery,
        response: { 200: Stats },
      },
    },
    async (req) => dashboardStats(db, rangeBounds(req.query, businessTimezone)),
  );

  r.get(
    '/customers/',
    {
      config,
      schema: {
        tags: ['customers'],
        summary: 'Telegram users who booked, newest first, searchable by name or login',
        querystring: CustomersQuery,
        response: { 200: CustomersPage },
      },
    },
    async (req) => {
      const { rows, count } = await listCustomers(db, req.query.q || undefined, req.query, nowIso());
      return { data: rows, count };
    },
  );

  r.get(
    '/customers/:telegram_id',
    {
      config,
      schema: {
        tags: ['customers'],
        summary: 'A customer with every booking, latest session first',
        params: TelegramIdParam,
        response: { 200: CustomerDetail },
      },
    },
    async (req) => {
      const customer = await getCustomer(db, req.params.telegram_id, nowIso());
      if (!customer) throw new NotFound('Клиент не найден');
      return { ...customer, records: await listCustomerBookings(db, req.params.telegram_id) };
    },
  );
}
