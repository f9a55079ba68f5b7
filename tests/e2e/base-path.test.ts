/**
 * A studio served under a path prefix (`/s/<slug>`), as the platform will serve many studios from one
 * deployment: the platform strips the prefix before the server routes, so here a small HTTP proxy on
 * loopback forwards `/s/demo/…` to the test server without the prefix (everything else, the root
 * `/assets/`, unchanged), and the server is told its prefix (`config.basePath`), which it puts in every
 * page's <meta name="app-config">. Debian's Chromium then uses the admin and the mini-app through the
 * proxy: every API call goes to `/s/demo/api/v1`, links and navigation stay under `/s/demo`, and the
 * staff token is kept under this prefix's key only. Screenshots: test-results/screenshots/base-path-*.png.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { storageKey } from '../../contract/app-config';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { inDays } from '../helpers/factories';
import { launchHash, signedInitData, type TgUser } from '../helpers/miniapp';
import { startTestServer } from '../helpers/server';

const DIST = process.env.DIST_DIR ?? 'dist';
const PREFIX = '/s/demo';
const TOKEN_KEY = storageKey(PREFIX, 'access_token');

let server: Awaited<ReturnType<typeof startTestServer>>;
let proxy: http.Server;
/** The proxy's origin: the studio is at `${origin}/s/demo`. */
let origin: string;
let browser: Browser;
let staff: Record<string, string>;
const customer: TgUser = { id: 5560001, first_name: 'Мария', username: 'maria_demo' };
const ids = { schedule: 0, record: 0 };

/** The platform's part: `/s/demo/x` reaches the server as `/x`, any other path as it is. */
function startPrefixProxy(target: string): Promise<http.Server> {
  const upstream = new URL(target);
  const proxyServer = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const forwarded =
      url === PREFIX || url.startsWith(`${PREFIX}/`) || url.startsWith(`${PREFIX}?`)
        ? url.slice(PREFIX.length) || '/'
        : url;
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: forwarded.startsWith('/') ? forwarded : `/${forwarded}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  return new Promise((resolve) => proxyServer.listen(0, '127.0.0.1', () => resolve(proxyServer)));
}

async function call<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = staff) {
  // Through the proxy, as the pages call it.
  const res = await fetch(`${origin}${PREFIX}/api/v1${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A page whose requests are recorded (paths of this origin) and whose errors are collected. */
async function open(
  opts: { phone?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; requests: string[]; errors: string[] }> {
  const context = await browser.newContext(
    opts.phone
      ? {
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
          locale: 'ru-RU',
          timezoneId: 'Europe/Belgrade',
        }
      : { viewport: { width: 1280, height: 800 }, locale: 'ru-RU', timezoneId: 'Europe/Belgrade' },
  );
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.origin === origin) requests.push(u.pathname + u.search);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  return { context, page, requests, errors };
}

const pathOf = (page: Page) => new URL(page.url()).pathname;
const apiCalls = (requests: string[]) => requests.filter((p) => p.includes('/api/'));

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'admin', 'index.html')) || !fs.existsSync(path.join(DIST, 'webapp', 'index.html')))
    throw new Error(`No built bundles in ${DIST}: run \`npx vite build\` first`);
  server = await startTestServer({
    env: { DIST_DIR: DIST, BUSINESS_NAME: 'Пекарня «Демо»' },
    config: { basePath: PREFIX },
  });
  proxy = await startPrefixProxy(server.url);
  origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  staff = await server.auth();

  const workshop = await call<{ id: number }>('POST', '/workshops/', {
    title: 'Багет и фокачча',
    description: 'Хлеб на закваске',
    price: 3000,
  });
  const address = await call<{ id: number }>('POST', '/address/', {
    title: 'Нови Сад, Пекарска 5',
    map_link: 'https://maps.example.com/5',
    description: null,
  });
  ids.schedule = (
    await call<{ id: number }>('POST', '/schedule/', {
      date: inDays(4),
      capacity: 6,
      workshop_id: workshop.id,
      address_id: address.id,
    })
  ).id;
  ids.record = (
    await call<{ record: { id: number } }>(
      'POST',
      '/records/',
      { schedule_id: ids.schedule, name: 'Мария', people_count: 1, is_first_time: true, consent: true },
      { authorization: `tma ${signedInitData(customer)}` },
    )
  ).record.id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await server?.close();
});

