import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { DateRange, EXPORT_TOO_LONG, IdParam, exportBounds } from '../../contract';
import { bookingsInPages, listParticipants } from '../../db/repositories/exports';
import { getSchedule } from '../../db/repositories/schedules';
import { BOOKING_COLUMNS, PARTICIPANT_COLUMNS, bookingCells, participantCells } from '../../core/booking/participants';
import { MSG } from '../../core/kernel/messages';
import { NotFound, Unprocessable } from '../../core/kernel/errors';
import { csvStream, toCsv } from '../csv';
import type { RouteDeps } from './deps';

const CSV = 'text/csv; charset=utf-8';
/** Sessions whose bookings are read per query while an export streams: memory stays the same whatever the period holds. */
export const EXPORT_PAGE = 50;

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
        summary: 'Every booking of the sessions in a date range (at most 400 days) as CSV (UTF-8 with BOM, ";")',
        querystring: DateRange,
      },
    },
    async (req, reply) => {
      const range = exportBounds(req.query, tz);
      if (!range) throw new Unprocessable(EXPORT_TOO_LONG);
      const name = ['bookings', req.query.from, req.query.to]
        .filter(Boolean)
        .join('-')
        .replace(/[^\w.-]/g, '');
      return reply
        .type(CSV)
        .header('content-disposition', `attachment; filename="${name}.csv"`)
        .send(
          Readable.from(
            csvStream(BOOKING_COLUMNS, bookingsInPages(db, range, EXPORT_PAGE), (row) => bookingCells(row, tz)),
          ),
        );
    },
  );
}
