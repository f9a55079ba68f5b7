import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app';

// GET /api/v1/utils/ready: what a load balancer asks before sending a request to this instance.
// (Three instances, a drain on SIGTERM and a database cut away: tests/server/instances.test.ts.)
describe('readiness', () => {
  it('200 while the database answers; 503 with a detail at once when the instance drains', async () => {
    const lifecycle = { draining: false };
    const t = await buildTestApp({ lifecycle });
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/api/v1/utils/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toBe(true);
      lifecycle.draining = true;
      const draining = await t.app.inject({ method: 'GET', url: '/api/v1/utils/ready' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toEqual({ detail: 'Сервер останавливается: запросы принимают другие экземпляры' });
      // Liveness is another question: the process is fine.
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/utils/health-check/' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('503 with a detail when the database does not answer', async () => {
    const t = await buildTestApp();
    try {
      await t.database.db.destroy();
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/utils/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'База данных недоступна' });
    } finally {
      await t.close().catch(() => {});
    }
  });
});
