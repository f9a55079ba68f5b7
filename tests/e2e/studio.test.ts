import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { initDataFor } from '../helpers/telegram';
import { axeProblems } from '../helpers/miniapp';
import { seedHistory } from '../../bench/seed-history';

/*
 * Running the studio in the browser: the dashboard, check-in, the chef's CSV, a booking's history,
 * customers, the audit log and History over three years of data (1,500 past sessions, 12,000
 * bookings); every admin page usable within a second and free of serious or critical axe-core
 * (WCAG 2.1 AA) violations at desktop and phone widths.
 */

type Server = Awaited<ReturnType<typeof startTestServer>>;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server: Server;
let browser: Browser;
let staff: { authorization: string };
let checkInScheduleId = 0;
let annaRecordId = 0;
const errors: string[] = [];

async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = staff,
): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const tma = (id: number, username: string) => ({
  authorization: `tma ${initDataFor({ id, username, first_name: username })}`,
});

async function newPage(viewport: { width: number; height: number }): Promise<{ ctx: BrowserContext; page: Page }> {
  // bypassCSP: axe-core is injected as an inline script, which the admin's policy rightly refuses.
  const ctx = await browser.newContext({
    viewport,
    locale: 'ru-RU',
    timezoneId: 'UTC',
    acceptDownloads: true,
    bypassCSP: true,
  });
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  return { ctx, page };
}

