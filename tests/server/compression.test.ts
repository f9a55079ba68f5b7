import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSession, inDays } from '../helpers/factories';

// A customer on a phone opens the mini-app: the public schedule it loads first travels compressed
// when the client says it can read gzip or brotli, and plain when it does not.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  const staff = await t.auth();
  for (let day = 1; day <= 8; day++) await createSession(t.app, staff, { date: inDays(day) });
});
afterAll(() => t.close());

const schedule = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/v1/schedule/public', headers });

describe('compressed answers', () => {
  it('sends the public schedule gzip-compressed to a client that accepts gzip, smaller and with the same sessions', async () => {
    const plain = await schedule();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().data).toHaveLength(8);

    const gzipped = await schedule({ 'accept-encoding': 'gzip' });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(zlib.gunzipSync(gzipped.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('prefers brotli when the client offers it, as browsers do', async () => {
    const res = await schedule({ 'accept-encoding': 'gzip, deflate, br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString('utf8')).data).toHaveLength(8);
  });

  it('refuses a compressed request body instead of inflating it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workshops/',
      headers: { ...(await t.auth()), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify({ title: 'Паста', description: 'Домашняя', price: 3500 })),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'Unsupported Content-Encoding: gzip' });
  });
});
