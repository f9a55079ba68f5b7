import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';

// Trying the mini-app in an ordinary browser during development: /dev/miniapp signs a test customer's init data
// with the server's bot token and opens the mini-app with it, as Telegram would. Production has no such door.

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((a) => a.close())));

async function app(env: Record<string, string> = {}) {
  const t = await buildTestApp({ env });
  apps.push(t);
  return t;
}

describe('GET /dev/miniapp', () => {
  it('in development opens the mini-app as a signed test customer whom the API accepts', async () => {
    const t = await app();
    const res = await t.app.inject({ url: '/dev/miniapp?id=4242&name=Ana&lang=sr&to=/record/7' });
    expect(res.statusCode).toBe(302);
    const [page, hash] = String(res.headers.location).split('#');
    expect(page).toBe('/record/7');
    const launch = new URLSearchParams(hash);
    const initData = launch.get('tgWebAppData')!;
    expect(JSON.parse(new URLSearchParams(initData).get('user')!)).toEqual({
      id: 4242,
      first_name: 'Ana',
      language_code: 'sr',
    });
    const me = await t.app.inject({ url: '/api/v1/language', headers: { authorization: `tma ${initData}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ language: 'sr' });
    // The same data, altered, is refused: the signature is real.
    const forged = initData.replace('4242', '4243');
    const refused = await t.app.inject({ url: '/api/v1/language', headers: { authorization: `tma ${forged}` } });
    expect(refused.statusCode).toBe(401);
  });

  it('refuses a page of another site and a bad id', async () => {
    const t = await app();
    expect((await t.app.inject({ url: '/dev/miniapp?to=//evil.example.com' })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/dev/miniapp?id=-1' })).statusCode).toBe(400);
  });

  it('does not exist in production: no redirect, no signed init data', async () => {
    const t = await app({ NODE_ENV: 'production', PUBLIC_URL: 'https://studio.example.com' });
    const res = await t.app.inject({ url: '/dev/miniapp?id=4242' });
    expect(res.statusCode).not.toBe(302);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).not.toContain('tgWebAppData');
  });
});