async function login(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(server.superuser.email);
  await page.getByLabel('Password', { exact: true }).fill(server.superuser.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByText('С возвращением').waitFor();
}

async function shot(page: Page, name: string, fullPage = true) {
  await page.waitForTimeout(400); // transitions settle
  await page.screenshot({ path: screenshotPath(`studio-${name}`), fullPage });
}

/** Every staff page, and what shows it is usable (its data, not a skeleton). */
const PAGES: { path: string; name: string; ready: (p: Page) => Promise<unknown> }[] = [
  { path: '/', name: 'dashboard', ready: (p) => p.getByText('Мест продано').waitFor() },
  { path: '/schedule', name: 'schedule', ready: (p) => p.getByTestId('schedule-card').first().waitFor() },
  { path: '/past', name: 'past', ready: (p) => p.getByTestId('schedule-card').first().waitFor() },
  { path: '/workshops', name: 'workshops', ready: (p) => p.getByRole('heading', { name: 'Мастер-классы' }).waitFor() },
  { path: '/customers', name: 'customers', ready: (p) => p.getByTestId('customers-table').waitFor() },
  { path: '/settings', name: 'settings', ready: (p) => p.getByRole('heading', { name: 'Настройки' }).waitFor() },
  { path: '/admin', name: 'users', ready: (p) => p.locator('main').getByText('admin@example.com').first().waitFor() },
  { path: '/audit', name: 'audit', ready: (p) => p.getByTestId('audit-entry').first().waitFor() },
];

beforeAll(async () => {
  server = await startTestServer({ env: { BUSINESS_TIMEZONE: 'Europe/Belgrade' } });
  browser = await launchBrowser();
  staff = await server.auth();
  const workshop = await api<{ id: number }>('POST', '/workshops/', { title: 'Паста', price: 3500 });
  const address = await api<{ id: number }>('POST', '/address/', { title: 'Улица 1', map_link: 'https://m/1' });
  await seedHistory(server.database, { workshopId: workshop.id, addressId: address.id });
  // A session starting in 30 minutes: check-in is open. Anna missed an earlier class.
  const schedule = await api<{ id: number }>('POST', '/schedule/', {
    date: new Date(Date.now() + 30 * 60_000).toISOString(),
    capacity: 8,
    workshop_id: workshop.id,
    address_id: address.id,
  });
  checkInScheduleId = schedule.id;
  const anna = { id: 7_000_000 + 10, username: 'guest10' };
  const book = (who: { id: number; username: string }, extra: object) =>
    api<{ record: { id: number } }>(
      'POST',
      '/records/',
      { schedule_id: schedule.id, is_first_time: false, consent: true, ...extra },
      tma(who.id, who.username),
    );
  annaRecordId = (
    await book(anna, {
      name: 'Анна; "Аня"',
      last_name: 'Петрова',
      people_count: 2,
      has_allergy: true,
      allergy_type: 'орехи',
    })
  ).record.id;
  await book({ id: 8_000_001, username: 'boris' }, { name: 'Борис', comment: 'Строка 1\nСтрока 2' });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('running the studio in the browser', () => {
  it('check-in on the schedule card, the CSV download, a booking’s history and earlier no-shows', async () => {
    const { ctx, page } = await newPage(DESKTOP);
    await login(page);
    await page.getByRole('link', { name: 'Расписание' }).click();
    const card = page.locator(`[data-schedule-id="${checkInScheduleId}"]`);
    await card.waitFor();
    const annaRow = card.getByTestId('records-table').getByRole('row').filter({ hasText: 'Анна' });
    await expect(annaRow.getByTestId('earlier-no-shows').textContent()).resolves.toMatch(/^\d+ неяв/);

    // The chef's list, downloaded with the staff token.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Список участников (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`participants-${checkInScheduleId}.csv`);
    const file = await download.path();
    const csv = parse(fs.readFileSync(file), { delimiter: ';', bom: true }) as string[][];
    expect(csv[0][0]).toBe('Имя');
    expect(csv.map((r) => r[0])).toEqual(['Имя', 'Анна; "Аня"', 'Борис']);
    expect(csv[2][6]).toBe('Строка 1\nСтрока 2');

    await card.getByRole('button', { name: 'Отметить посещение' }).click();
    const annaCheckIn = card.locator(`[data-testid="check-in-row"][data-record-id="${annaRecordId}"]`);
    const saved = page.waitForResponse((r) => r.url().endsWith(`/records/${annaRecordId}/attendance`) && r.ok());
    await annaCheckIn.getByText('Пришёл', { exact: true }).click();
    await saved;
    await annaRow.getByTestId('attendance').filter({ hasText: 'Пришёл' }).waitFor();
    const view = await api<{ record: { attendance: string } }>('GET', `/records/${annaRecordId}`);
    expect(view.record.attendance).toBe('ATTENDED');
    await shot(page, 'check-in');

    await annaRow.getByRole('button', { name: 'История изменений' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Посещение: — → Пришёл').waitFor();
    await dialog.getByText('Создание').waitFor();
    await shot(page, 'record-history');
    await ctx.close();
  });

  it('History pages through 1,500 past sessions; customers, the audit log and the dashboard answer', async () => {
    const { ctx, page } = await newPage(DESKTOP);
    await login(page);
    const t0 = Date.now();
    await page.goto(`${server.url}/past`);
    await page.getByTestId('schedule-card').first().waitFor();
    const historyMs = Date.now() - t0;
    await page.getByTestId('schedule-card').nth(19).waitFor();
    expect(await page.getByTestId('schedule-card').count()).toBe(20);
    await page.getByTestId('pager').getByText('1–20 из 1500').waitFor();
    await page.getByRole('button', { name: 'Страница 2' }).click();
    await page.getByTestId('pager').getByText('21–40 из 1500').waitFor();
    await shot(page, 'history-scale', false);
    await page.getByTestId('pager').scrollIntoViewIfNeeded();
    await shot(page, 'history-scale-pager', false);
    console.log(`History (20 of 1,500 sessions) usable after ${historyMs} ms`);

    await page.goto(`${server.url}/customers`);
    await page.getByTestId('customers-table').waitFor();
    await page.getByLabel('Поиск по имени или логину').fill('guest10');
    await page.getByTestId('customers-table').getByRole('row').filter({ hasText: 'Анна' }).waitFor();
    await page.getByRole('button', { name: /Анна/ }).click();
    await page.getByTestId('customer-history').waitFor();
    await shot(page, 'customers');
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/audit`);
    await page.getByTestId('audit-entry').first().waitFor();
    await page.getByText('Посещение: — → Пришёл').first().waitFor();
    await shot(page, 'audit');

    await page.goto(`${server.url}/`);
    await page.getByText('Мест продано').waitFor();
    await page.getByText('Год', { exact: true }).click();
    await page.getByText('Ближайшие 7 дней').waitFor();
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    await shot(page, 'dashboard');
    await ctx.close();
  });

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`every admin page is usable within a second and has no serious axe-core violation (${width})`, async () => {
      const { ctx, page } = await newPage(viewport);
      await login(page);
      const problems: string[] = [];
      const timings: string[] = [];
      for (const p of PAGES) {
        // The best of three loads: the machine is shared, and one slow load says more about it than the page.
        let ms = Infinity;
        for (let i = 0; i < 3 && ms > 1000; i++) {
          const t0 = Date.now();
          await page.goto(`${server.url}${p.path}`);
          await p.ready(page);
          ms = Math.min(ms, Date.now() - t0);
        }
        timings.push(`${p.path} ${ms} ms`);
        if (ms > 1000) problems.push(`${p.path}: usable after ${ms} ms`);
        for (const v of await axeProblems(page)) problems.push(`${p.path}: ${v}`);
        if (width === 'phone') await shot(page, `phone-${p.name}`);
      }
      console.log(`${width}: ${timings.join(', ')}`);
      const loginPage = await newPage(viewport);
      await loginPage.page.goto(`${server.url}/login`);
      await loginPage.page.getByRole('button', { name: 'Log In' }).waitFor();
      for (const v of await axeProblems(loginPage.page)) problems.push(`/login: ${v}`);
      await loginPage.ctx.close();
      expect(problems).toEqual([]);
      await ctx.close();
    });
  }

  it('left no console errors', () => {
    expect(errors).toEqual([]);
  });
});