describe('a studio under /s/demo', () => {
  it('the admin: login, pages, links and logout stay under the prefix; the API and the token are its own', async () => {
    const { context, page, requests, errors } = await open();
    // Another studio's token (the root install's key) on this origin: never used, never sent here.
    await context.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('access_token', 'root-studio-token');
        sessionStorage.setItem('seeded', '1');
      }
    });

    await page.goto(`${origin}${PREFIX}/schedule`);
    await page.waitForURL(`**${PREFIX}/login`);
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    await page.getByLabel('Email').fill(server.superuser.email);
    await page.getByLabel('Password', { exact: true }).fill(server.superuser.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('С возвращением').waitFor();
    expect(pathOf(page)).toBe(`${PREFIX}/`);

    const stored = await page.evaluate(
      (key) => ({ own: localStorage.getItem(key), root: localStorage.getItem('access_token') }),
      TOKEN_KEY,
    );
    expect(stored.own).toBeTruthy();
    expect(stored.root).toBe('root-studio-token');
    expect(TOKEN_KEY).not.toBe('access_token');

    // The menu's links point under the prefix, and a click stays there.
    const menu = page.getByRole('navigation', { name: 'Главное меню' });
    expect(await menu.getByRole('link', { name: 'Расписание' }).getAttribute('href')).toBe(`${PREFIX}/schedule`);
    await menu.getByRole('link', { name: 'Расписание' }).click();
    await page.waitForURL(`**${PREFIX}/schedule`);
    await page.getByText('Багет и фокачча').filter({ visible: true }).first().waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshotPath('base-path-admin-schedule'), fullPage: true });

    await menu.getByRole('link', { name: 'Мастер-классы' }).click();
    await page.waitForURL(`**${PREFIX}/workshops`);
    await page.getByText('Багет и фокачча').filter({ visible: true }).first().waitFor();

    // A reload of a page under the prefix: the server's page, the same studio.
    await page.reload();
    await page.getByText('Багет и фокачча').filter({ visible: true }).first().waitFor();
    expect(pathOf(page)).toBe(`${PREFIX}/workshops`);

    // An unknown page: «not found», and its way home stays under the prefix.
    await page.goto(`${origin}${PREFIX}/no-such-page`);
    const home = page.getByRole('link', { name: 'Go back' });
    await home.waitFor();
    expect(await home.getAttribute('href')).toBe(`${PREFIX}/`);
    await home.click();
    await page.getByText('С возвращением').waitFor();
    expect(pathOf(page)).toBe(`${PREFIX}/`);
    await page.getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL(`**${PREFIX}/login`);
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBe('root-studio-token');

    const calls = apiCalls(requests);
    expect(calls.length).toBeGreaterThan(3);
    expect(calls.filter((p) => !p.startsWith(`${PREFIX}/api/v1/`))).toEqual([]);
    expect(calls).toContain(`${PREFIX}/api/v1/login/access-token`);
    // Pages and assets: the pages under the prefix, the hashed assets at the root.
    expect(requests.filter((p) => p.startsWith('/assets/')).length).toBeGreaterThan(0);
    expect(requests.filter((p) => !p.startsWith(PREFIX) && !p.startsWith('/assets/'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the admin sends no token of another studio to this one', async () => {
    const { context, page, requests } = await open();
    const authorizations: string[] = [];
    page.on('request', (r) => {
      const a = r.headers().authorization;
      if (a) authorizations.push(a);
    });
    await context.addInitScript(
      (own) => {
        localStorage.setItem('access_token', 'root-studio-token');
        localStorage.setItem(own.other, 'other-studio-token');
        localStorage.setItem(own.key, own.token);
      },
      {
        key: TOKEN_KEY,
        other: storageKey('/s/other', 'access_token'),
        token: staff.authorization.replace(/^Bearer /, ''),
      },
    );
    await page.goto(`${origin}${PREFIX}/`);
    await page.getByText('С возвращением').waitFor();
    expect(apiCalls(requests).length).toBeGreaterThan(0);
    expect(new Set(authorizations)).toEqual(new Set([staff.authorization]));
    await context.close();
  });

  it('the mini-app: /s/demo/apply shows the schedule, its record page opens, and its calls go to /s/demo/api/v1', async () => {
    const { context, page, requests, errors } = await open({ phone: true });
    await page.goto(`${origin}${PREFIX}/apply${launchHash(signedInitData(customer), 'light')}`);
    const session = page.getByTestId(`session-${ids.schedule}`);
    await session.waitFor();
    expect(await session.textContent()).toContain('Багет и фокачча');
    expect(pathOf(page)).toBe(`${PREFIX}/apply`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshotPath('base-path-miniapp-apply'), fullPage: true });

    // The launch is remembered under this prefix's key (the hash is gone after in-app navigation).
    const launchKeys = await page.evaluate(() => Object.keys(sessionStorage));
    expect(launchKeys).toContain(storageKey(PREFIX, 'workshop-tma-launch'));
    expect(launchKeys).not.toContain('workshop-tma-launch');

    // The customer's booking page under the prefix (the record page is routed there).
    await page.goto(`${origin}${PREFIX}/record/${ids.record}`);
    await page.getByText('Багет и фокачча').filter({ visible: true }).first().waitFor();
    expect(pathOf(page)).toBe(`${PREFIX}/record/${ids.record}`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshotPath('base-path-miniapp-record'), fullPage: true });
    // A path the server names (the signed .ics) is opened under the prefix too, and is served there.
    const calendar = await page.getByRole('button', { name: 'Добавить в календарь' }).getAttribute('data-href');
    expect(calendar).toMatch(new RegExp(`^${PREFIX}/api/v1/records/${ids.record}/calendar\\.ics\\?sig=`));
    const ics = await fetch(`${origin}${calendar}`);
    expect(ics.status).toBe(200);
    expect(await ics.text()).toContain('BEGIN:VCALENDAR');

    // A page the mini-app does not have sends it to /apply, under the prefix (its router's redirect).
    await page.evaluate(() => {
      history.pushState(null, '', `${location.pathname.replace(/\/record\/.*$/, '')}/record`);
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL(`**${PREFIX}/apply`);
    await page.getByTestId(`session-${ids.schedule}`).waitFor();

    const calls = apiCalls(requests);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.filter((p) => !p.startsWith(`${PREFIX}/api/v1/`))).toEqual([]);
    expect(calls.some((p) => p.startsWith(`${PREFIX}/api/v1/schedule/`))).toBe(true);
    expect(calls).toContain(`${PREFIX}/api/v1/records/${ids.record}`);
    expect(requests.filter((p) => !p.startsWith(PREFIX) && !p.startsWith('/assets/'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
