import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createDb } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';

// What a developer reads in `npm run dev`: one line per request (method, url, status, time), not Fastify's
// «incoming request» and «request completed» JSON pair; production writes one JSON object per request.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function logOf(env: 'development' | 'production', urls: string[]): Promise<Record<string, unknown>[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-log-'));
  dirs.push(dir);
  const config = loadConfig(
    {
      NODE_ENV: env,
      DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`,
      SECRET_KEY: 'request-log-test-secret-key-0123456789abcdef',
      DATA_DIR: dir,
      PUBLIC_URL: 'https://studio.example.com',
      FIRST_SUPERUSER: 'admin@example.com',
      FIRST_SUPERUSER_PASSWORD: 'superuser-password-1',
    },
    { dotenv: false },
  );
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const database = createDb(config.databaseUrl);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database, logger: pino({ level: 'info' }, sink) });
  for (const url of urls) await app.inject({ url });
  await app.close();
  return lines;
}

describe('the request log', () => {
  it('in development: one line per request with method, url, status and milliseconds', async () => {
    const lines = await logOf('development', ['/api/v1/utils/health-check/', '/api/v1/users/me', '/api/v1/nowhere']);
    const requests = lines.map((l) => String(l.msg)).filter((m) => /^(GET|POST) /.test(m));
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatch(/^GET \/api\/v1\/utils\/health-check\/ 200 \d+ ms$/);
    expect(requests[1]).toMatch(/^GET \/api\/v1\/users\/me 401 \d+ ms$/);
    expect(requests[2]).toMatch(/^GET \/api\/v1\/nowhere 404 \d+ ms$/);
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
  });

  it('in production: one JSON object per request, with the request, the response and its time', async () => {
    const lines = await logOf('production', ['/api/v1/utils/health-check/', '/api/v1/nowhere']);
    expect(lines.filter((l) => l.msg === 'incoming request')).toEqual([]);
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(2);
    expect(completed[0]).toMatchObject({
      req: { method: 'GET', url: '/api/v1/utils/health-check/' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      reqId: expect.any(String),
    });
    expect(completed[1]).toMatchObject({ req: { url: '/api/v1/nowhere' }, res: { statusCode: 404 } });
  });
});
