import type { FastifyInstance } from 'fastify';
import { settingsApi } from '../../contract/endpoints/settings';
import { getSettings } from '../../db/repositories/settings';
import { requireStaff } from '../plugins/auth';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import { saveOwnSettings } from '../../core/staff/settings';

export default async function settingsRoutes(app: FastifyInstance, { database }: RouteDeps) {
  route(app, settingsApi.get, async (req) => getSettings(database.db, requireStaff(req).id));
  route(app, settingsApi.save, async (req) => saveOwnSettings(database, actorOf(req), req.body));
}
