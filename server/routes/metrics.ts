import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';
import type { Metrics } from '../metrics';

const BAD_TOKEN = 'Нужен токен метрик: заголовок Authorization: Bearer <METRICS_TOKEN>';

const sameSecret = (given: string, expected: string) => {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
};

/**
 * GET /metrics in Prometheus's text format, for a scraper holding METRICS_TOKEN (Bearer), and every
 * request's duration by route and status. Registered only when the token is set.
 */
export default async function metricsRoutes(app: FastifyInstance, metrics: Metrics, token: string) {
  app.addHook('onResponse', async (req, reply) => {
    metrics.onRequest(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime);
  });

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const header = req.headers.authorization ?? '';
    const given = header.toLowerCase().startsWith('bearer ') ? header.slice('bearer '.length).trim() : '';
    if (!given || !sameSecret(given, token)) {
      void reply.header('www-authenticate', 'Bearer');
      throw new HttpError(401, BAD_TOKEN);
    }
    await metrics.refresh();
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
