import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';

// The two bundles from one origin, with the runtime config in a <meta>, pre-compressed assets,
// and headers that let Telegram's web client frame the mini-app.
let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-dist-'));
  for (const entry of ['webapp', 'admin']) {
    fs.mkdirSync(path.join(dist, entry));
    fs.writeFileSync(
      path.join(dist, entry, 'index.html'),
      `<!doctype html><html><head><title>${entry}</title></head><body></body></html>`,
    );
  }
  fs.mkdirSync(path.join(dist, 'assets'));
  const js = 'console.log("hello from the bundle");'.repeat(20);
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc.js'), js);
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc.js.br'), zlib.brotliCompressSync(js));
  t = await buildTestApp({ env: { DIST_DIR: dist, BUSINESS_NAME: 'Студия "Вкус" & Ко' } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('serving the front ends', () => {
  it('serves the mini-app at /apply and /record/:id and the admin everywhere else', async () => {
    for (const [url, title] of [
      ['/apply', 'webapp'],
      ['/record/12', 'webapp'],
      ['/', 'admin'],
      ['/schedule', 'admin'],
      ['/reset-password?token=x', 'admin'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body, url).toContain(`<title>${title}</title>`);
    }
  });

  it('puts the runtime config in an escaped <meta>', async () => {
    const html = (await t.app.inject({ method: 'GET', url: '/apply' })).body;
    const content = html.match(/<meta name="app-config" content="([^"]*)">/)![1];
    const decoded = content
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    expect(JSON.parse(decoded)).toEqual({
      businessName: 'Студия "Вкус" & Ко',
      businessTimezone: 'Europe/Belgrade',
      botEnabled: true,
      basePath: '',
    });
  });

  it("puts a studio's path prefix in the <meta> of every page; the routes stay at the root", async () => {
    const prefixed = await buildTestApp({ env: { DIST_DIR: dist }, config: { basePath: '/s/demo' } });
    try {
      for (const url of ['/apply', '/record/3', '/login', '/schedule']) {
        const res = await prefixed.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        const content = res.body.match(/<meta name="app-config" content="([^"]*)">/)![1].replace(/&quot;/g, '"');
        expect(JSON.parse(content).basePath, url).toBe('/s/demo');
      }
    } finally {
      await prefixed.close();
    }
  });

  it('sends assets pre-compressed with a long cache, and lets Telegram frame the pages', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toContain('immutable');
    const page = await t.app.inject({ method: 'GET', url: '/apply' });
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain('frame-ancestors');
    expect(page.headers['content-security-policy']).toContain('https://web.telegram.org');
  });

  it('answers a missing asset or API path with a JSON 404, not a page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/missing' })).json()).toEqual({ detail: 'Not Found' });
  });
});
