import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

export default async function utilsRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/utils/health-check/',
    {
      config: { auth: 'public' },
      schema: { tags: ['utils'], summary: 'Health check', response: { 200: z.boolean() } },
    },
    async () => true,
  );
}
