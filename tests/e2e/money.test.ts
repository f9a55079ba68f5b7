/**
 * Money in the browser (Debian's Chromium against the real server and its built bundles): /record with
 * the amount due and both ways to pay (the Telegram invoice button and the IPS QR transfer) on every
 * Telegram layout the mini-app supports, light and dark; the admin's payment dialog and Касса. Each
 * page is checked with axe-core (WCAG 2.1 AA: no serious or critical violation). Screenshots:
 * test-results/screenshots/money-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { axeProblems, launchHashFor, signedInitData, type Platform, type TgUser } from '../helpers/miniapp';

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let staff: Record<string, string>;
let token = '';
const customer: TgUser = { id: 7770001, first_name: 'Мария', last_name: 'Иванова' };
let recordId = 0;
let scheduleId = 0;

async function call<T>(method: string, url: string, body?: unknown, headers = staff): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

beforeAll(async () => {
  server = await startTestServer({ env: { PAYMENT_PROVIDER_TOKEN: '284685063:TEST:e2e' } });
  const login = await fetch(`${server.url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin@example.com', password: 'superuser-password-1' }),
  });
  token = ((await login.json()) as { access_token: string }).access_token;
  staff = { authorization: `Bearer ${token}` };
  await call('PUT', '/business-settings/', {
    prepayment: 'deposit',
    deposit_percent: 30,
    payment_hold_minutes: 60,
    bank_account: '160-51-20',
    bank_recipient: 'Кулинарная студия, Београд',
  });
  const w = await call<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: 3500 });
  const a = await call<{ id: number }>('POST', '/address/', {
    title: 'Змај Јовина 12',
    map_link: 'https://maps.example/1',
  });
  const date = new Date(Date.now() + 3 * 86_400_000).toISOString();
  scheduleId = (
    await call<{ id: number }>('POST', '/schedule/', { date, capacity: 8, workshop_id: w.id, address_id: a.id })
  ).id;
  const booked = await call<{ record: { id: number } }>(
    'POST',
    '/records/',
    {
      schedule_id: scheduleId,
      name: 'Мария',
      last_name: 'Иванова',
      people_count: 2,
      is_first_time: true,
      consent: true,
    },
    { authorization: `tma ${signedInitData(customer)}` },
  );
  recordId = booked.record.id;
  // A second booking, paid in part at the desk: the booking table shows both badges.
  const other = await call<{ record: { id: number } }>(
    'POST',
    '/records/',
    { schedule_id: scheduleId, name: 'Олег', people_count: 1, is_first_time: false, consent: true },
    { authorization: `tma ${signedInitData({ id: 7770002, first_name: 'Олег' })}` },
  );
  await call('POST', `/records/${other.record.id}/payments`, {
    amount: 1500,
    method: 'cash',
    note: 'Депозит наличными',
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const VIEWPORTS: Record<Platform, { width: number; height: number; isMobile: boolean }> = {
  ios: { width: 390, height: 844, isMobile: true },
  android: { width: 412, height: 915, isMobile: true },
  tdesktop: { width: 640, height: 800, isMobile: false },
};

describe('/record: the amount due and both ways to pay', () => {
  for (const platform of ['ios', 'android', 'tdesktop'] as const)
    for (const theme of ['light', 'dark'] as const)
      it(`${platform} ${theme}`, async () => {
        const { width, height, isMobile } = VIEWPORTS[platform];
        const context = await browser.newContext({
          viewport: { width, height },
          deviceScaleFactor: 2,
          isMobile,
          hasTouch: isMobile,
          colorScheme: theme,
          locale: 'ru-RU',
          timezoneId: 'Europe/Belgrade',
          bypassCSP: true,
        });
        await context.addInitScript(() => {
          const w = window;
          w.__tgEvents = [];
          w.TelegramWebviewProxy = {
            postEvent(name: string, data?: string) {
              w.__tgEvents.push([name, data ? JSON.parse(data) : undefined]);
            },
          };
        });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(`${server.url}/record/${recordId}${launchHashFor(customer, theme, platform)}`);
        const section = page.getByTestId('payment-section');
        await section.waitFor();
        await page.getByTestId('ips-qr').locator('img').waitFor();
        const text = (await section.innerText()).replace(/\s+/g, ' ');
        expect(text).toMatch(/Стоимость записи 7 000 RSD/);
        // The deposit is 30 % of 7 000: 2 100 now, by the end of the hold.
        expect(text).toMatch(/Оплатите 2 100 RSD до/);
        expect(text).toContain('Оплатить в Telegram');
        expect(text).toContain('160-0000000000051-20');
        expect(text).toContain('Или оплатите на месте, в студии.');
        await section.scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`money-record-${platform}-${theme}`), fullPage: true });
        expect(await axeProblems(page)).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      });
});

async function adminPage(): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    locale: 'ru-RU',
    timezoneId: 'Europe/Belgrade',
    bypassCSP: true,
  });
  await context.addInitScript((t) => localStorage.setItem('access_token', t), token);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

describe('admin: the payment dialog and Касса', () => {
  it('the booking table shows the badges; the dialog shows the ledger and takes the balance in cash', async () => {
    const page = await adminPage();
    await page.goto(`${server.url}/schedule`);
    const badges = page.getByTestId('payment-badge');
    await badges.first().waitFor();
    expect((await badges.allInnerTexts()).sort()).toEqual(['Депозит', 'Не оплачено']);
    await page.getByTestId('payment-badge').filter({ hasText: 'Депозит' }).click();
    const dialog = page.getByTestId('payment-dialog');
    await dialog.waitFor();
    await dialog.getByText('Депозит наличными').waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshotPath('money-payment-dialog'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Принять оплату' }).click();
    await dialog.getByText('Оплачено', { exact: true }).waitFor();
    expect(await dialog.getByTestId('ledger').locator('tbody tr').count()).toBe(2);
    await page.context().close();
  });

  it('Касса: totals, the rows and the CSV button', async () => {
    const page = await adminPage();
    await page.goto(`${server.url}/cash`);
    await page.getByRole('link', { name: 'Касса' }).waitFor();
    const totals = page.getByTestId('cash-totals');
    await totals.waitFor();
    expect((await totals.innerText()).replace(/\s+/g, ' ')).toMatch(/Получено 3 500 RSD/);
    await page.getByTestId('cash-list').waitFor();
    expect(await page.getByTestId('cash-list').locator('tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: 'Скачать CSV' }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshotPath('money-cash-desk'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    await page.context().close();
  });
});
