import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DateRange, IdParam, rangeBounds } from '../../contract';
import { listBookingsBetween, listParticipants } from '../../db/repositories/exports';
import { getSchedule } from '../../db/repositories/schedules';
import { BOOKING_COLUMNS, PARTICIPANT_COLUMNS, bookingCells, participantCells } from '../../core/booking/participants';
import { MSG } from '../../core/kernel/messages';
import { NotFound } from '../../core/kernel/errors';
import { toCsv } from '../csv';
import type { RouteDeps } from './deps';

const CSV = 'text/csv; charset=utf-8';

export default async function exportsRoutes(app: FastifyInstance, { database, config: appConfig }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const config = { auth: 'user' as const };
  const tz = appConfig.businessTimezone;

  r.get(
    '/schedule/:id/participants.csv',
    {
      config,
      schema: {
        tags: ['schedule'],
        summary: "The chef's list of a session as CSV (UTF-8 with BOM, ';'): ACTIVE, then the queue",
        params: IdParam,
      },
    },
    async (req, reply) => {
      if (!(await getSchedule(db, req.params.id))) throw new NotFound(MSG.scheduleNotFound);
      const rows = await listParticipants(db, req.params.id);
      return reply
        .type(CSV)
        .header('content-disposition', `attachment; filename="participants-${req.params.id}.csv"`)
        .send(
          toCsv(
            PARTICIPANT_COLUMNS,
            rows.map((row) => participantCells(row, tz)),
          ),
        );
    },
  );

  r.get(
    '/records/export.csv',
    {
      config,
      schema: {
        tags: ['records'],
        summary: 'Every booking of the sessions in a date range as CSV (UTF-8 with BOM, ";")',
        querystring: DateRange,
      },
    },
    async (req, reply) => {
      const rows = await listBookingsBetween(db, rangeBounds(req.query, appConfig.businessTimezone));
      const name = ['bookings', req.query.from, req.query.to]
        .filter(Boolean)
        .join('-')
        .replace(/[^\w.-]/g, '');
      return reply
        .type(CSV)
        .header('content-disposition', `attachment; filename="${name}.csv"`)
        .send(
          toCsv(
            BOOKING_COLUMNS,
            rows.map((row) => bookingCells(row, tz)),
          ),
        );
    },
  );
}
