import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer } from './server';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** Debian's Chromium (never a downloaded browser), headless; playwright gives each launch a fresh profile dir. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Screenshots are test artifacts: test-results/screenshots/<name>.png */
export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');
export const screenshotPath = (name: string) => {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, `${name}.png`);
};

export type Viewport = { width: number; height: number };
type Headers = Record<string, string>;

/** An admin page in a context of its own: its uncaught errors, and closing it closes the context. */
export interface AdminPage {
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/** What startAdminBrowser starts: the server, the browser, the superuser and the ways to use them. */
export interface AdminBrowser {
  server: TestServer;
  browser: Browser;
  /** The superuser's Bearer header. */
  staff: { authorization: string };
  /** A JSON call of the API, as the superuser unless `headers` say otherwise; a refusal throws with its body. */
  api<T = unknown>(method: string, url: string, body?: unknown, headers?: Headers): Promise<T>;
  /**
   * `url` of the admin at `viewport`, logged in as the superuser (or `as`, another staff member's header): Russian
   * locale, the studio's time zone unless `timezoneId` says otherwise, CSP bypassed for axe-core.
   */
  open(
    url: string,
    viewport: Viewport,
    opts?: { as?: { authorization: string }; timezoneId?: string },
  ): Promise<AdminPage>;
  close(): Promise<void>;
}

/**
 * The admin's browser tests' set-up, once: the real server on a fresh database serving the built bundles
 * (DIST_DIR, default ./dist: `npx vite build` first), Debian's Chromium, the superuser logged in.
 */
export async function startAdminBrowser(opts: { env?: Record<string, string> } = {}): Promise<AdminBrowser> {
  const dist = process.env.DIST_DIR ?? 'dist';
  if (!fs.existsSync(path.join(dist, 'admin', 'index.html')))
    throw new Error(`No built admin in ${dist}: run \`npx vite build\` first`);
  const server = await startTestServer({ env: opts.env });
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (err) {
    await server.close();
    throw err;
  }
  const staff = await server.auth();
  const api = async <T>(method: string, url: string, body?: unknown, headers: Headers = staff): Promise<T> => {
    const res = await fetch(`${server.url}/api/v1${url}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const open: AdminBrowser['open'] = async (url, viewport, { as = staff, timezoneId = 'Europe/Belgrade' } = {}) => {
    const context = await browser.newContext({ viewport, locale: 'ru-RU', timezoneId, bypassCSP: true });
    await context.addInitScript(
      (t) => localStorage.setItem('access_token', t),
      as.authorization.replace(/^Bearer /, ''),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}${url}`);
    return { page, errors, close: () => context.close() };
  };
  return {
    server,
    browser,
    staff,
    api,
    open,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** How far the page scrolls sideways (0: it does not). */
export const sideways = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
