/**
 * The mini-app in the customer's language, end to end: Chromium against the real server, Telegram
 * launch parameters with init data whose signed user carries `language_code`. /apply and /record in
 * English and Serbian on the ios, android and tdesktop layouts, light and dark; an unknown language
 * is Russian; the page's `lang` follows and axe-core finds nothing serious. Screenshots:
 * test-results/screenshots/languages-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { tma } from '../helpers/telegram';
import { axeProblems, launchHash, signedInitData, type Platform, type Theme, type TgUser } from '../helpers/miniapp';

const DIST = process.env.DIST_DIR ?? 'dist';

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let staff: Record<string, string>;
let scheduleId = 0;

async function call<T>(method: string, url: string, body?: unknown, headers = staff): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 11) + '16:00:00Z';

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'webapp', 'index.html')))
    throw new Error(`No built mini-app in ${DIST}: run \`vite build\` first`);
  server = await startTestServer({ env: { DIST_DIR: DIST } });
  browser = await launchBrowser();
  const login = await fetch(`${server.url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: server.superuser.email, password: server.superuser.password }).toString(),
  });
  staff = { authorization: `Bearer ${(await login.json()).access_token}` };
  const workshop = await call<{ id: number }>('POST', '/workshops/', {
    title: 'Свежая паста',
    title_en: 'Fresh pasta',
    title_sr: 'Sveža pasta',
    price: 3500,
  });
  const address = await call<{ id: number }>('POST', '/address/', {
    title: 'Knez Mihailova 1',
    map_link: 'https://maps.example/1',
  });
  scheduleId = (
    await call<{ id: number }>('POST', '/schedule/', {
      date: inDays(4),
      capacity: 8,
      workshop_id: workshop.id,
      address_id: address.id,
    })
  ).id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A phone (or desktop window) playing a Telegram client of that layout, opening `path` as `user`. */
async function open(user: TgUser & { language_code?: string }, pagePath: string, theme: Theme, platform: Platform) {
  const desktop = platform === 'tdesktop';
  const context = await browser.newContext({
    viewport: desktop ? { width: 640, height: 900 } : { width: 390, height: 844 },
    deviceScaleFactor: desktop ? 1 : 2,
    isMobile: !desktop,
    hasTouch: !desktop,
    colorScheme: theme,
    timezoneId: 'Europe/Belgrade',
    bypassCSP: true,
  });
  await context.addInitScript(() => {
    window.__tgEvents = [];
    window.TelegramWebviewProxy = { postEvent: () => undefined };
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}${pagePath}${launchHash(signedInitData(user), theme, platform)}`);
  return { page, errors, close: () => context.close() };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: screenshotPath(`languages-${name}`), fullPage: true });

const CASES: { lang: 'en' | 'sr'; platform: Platform; theme: Theme; apply: string[]; record: string[] }[] = [
  {
    lang: 'en',
    platform: 'ios',
    theme: 'light',
    apply: ['Choose a workshop', 'Fresh pasta', '8 seats left', '3,500', 'Step 1 of 3'],
    record: ['Your workshop booking', 'Fresh pasta', 'Number of people', 'per person', 'Add to calendar'],
  },
  {
    lang: 'sr',
    platform: 'android',
    theme: 'dark',
    apply: ['Izaberite radionicu', 'Sveža pasta', '3.500', 'din.', 'Korak 1 od 3'],
    record: ['Vaša prijava na radionicu', 'Sveža pasta', 'Broj osoba', 'po osobi', 'Dodaj u kalendar'],
  },
  {
    lang: 'en',
    platform: 'tdesktop',
    theme: 'dark',
    apply: ['Choose a workshop', 'Fresh pasta', 'Prices are per person'],
    record: ['Your workshop booking', 'Cancel the booking'],
  },
  {
    lang: 'sr',
    platform: 'tdesktop',
    theme: 'light',
    apply: ['Izaberite radionicu', 'Sveža pasta', 'Cene su po osobi'],
    record: ['Vaša prijava na radionicu', 'Otkaži prijavu'],
  },
];

describe('the mini-app in the customer language', () => {
  let nextId = 7_700_001;
  for (const c of CASES) {
    it(`${c.lang} on ${c.platform} (${c.theme}): /apply, the contact step and /record`, async () => {
      const user = { id: nextId++, first_name: 'Ana', language_code: c.lang };
      const name = `${c.lang}-${c.platform}-${c.theme}`;
      const apply = await open(user, '/apply', c.theme, c.platform);
      const body = apply.page.locator('body');
      for (const text of c.apply) await expect.poll(() => body.textContent(), { timeout: 15_000 }).toContain(text);
      expect(await apply.page.evaluate(() => document.documentElement.lang)).toBe(
        c.lang === 'en' ? 'en-GB' : 'sr-Latn',
      );
      expect(await body.innerText()).not.toMatch(/[А-Яа-яЁё]/);
      expect(await axeProblems(apply.page)).toEqual([]);
      await shot(apply.page, `apply-${name}`);
      await apply.page.getByTestId(`session-${scheduleId}`).click({ force: true });
      const form =
        c.lang === 'en'
          ? ['Contact details', 'How did you hear about us?']
          : ['Kontakt podaci', 'Kako ste čuli za nas?'];
      for (const text of form) await expect.poll(() => body.textContent(), { timeout: 15_000 }).toContain(text);
      expect(await axeProblems(apply.page)).toEqual([]);
      await shot(apply.page, `contact-${name}`);
      expect(apply.errors).toEqual([]);
      await apply.close();

      const booked = await call<{ record: { id: number } }>(
        'POST',
        '/records/',
        {
          schedule_id: scheduleId,
          name: 'Ana',
          people_count: 2,
          has_allergy: false,
          is_first_time: true,
          consent: true,
        },
        tma(user),
      );
      const record = await open(user, `/record/${booked.record.id}`, c.theme, c.platform);
      const recordBody = record.page.locator('body');
      for (const text of c.record)
        await expect.poll(() => recordBody.textContent(), { timeout: 15_000 }).toContain(text);
      expect(await record.page.evaluate(() => document.documentElement.lang)).toBe(
        c.lang === 'en' ? 'en-GB' : 'sr-Latn',
      );
      expect(await axeProblems(record.page)).toEqual([]);
      await shot(record.page, `record-${name}`);
      expect(record.errors).toEqual([]);
      await record.close();
    }, 90_000);
  }

  it('an unknown language (de) is Russian, and the page says so', async () => {
    const de = await open({ id: 7_700_100, first_name: 'Anna', language_code: 'de' }, '/apply', 'light', 'android');
    const body = de.page.locator('body');
    await expect.poll(() => body.textContent(), { timeout: 15_000 }).toContain('Выберите мастер-класс');
    expect(await body.innerText()).toContain('Свежая паста');
    expect(await de.page.evaluate(() => document.documentElement.lang)).toBe('ru');
    await shot(de.page, 'apply-de-android-light');
    await de.close();
  }, 60_000);

  it("a language chosen with /language wins over the Telegram app's", async () => {
    const user = { id: 7_700_200, first_name: 'Ana', language_code: 'en' };
    // The bot's /language choice, as core/language stores it.
    const { chooseLanguage } = await import('../../core/language/customer-language');
    await chooseLanguage(server.database.db, user.id, 'sr');
    const page = await open(user, '/apply', 'light', 'ios');
    const body = page.page.locator('body');
    await expect.poll(() => body.textContent(), { timeout: 15_000 }).toContain('Izaberite radionicu');
    expect(await page.page.evaluate(() => document.documentElement.lang)).toBe('sr-Latn');
    await page.close();
  }, 60_000);
});
