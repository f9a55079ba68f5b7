import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { initDataFor } from '../helpers/telegram';
import { axeProblems } from '../helpers/miniapp';

/*
 * Промокоды in the browser: the owner adds a code from the dialog, sees each code's discount, days,
 * workshops and uses, switches one off; the dashboard shows bookings and revenue per code; a manager
 * has no such page. Screenshots at desktop and phone widths, no serious or critical axe-core finding.
 */

type Server = Awaited<ReturnType<typeof startTestServer>>;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server: Server;
let browser: Browser;
let staff: { authorization: string };
const errors: string[] = [];

async function api<T>(method: string, path: string, body?: unknown, headers = staff): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function newPage(viewport: { width: number; height: number }): Promise<{ ctx: BrowserContext; page: Page }> {
  // bypassCSP: axe-core is injected as an inline script, which the admin's policy rightly refuses.
  const ctx = await browser.newContext({ viewport, locale: 'ru-RU', timezoneId: 'UTC', bypassCSP: true });
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  return { ctx, page };
}

async function login(page: Page, who: { email: string; password: string } = server.superuser) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await page.locator('main').waitFor();
}

async function shot(page: Page, name: string, fullPage = true) {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400); // transitions settle
  await page.screenshot({ path: screenshotPath(`promo-${name}`), fullPage });
}

const card = (page: Page, code: string) => page.getByTestId('promo-card').filter({ hasText: code });

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  staff = await server.auth();
  const workshop = await api<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: 3000 });
  await api('POST', '/workshops/', { title: 'Паста', price: 2500 });
  const address = await api<{ id: number }>('POST', '/address/', { title: 'Улица 1', map_link: 'https://m/1' });
  const session = await api<{ id: number }>('POST', '/schedule/', {
    date: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    capacity: 8,
    workshop_id: workshop.id,
    address_id: address.id,
  });
  await api('POST', '/promo-codes/', { code: 'VESNA', kind: 'percent', value: 15, max_uses: 20 });
  await api('POST', '/promo-codes/', {
    code: 'KHINKALI500',
    kind: 'fixed',
    value: 500,
    workshop_ids: [workshop.id],
    first_time_only: true,
  });
  // Two bookings with VESNA: its uses and the dashboard's figures.
  for (const [id, name, people] of [
    [7_400_001, 'Вера', 2],
    [7_400_002, 'Глеб', 1],
  ] as const)
    await api(
      'POST',
      '/records/',
      { schedule_id: session.id, name, people_count: people, is_first_time: true, consent: true, promo_code: 'vesna' },
      { authorization: `tma ${initDataFor({ id, username: `u${id}`, first_name: name })}` },
    );
  // The dashboard adds up past sessions: this one is moved to two days ago, as if it had taken place.
  await server.database.db
    .updateTable('schedules')
    .set({ date: new Date(Date.now() - 2 * 86_400_000).toISOString() })
    .where('id', '=', session.id)
    .execute();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Промокоды in the admin', () => {
  it('the owner adds a code from the dialog, sees its terms and uses, and switches one off (desktop)', async () => {
    const { ctx, page } = await newPage(DESKTOP);
    await login(page);
    await page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link', { name: 'Промокоды' }).click();
    await page.waitForURL((u) => u.pathname === '/promo-codes');
    const vesna = card(page, 'VESNA');
    await vesna.getByText('−15 %').waitFor();
    await vesna.getByText('2 из 20').waitFor();
    await card(page, 'KHINKALI500').getByText('Только впервые').waitFor();
    await card(page, 'KHINKALI500').getByText('Хинкали').waitFor();

    await page.getByRole('button', { name: 'Добавить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Код').fill('leto-2026');
    await dialog.getByText('Сумма, RSD').click();
    await dialog.getByLabel('Сумма скидки, RSD').fill('700');
    await dialog.getByLabel('Действует с').fill('01.06.2026');
    await dialog.getByLabel('по (включительно)').fill('31.08.2026');
    await dialog.getByLabel('Мастер-классы').click();
    await page.getByRole('option', { name: 'Паста' }).click();
    await dialog.getByLabel('Мастер-классы').press('Escape');
    await dialog.getByLabel('Сколько раз можно использовать').fill('50');
    await shot(page, 'dialog-desktop', false);
    expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
    const created = page.waitForResponse((r) => r.url().endsWith('/promo-codes/') && r.status() === 201);
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    expect(await (await created).json()).toMatchObject({
      code: 'LETO-2026',
      kind: 'fixed',
      value: 700,
      valid_from: '2026-06-01',
      valid_to: '2026-08-31',
      max_uses: 50,
    });
    const leto = card(page, 'LETO-2026');
    await leto.getByText('с 01.06.2026 по 31.08.2026').waitFor();
    await leto.getByText('0 из 50').waitFor();
    await leto.getByText('Паста').waitFor();

    const off = page.waitForResponse((r) => /\/promo-codes\/\d+$/.test(r.url()) && r.ok());
    await card(page, 'KHINKALI500').getByRole('button', { name: 'Выключить' }).click();
    await off;
    await card(page, 'KHINKALI500').getByText('Выключен').waitFor();
    const list = await api<{ data: { code: string; is_active: boolean }[] }>('GET', '/promo-codes/');
    expect(list.data.find((c) => c.code === 'KHINKALI500')?.is_active).toBe(false);
    await shot(page, 'page-desktop');
    expect(await axeProblems(page)).toEqual([]);

    // The dashboard: bookings and revenue per code.
    await page.goto(`${server.url}/`);
    const figures = page.getByTestId('promo-figures');
    await figures.getByRole('row').filter({ hasText: 'VESNA' }).waitFor({ timeout: 15_000 });
    const cells = await figures.getByRole('row').filter({ hasText: 'VESNA' }).getByRole('cell').allInnerTexts();
    expect(cells.map((c) => c.replace(/\s/g, ' '))).toEqual(['VESNA', '2', '3', '7 650 RSD', '1 350 RSD']);
    await figures.scrollIntoViewIfNeeded();
    await shot(page, 'dashboard-desktop', false);
    await ctx.close();
  });

  it('reads well at phone width, and a manager has no Промокоды', async () => {
    const { ctx, page } = await newPage(PHONE);
    await login(page);
    await page.goto(`${server.url}/promo-codes`);
    await card(page, 'VESNA').waitFor();
    await shot(page, 'page-phone');
    expect(await axeProblems(page)).toEqual([]);
    await card(page, 'VESNA').getByRole('button', { name: 'Изменить VESNA' }).click();
    await page.getByRole('dialog').getByLabel('Код').waitFor();
    await shot(page, 'dialog-phone', false);
    expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
    await ctx.close();

    const manager = { email: 'manager-promo@example.com', password: 'manager-password-1' };
    await api('POST', '/users/', { ...manager, is_active: true, role: 'manager' });
    const m = await newPage(DESKTOP);
    await login(m.page, manager);
    await expect(
      m.page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link', { name: 'Промокоды' }).count(),
    ).resolves.toBe(0);
    await m.page.goto(`${server.url}/promo-codes`);
    await m.page.getByTestId('no-access').waitFor();
    await m.ctx.close();
    expect(errors).toEqual([]);
  });
});
