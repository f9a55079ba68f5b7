import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam, RecordAttendance, RecordView } from '../../contract';
import { getRecord } from '../../db/repositories/records';
import { setAttendance } from '../../core/booking/attendance';
import { viewRecord } from '../../core/booking/engine';
import { MSG } from '../../core/kernel/messages';
import { NotFound } from '../../core/kernel/errors';
import { actorOf } from '../plugins/actor';
import { toRecordView } from './records';
import type { RouteDeps } from './deps';

export default async function attendanceRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/records/:id/attendance',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['records'],
        summary: 'Check-in: mark an ACTIVE booking as attended or a no-show (from one hour before the start)',
        errors: [404, 409],
        params: IdParam,
        body: RecordAttendance,
        response: { 200: RecordView },
      },
    },
    async (req) => {
      const rec = await getRecord(database.db, req.params.id);
      if (!rec) throw new NotFound(MSG.recordNotFound);
      const updated = await setAttendance(database, rec, req.body.attendance, actorOf(req));
      return toRecordView(await viewRecord(database.db, updated));
    },
  );
}
