/**
 * Personal data in the mini-app, in Debian's Chromium on a phone-sized page against the real
 * server: the consent line under the contact form and the privacy text it opens, and "Мои данные"
 * on the booking page (show, then erase). Screenshots: test-results/screenshots/personal-data-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_PRIVACY_TEXT, type PersonalDataExport } from '../../contract';
import { privacyVersion } from '../../core/booking/consent';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { initDataFor } from '../helpers/telegram';
import { axeProblems } from '../helpers/miniapp';

const DIST = process.env.DIST_DIR ?? 'dist';

const THEME = {
  bg_color: '#ffffff',
  text_color: '#000000',
  hint_color: '#8e8e93',
  link_color: '#007aff',
  button_color: '#007aff',
  button_text_color: '#ffffff',
  secondary_bg_color: '#efeff4',
  section_bg_color: '#ffffff',
  section_header_text_color: '#6d6d72',
  subtitle_text_color: '#8e8e93',
  destructive_text_color: '#ff3b30',
};
const customer = { id: 5_560_001, first_name: 'Драгана', last_name: 'Петровић', username: 'dragana_p' };

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

const launchHash = () =>
  '#' +
  new URLSearchParams({
    tgWebAppData: initDataFor(customer),
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'ios',
    tgWebAppThemeParams: JSON.stringify(THEME),
  }).toString();

async function phone(): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'ru-RU',
    timezoneId: 'Europe/Belgrade',
    // axe-core is injected as an inline script, which the server's CSP rightly refuses.
    bypassCSP: true,
  });
  await context.addInitScript(() => {
    // Plays the Telegram client: records what the app asks of it.
    window.__tgEvents = [];
    window.TelegramWebviewProxy = {
      postEvent: (name: string, data?: string) => window.__tgEvents.push([name, data]),
    };
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors, close: () => context.close() };
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'webapp', 'index.html')))
    throw new Error(`No built mini-app in ${DIST}: run \`vite build\` first`);
  server = await startTestServer({ env: { DIST_DIR: DIST } });
  browser = await launchBrowser();
  staff = await server.auth();
  const workshop = await call<{ id: number }>('POST', '/workshops/', { title: 'Сармице', price: 3800 });
  const address = await call<{ id: number }>('POST', '/address/', {
    title: 'Београд, Цетињска 15',
    map_link: 'https://maps.google.com/?q=44.8176,20.4633',
  });
  const date = new Date(Date.now() + 4 * 86_400_000);
  date.setUTCHours(16, 0, 0, 0);
  scheduleId = (
    await call<{ id: number }>('POST', '/schedule/', {
      date: date.toISOString(),
      capacity: 6,
      workshop_id: workshop.id,
      address_id: address.id,
    })
  ).id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let recordId = 0;

describe('consent on /apply', () => {
  it('shows a consent line with the privacy text one tap away, and books with the consent stored', async () => {
    const { page, errors, close } = await phone();
    await page.goto(`${server.url}/apply${launchHash()}`);
    await page.getByTestId(`session-${scheduleId}`).click();
    const line = page.locator('.consent-line');
    await line.waitFor();
    expect(await line.textContent()).toContain(
      'Нажимая «Записаться», вы соглашаетесь на обработку ваших персональных данных, включая сведения об аллергии',
    );
    await line.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('personal-data-consent-line') });
    expect(await axeProblems(page, '.consent-line')).toEqual([]);

    await line.getByRole('button', { name: 'подробнее' }).click();
    const sheet = page.getByRole('dialog', { name: 'Обработка персональных данных' });
    await sheet.getByText(DEFAULT_PRIVACY_TEXT.slice(0, 40)).waitFor();
    await page.screenshot({ path: screenshotPath('personal-data-privacy-sheet') });
    expect(await axeProblems(page, '.sheet')).toEqual([]);
    await sheet.getByRole('button', { name: 'Понятно' }).click();
    await sheet.waitFor({ state: 'detached' });

    await page.getByText('Да, впервые', { exact: true }).click();
    // Inside Telegram the primary action is Telegram's MainButton.
    // …once the app has set it up and listens to it.
    await page.waitForFunction(() =>
      window.__tgEvents.some(
        ([name, data]) =>
          name === 'web_app_setup_main_button' && typeof data === 'string' && data.includes('"is_visible":true'),
      ),
    );
    await page.waitForTimeout(100);
    await page.evaluate(() => window.Telegram.WebView.receiveEvent('main_button_pressed'));
    await page.getByText('Вы записаны!').waitFor();
    const data = await call<PersonalDataExport>('GET', '/me/data', undefined, {
      authorization: `tma ${initDataFor(customer)}`,
    });
    expect(data.bookings).toHaveLength(1);
    expect(data.bookings[0].consent_version).toBe(privacyVersion(DEFAULT_PRIVACY_TEXT));
    recordId = data.bookings[0].id;
    expect(errors).toEqual([]);
    await close();
  });
});

describe('"Мои данные" on /record', () => {
  it('shows what is stored and erases it after a confirmation', async () => {
    // A note staff keep about her is shown to her with the rest, and erased with it.
    await call('PUT', `/customers/${customer.id}/note`, { note: 'Постоянная гостья, любит острое' });
    // Studio credit she holds: the confirmation says it will be owed back to her.
    await call('POST', `/customers/${customer.id}/credit`, { amount: 1000, reason: 'Компенсация за перенос' });
    const { page, errors, close } = await phone();
    await page.goto(`${server.url}/record/${recordId}${launchHash()}`);
    await page.getByRole('heading', { name: 'Мои данные', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Показать мои данные' }).click();
    const shown = page.getByRole('region', { name: 'Что о вас хранится' });
    await shown.waitFor();
    expect(await shown.textContent()).toContain('«Сармице»');
    expect(await shown.textContent()).toContain('Драгана Петровић, 1 чел.');
    expect(await shown.textContent()).toContain('Заметка студии о вас: Постоянная гостья, любит острое');
    await page.getByRole('heading', { name: 'Мои данные', exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('personal-data-record-shown') });

    await page.getByRole('button', { name: 'Удалить мои данные' }).click();
    const confirm = page.getByRole('region', { name: 'Удалить мои данные' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('заметка студии о вас');
    expect(await confirm.getByTestId('forget-money').textContent()).toContain(
      'На вашем балансе в студии: 1\u00a0000\u00a0RSD. Оплачено за предстоящие записи: 0\u00a0RSD. После удаления студия будет должна вам 1\u00a0000\u00a0RSD',
    );
    await page.screenshot({ path: screenshotPath('personal-data-record-confirm'), fullPage: true });
    expect(await axeProblems(page, '.my-data')).toEqual([]);
    await confirm.getByRole('button', { name: 'Удалить', exact: true }).click();
    await page.waitForURL(/\/apply/);
    await page.getByText('Ваши данные удалены').waitFor();

    const data = await call<PersonalDataExport>('GET', '/me/data', undefined, {
      authorization: `tma ${initDataFor(customer)}`,
    });
    expect(data.bookings).toEqual([]);
    expect(data.staff_note ?? null).toBeNull();
    const view = await call<{ record: { name: string; state: string } }>('GET', `/records/${recordId}`);
    expect(view.record).toMatchObject({ name: 'Удалено', state: 'CANCELLED' });
    expect(errors).toEqual([]);
    await close();
  });
});
