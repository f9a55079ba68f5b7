import type { FastifyInstance } from 'fastify';
import { businessSettingsApi } from '../../contract/endpoints/business-settings';
import { getBusinessSettings } from '../../core/kernel/settings';
import { telegramBusinessStatus } from '../../core/business/auto-answer';
import { changeBusinessSettings } from '../../core/staff/settings';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';

export default async function businessSettingsRoutes(app: FastifyInstance, { database }: RouteDeps) {
  route(app, businessSettingsApi.get, async () => getBusinessSettings(database.db));
  route(app, businessSettingsApi.telegramBusiness, async () => telegramBusinessStatus(database.db));
  route(app, businessSettingsApi.update, async (req) => changeBusinessSettings(database, actorOf(req), req.body));
}
