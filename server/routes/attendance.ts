import type { FastifyInstance } from 'fastify';
import { recordsApi } from '../../contract/endpoints/records';
import { setAttendance } from '../../core/booking/attendance';
import { viewRecord } from '../../core/booking/engine';
import { actorOf } from '../plugins/actor';
import { toRecordView } from './records';
import type { RouteDeps } from './deps';
import { route } from '../route';

export default async function attendanceRoutes(app: FastifyInstance, { database }: RouteDeps) {
  route(app, recordsApi.attendance, async (req) => {
    const actor = actorOf(req);
    await setAttendance(database, actor, req.params.id, req.body.attendance);
    return toRecordView(await viewRecord(database.db, actor, req.params.id));
  });
}
