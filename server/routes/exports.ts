import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { exportBounds } from '../../contract';
import { recordsApi } from '../../contract/endpoints/records';
import { scheduleApi } from '../../contract/endpoints/schedule';
import { bookingsInPages, listParticipants } from '../../db/repositories/exports';
import { getSchedule } from '../../db/repositories/schedules';
import { BOOKING_COLUMNS, PARTICIPANT_COLUMNS, bookingCells, participantCells } from '../../core/booking/participants';
import { MSG } from '../../core/kernel/messages';
import { NotFound, Unprocessable } from '../../core/kernel/errors';
import { csvStream, toCsv } from '../csv';
import type { RouteDeps } from './deps';
import { route } from '../route';

const CSV = 'text/csv; charset=utf-8';
/** Sessions whose bookings are read per query while an export streams: memory stays the same whatever the period holds. */
export const EXPORT_PAGE = 50;

export default async function exportsRoutes(app: FastifyInstance, { database, config: appConfig }: RouteDeps) {
  const db = database.db;
  const tz = appConfig.businessTimezone;

  route(app, scheduleApi.participantsCsv, async (req, reply) => {
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
  });

  route(app, recordsApi.exportCsv, async (req, reply) => {
    const range = exportBounds(req.query, tz);
    if (!range) throw new Unprocessable('exportTooLong');
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
  });
}
