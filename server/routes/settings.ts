import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Settings } from '../../contract';
import { getSettings } from '../../db/repositories/settings';
import { requireStaff } from '../plugins/auth';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { saveOwnSettings } from '../../core/staff/settings';

export default async function settingsRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'user' as const };
  const schema = { tags: ['settings'], response: { 200: Settings } };

  r.get('/settings/', { config, schema: { ...schema, summary: 'Own notification settings' } }, async (req) =>
    getSettings(database.db, requireStaff(req).id),
  );
  r.post(
    '/settings/',
    { config, schema: { ...schema, summary: 'Save own notification settings', body: Settings } },
    async (req) => saveOwnSettings(database, actorOf(req), req.body),
  );
}
