import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Settings } from '../../contract';
import { getSettings, saveSettings } from '../../db/repositories/settings';
import type { RouteDeps } from './deps';

export default async function settingsRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'user' as const };
  const schema = { tags: ['settings'], response: { 200: Settings } };

  r.get('/settings/', { config, schema }, async (req) => getSettings(database.db, req.staff!.id));
  r.post('/settings/', { config, schema: { ...schema, body: Settings } }, async (req) => saveSettings(database.db, req.staff!.id, req.body));
}
