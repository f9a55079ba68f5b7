import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { initDataFor } from '../helpers/telegram';
import { axeProblems } from '../helpers/miniapp';
import { hostWindow, inHostDays } from '../../contract/host-window';

/*
 * The studio's weeks in the browser: a weekly series from the add dialog, a client note kept on
 * Клиенты and shown on the customer's booking rows, a session cancelled with a reason and shown in
 * History as «Отменён»; screenshots of each and no serious or critical axe-core finding.
 */

type Server = Awaited<ReturnType<typeof startTestServer>>;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server: Server;
let browser: Browser;
let staff: { authorization: string };
let workshopId = 0;
let sessionId = 0;
const VERA = { id: 7_300_001, username: 'vera_weeks' };
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

async function login(page: Page, who = server.superuser) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await page.locator('main').waitFor();
}

async function shot(page: Page, name: string, fullPage = true) {
  await page.waitForTimeout(400); // transitions settle
  await page.screenshot({ path: screenshotPath(`weeks-${name}`), fullPage });
}

beforeAll(async () => {
  server = await startTestServer({ env: { BUSINESS_TIMEZONE: 'Europe/Belgrade' } });
  browser = await launchBrowser();
  staff = await server.auth();
  workshopId = (await api<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: 3000 })).id;
  const address = await api<{ id: number }>('POST', '/address/', { title: 'Улица 1', map_link: 'https://m/1' });
  sessionId = (
    await api<{ id: number }>('POST', '/schedule/', {
      date: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      capacity: 6,
      workshop_id: workshopId,
      address_id: address.id,
    })
  ).id;
  await api(
    'POST',
    '/records/',
    { schedule_id: sessionId, name: 'Вера', last_name: 'Ким', is_first_time: false, consent: true },
    { authorization: `tma ${initDataFor({ id: VERA.id, username: VERA.username, first_name: 'Вера' })}` },
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the studio’s weeks in the browser', () => {
  it('adds a weekly series from the add dialog: Monday and Thursday for 4 weeks are 8 sessions of one series, each with the minimum given', async () => {
    const { ctx, page } = await newPage(DESKTOP);
    await login(page);
    await page.goto(`${server.url}/schedule`);
    await page.getByRole('button', { name: 'Добавить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Мастер-класс').click();
    await page.getByRole('listbox', { name: 'Мастер-класс' }).getByRole('option', { name: 'Хинкали' }).click();
    await dialog.getByLabel('Повторять каждую неделю').check();
    // The chosen date's weekday comes checked: exactly Monday and Thursday.
    for (const day of ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс']) {
      const want = day === 'Пн' || day === 'Чт';
      if ((await dialog.getByRole('checkbox', { name: day, exact: true }).isChecked()) !== want)
        await dialog.getByText(day, { exact: true }).click();
    }
    await dialog.getByLabel('Недель (до 26)').fill('4');
    await dialog.getByLabel('Минимум участников').fill('3');
    // The pointer off the chips: axe checks the resting colours, not a hover.
    await page.mouse.move(0, 0);
    await shot(page, 'series-dialog', false);
    expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
    const created = page.waitForResponse((r) => r.url().endsWith('/schedule/series') && r.status() === 201);
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    const body = await (await created).json();
    expect(body.count).toBe(8);
    expect(new Set(body.data.map((s: { series_id: number }) => s.series_id)).size).toBe(1);
    expect(body.data.map((s: { min_people: number | null }) => s.min_people)).toEqual(Array(8).fill(3));
    const list = await api<{ data: { workshop: { id: number }; series_id: number | null }[] }>('GET', '/schedule/');
    expect(list.data.filter((s) => s.series_id !== null)).toHaveLength(8);

    // Editing one of them offers «Только это» / «Это и следующие».
    const card = page.locator(`[data-schedule-id="${body.data[0].id}"]`);
    await card.getByRole('button', { name: 'Редактировать' }).click();
    await page.getByRole('dialog').getByText('Это и следующие').waitFor();
    await shot(page, 'series-edit', false);
    await page.keyboard.press('Escape');
    await ctx.close();
  });

  it('a note kept on Клиенты is shown on the customer’s booking row', async () => {
    const { ctx, page } = await newPage(DESKTOP);
    await login(page);
    await page.goto(`${server.url}/customers`);
    await page.getByRole('button', { name: /Вера/ }).click();
    await page.getByTestId('customer-note-input').fill('Вегетарианка, всегда приносит вино');
    const saved = page.waitForResponse((r) => r.url().endsWith(`/customers/${VERA.id}/note`) && r.ok());
    await page.getByRole('button', { name: 'Сохранить заметку' }).click();
    await saved;
    await shot(page, 'note-customer', false);
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/schedule`);
    const row = page
      .locator(`[data-schedule-id="${sessionId}"]`)
      .getByTestId('records-table')
      .getByRole('row')
      .filter({ hasText: 'Вера' });
    await row.getByTestId('customer-note').filter({ hasText: 'Вегетарианка, всегда приносит вино' }).waitFor();
    await page.locator(`[data-schedule-id="${sessionId}"]`).scrollIntoViewIfNeeded();
    await shot(page, 'note-booking-row', false);
    expect(await axeProblems(page)).toEqual([]);
    await ctx.close();
  });

  it('cancels a session with a reason: it leaves the schedule and shows in History as «Отменён»', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { ctx, page } = await newPage(viewport);
      await login(page);
      if (name === 'desktop') {
        await page.goto(`${server.url}/schedule`);
        const card = page.locator(`[data-schedule-id="${sessionId}"]`);
        await card.getByRole('button', { name: 'Отменить мастер-класс' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('button', { name: 'Отменить мастер-класс' }).click();
        await dialog.getByText('Укажите причину отмены').waitFor();
        await dialog.getByLabel('Причина (её увидят клиенты)').fill('Шеф заболел');
        await shot(page, 'cancel-dialog', false);
        expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
        const done = page.waitForResponse((r) => r.url().endsWith(`/schedule/${sessionId}/cancel`) && r.ok());
        await dialog.getByRole('button', { name: 'Отменить мастер-класс' }).click();
        await done;
        await card.waitFor({ state: 'detached' });
      }
      await page.goto(`${server.url}/past`);
      const cancelled = page.locator(`[data-schedule-id="${sessionId}"]`);
      await cancelled.getByTestId('cancelled-badge').waitFor();
      // The session's reason (its cancelled booking, as a phone card, shows the same words).
      await cancelled.getByText('Причина отмены: Шеф заболел').first().waitFor();
      await expect(cancelled.getByRole('button', { name: 'Редактировать' }).count()).resolves.toBe(0);
      await shot(page, `history-cancelled-${name}`, false);
      expect(await axeProblems(page)).toEqual([]);
      await ctx.close();
    }
    const view = await api<{ records: { state: string }[] }>('GET', `/schedule/${sessionId}`);
    expect(view.records.map((r) => r.state)).toEqual(['CANCELLED']);
    expect(errors).toEqual([]);
  });

  it('a host sees only today’s and tomorrow’s sessions and «Нет доступа» elsewhere, at desktop and phone widths', async () => {
    const host = { email: 'host-e2e@example.com', password: 'host-password-1' };
    await api('POST', '/users/', { ...host, is_active: true, role: 'host' });
    const address = (await api<{ data: { id: number }[] }>('GET', '/address/')).data[0];
    const today = await api<{ id: number }>('POST', '/schedule/', {
      date: new Date(Date.now() + 60_000).toISOString(),
      capacity: 4,
      workshop_id: workshopId,
      address_id: address.id,
    });
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { ctx, page } = await newPage(viewport);
      await login(page, host);
      await page.goto(`${server.url}/schedule`);
      await page.locator(`[data-schedule-id="${today.id}"]`).waitFor();
      // Only today's and tomorrow's in the studio's zone (a series session of the first test falls there
      // when the test runs the day before one of its days).
      const window = hostWindow('Europe/Belgrade');
      const all = await api<{ data: { id: number; date: string }[] }>('GET', '/schedule/?limit=100');
      const hostDays = all.data.filter((s) => inHostDays(window, s.date)).map((s) => String(s.id));
      const shown = await page
        .getByTestId('schedule-card')
        .evaluateAll((cards) => cards.map((c) => c.closest('[data-schedule-id]')?.getAttribute('data-schedule-id')));
      expect(shown.sort()).toEqual(hostDays.sort());
      expect(hostDays).toContain(String(today.id));
      // Nothing a host cannot use: no adding, editing, cancelling or exports.
      for (const name of ['Добавить', 'Редактировать', 'Отменить мастер-класс', 'Список участников (CSV)'])
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      if (name === 'desktop') {
        const nav = page.getByRole('navigation', { name: 'Главное меню' });
        await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(['Расписание', 'История', 'Настройки']);
      }
      await shot(page, `host-schedule-${name}`, false);
      expect(await axeProblems(page)).toEqual([]);
      await page.goto(`${server.url}/customers`);
      await page.getByTestId('no-access').getByText('Нет доступа').waitFor();
      await shot(page, `host-no-access-${name}`, false);
      expect(await axeProblems(page)).toEqual([]);
      await ctx.close();
    }
  });
});
