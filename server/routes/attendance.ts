import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam, RecordAttendance, RecordView } from '../../contract';
import { setAttendance } from '../../core/booking/attendance';
import { viewRecord } from '../../core/booking/engine';
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
      const actor = actorOf(req);
      await setAttendance(database, actor, req.params.id, req.body.attendance);
      return toRecordView(await viewRecord(database.db, actor, req.params.id));
    },
  );
}
