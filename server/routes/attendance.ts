import type { FastifyInstance } from 'fastify';
import { recordsApi } from '../../contract/endpoints/records';
import { setAttendance } from '../../core/booking/attendance';
import { viewRecord } from '../../core/booking/engine';
import { actorOf } from '../plugins/actor';
import { recordPage, recordView } from '../../core/views/record-view';
import type { RouteDeps } from './deps';
import { route } from '../route';

export default async function attendanceRoutes(app: FastifyInstance, { database, config }: RouteDeps) {
  route(app, recordsApi.attendance, async (req) => {
    const actor = actorOf(req);
    await setAttendance(database, actor, req.params.id, req.body.attendance);
    return recordView(database.db, actor, await viewRecord(database.db, actor, req.params.id), recordPage(config));
  });
}
