import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BusinessSettings, BusinessSettingsUpdate } from '../../contract/business-settings';
import { getBusinessSettings } from '../../core/staff/business-settings';
import { changeBusinessSettings } from '../../core/staff/settings';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';

export default async function businessSettingsRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['business-settings'];

  r.get(
    '/business-settings/',
    {
      config: { auth: 'user' },
      schema: { tags, summary: "The studio's settings (any staff member)", response: { 200: BusinessSettings } },
    },
    async () => getBusinessSettings(database.db),
  );
  r.put(
    '/business-settings/',
    {
      config: { auth: 'superuser' },
      schema: {
        tags,
        summary: "Change the studio's settings (superuser); fields left out keep their values",
        body: BusinessSettingsUpdate,
        response: { 200: BusinessSettings },
      },
    },
    async (req) => changeBusinessSettings(database, actorOf(req), req.body),
  );
}
