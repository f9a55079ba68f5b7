import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hostWindow } from '../../contract/host-window';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { initDataFor } from '../helpers/telegram';
import { axeProblems } from '../helpers/miniapp';

/*
 * The host at the door, in the browser: the admin shows a host only what a host may use (the day's
 * sessions, a week of History, their own settings) and never asks the server for anything it refuses;
 * at phone width a session's bookings are one card per participant with the check-in mark and the
 * payment button. Screenshots of each; no serious or critical axe-core finding.
 */

type Server = Awaited<ReturnType<typeof startTestServer>>;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const HOST = { email: 'host-door@example.com', password: 'host-password-1' };
const MANAGER = { email: 'manager-door@example.com', password: 'manager-password-1' };
const VERA = { id: 7_400_001, username: 'vera_door', first_name: 'Вера' };
const OLEG = { id: 7_400_002, username: 'oleg_door', first_name: 'Олег' };

let server: Server;
let browser: Browser;
let staff: { authorization: string };
const ids = { soon: 0, dayAfter: 0, yesterday: 0, older: 0, vera: 0, oleg: 0 };
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

/** A page that records every API answer the server refused (403) and every script error. */
async function newPage(viewport: {
  width: number;
  height: number;
}): Promise<{ ctx: BrowserContext; page: Page; refused: string[] }> {
  // bypassCSP: axe-core is injected as an inline script, which the admin's policy rightly refuses.
  const ctx = await browser.newContext({ viewport, locale: 'ru-RU', timezoneId: 'Europe/Belgrade', bypassCSP: true });
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() === 403) refused.push(`${r.request().method()} ${r.url()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  return { ctx, page, refused };
}

async function login(page: Page, who: { email: string; password: string }) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await page.locator('main').waitFor();
}

async function shot(page: Page, name: string, fullPage = false) {
  await page.waitForTimeout(400); // transitions settle
  await page.screenshot({ path: screenshotPath(`host-${name}`), fullPage });
}

const card = (page: Page, id: number) => page.locator(`[data-schedule-id="${id}"]`);

beforeAll(async () => {
  server = await startTestServer({ env: { BUSINESS_TIMEZONE: 'Europe/Belgrade' } });
  browser = await launchBrowser();
  staff = await server.auth();
  await api('POST', '/users/', { ...HOST, is_active: true, role: 'host' });
  await api('POST', '/users/', { ...MANAGER, is_active: true, role: 'manager' });
  const workshop = await api<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: 3000 });
  const address = await api<{ id: number }>('POST', '/address/', { title: 'Улица 1', map_link: 'https://m/1' });
  const session = (date: string) =>
    api<{ id: number }>('POST', '/schedule/', { date, capacity: 8, workshop_id: workshop.id, address_id: address.id });
  const w = hostWindow('Europe/Belgrade');
  const hour = 3_600_000;
  // Check-in opens an hour before the start: this one is open now, and it is always today or tomorrow.
  ids.soon = (await session(new Date(Date.now() + 20 * 60_000).toISOString())).id;
  ids.dayAfter = (await session(new Date(Date.parse(w.to) + 2 * hour).toISOString())).id;
  ids.yesterday = (await session(new Date(Date.parse(w.from) - 2 * hour).toISOString())).id;
  ids.older = (await session(new Date(Date.parse(w.historyFrom) - 2 * hour).toISOString())).id;
  const bookAs = async (u: typeof VERA, scheduleId: number, extra: object) =>
    (
      await api<{ record: { id: number } }>(
        'POST',
        '/records/',
        { schedule_id: scheduleId, is_first_time: false, consent: true, ...extra },
        { authorization: `tma ${initDataFor(u)}` },
      )
    ).record.id;
  ids.vera = await bookAs(VERA, ids.soon, {
    name: 'Вера',
    last_name: 'Ким',
    people_count: 2,
    has_allergy: true,
    allergy_type: 'орехи',
    comment: 'Придём с подругой',
  });
  ids.oleg = await bookAs(OLEG, ids.soon, { name: 'Олег', last_name: 'Иванов' });
  await bookAs(OLEG, ids.dayAfter, { name: 'Олег', last_name: 'Иванов' });
  // Yesterday's session with a booking: booked while upcoming, then moved back (a customer cannot book the past).
  await server.database.db
    .updateTable('schedules')
    .set({ date: new Date(Date.now() + 3 * 86_400_000).toISOString() })
    .where('id', '=', ids.yesterday)
    .execute();
  await bookAs(VERA, ids.yesterday, { name: 'Вера', last_name: 'Ким' });
  await server.database.db
    .updateTable('schedules')
    .set({ date: new Date(Date.parse(w.from) - 2 * hour).toISOString() })
    .where('id', '=', ids.yesterday)
    .execute();
  await api('PUT', `/customers/${VERA.id}/note`, { note: 'Вегетарианка' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the host’s admin', () => {
  it('desktop: starts on Расписание with today’s and tomorrow’s sessions only, nothing a host cannot use, no refused request', async () => {
    const { ctx, page, refused } = await newPage(DESKTOP);
    await login(page, HOST);
    // The dashboard shows revenue: a host starts on the day's sessions.
    await page.waitForURL((u) => u.pathname === '/schedule');
    await card(page, ids.soon).waitFor();
    expect(await card(page, ids.dayAfter).count()).toBe(0);
    const nav = page.getByRole('navigation', { name: 'Главное меню' });
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(['Расписание', 'История', 'Настройки']);
    const soon = card(page, ids.soon);
    const row = soon.getByTestId('records-table').getByRole('row').filter({ hasText: 'Вера Ким' });
    await row.getByText('Заметка: Вегетарианка').waitFor();
    await row.getByText('орехи').waitFor();
    for (const name of ['Добавить', 'Редактировать', 'Удалить', 'Отменить мастер-класс', 'Список участников (CSV)'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    // A booking's change history is the manager's.
    expect(await page.getByRole('button', { name: 'История изменений' }).count()).toBe(0);
    await soon.getByRole('button', { name: 'Отметить посещение' }).click();
    await soon.getByTestId('check-in').waitFor();
    // The pointer off the buttons: axe checks the resting colours, not a hover.
    await page.mouse.move(0, 0);
    await shot(page, 'schedule-desktop', true);
    expect(await axeProblems(page)).toEqual([]);

    // Payments: taken at the desk, never refunded by a host.
    await row.getByTestId('payment-badge').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Принять оплату' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Вернуть' }).count()).toBe(0);
    // Cash or card at the door; a bank transfer is a manager's to record.
    await dialog.getByLabel('Способ').click();
    await page.getByRole('option', { name: 'Карта в студии' }).waitFor();
    await expect(page.getByRole('option').allTextContents()).resolves.toEqual(['Наличные', 'Карта в студии']);
    await page.keyboard.press('Escape');
    await shot(page, 'payment-dialog-desktop');
    expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
    await page.keyboard.press('Escape');
    expect(refused).toEqual([]);
    await ctx.close();
  });

  it('phone: one card per participant with party, allergy, note, the check-in mark and the payment button; no sideways scrolling', async () => {
    const { ctx, page, refused } = await newPage(PHONE);
    await login(page, HOST);
    await page.waitForURL((u) => u.pathname === '/schedule');
    const soon = card(page, ids.soon);
    await soon.getByTestId('records-cards').waitFor();
    expect(await page.getByTestId('records-table').count()).toBe(0);
    const vera = soon.locator(`[data-testid="record-card"][data-record-id="${ids.vera}"]`);
    for (const text of [
      'Вера Ким',
      '2 чел.',
      'Аллергия: орехи',
      'Комментарий: Придём с подругой',
      'Заметка: Вегетарианка',
    ])
      await vera.getByText(text).waitFor();
    expect(await soon.getByTestId('record-card').count()).toBe(2);
    // Nothing is wider than the phone: the page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'schedule-phone', true);
    expect(await axeProblems(page)).toEqual([]);

    // Check-in from the card.
    const marked = page.waitForResponse((r) => r.url().endsWith(`/records/${ids.vera}/attendance`) && r.ok());
    await vera
      .getByRole('group', { name: 'Посещение: Вера Ким' })
      .getByRole('button', { name: 'Пришёл', exact: true })
      .click();
    await marked;
    await vera.getByTestId('attendance').filter({ hasText: 'Пришёл' }).waitFor();

    // Cash at the door from the card: the balance, at once.
    await vera.getByRole('button', { name: 'Оплата' }).click();
    const dialog = page.getByRole('dialog');
    await shot(page, 'payment-dialog-phone');
    const paid = page.waitForResponse((r) => r.url().endsWith(`/records/${ids.vera}/payments`) && r.status() === 201);
    await dialog.getByRole('button', { name: 'Принять оплату' }).click();
    await paid;
    await page.keyboard.press('Escape');
    await vera.locator('[data-testid="payment-badge"][data-status="paid"]').waitFor();
    await shot(page, 'checked-in-paid-phone', true);
    const ledger = await api<{ money: { status: string } }>('GET', `/records/${ids.vera}/payments`);
    expect(ledger.money.status).toBe('paid');
    expect(refused).toEqual([]);
    await ctx.close();
  });

  it('History: the week before and no further, without filters or exports', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { ctx, page, refused } = await newPage(viewport);
      await login(page, HOST);
      await page.goto(`${server.url}/past`);
      const yesterday = card(page, ids.yesterday);
      await yesterday.getByText('Вера Ким').waitFor();
      expect(await card(page, ids.older).count()).toBe(0);
      // Read only: no check-in, no payment dialog, no booking history on another day's session.
      for (const name of ['Отметить посещение', 'Оплата', 'Пришёл', 'История изменений', 'Оплата записи'])
        expect(await yesterday.getByRole('button', { name }).count(), name).toBe(0);
      await yesterday.getByTestId('payment-badge').waitFor();
      expect(await page.getByTestId('list-filter').count()).toBe(0);
      await shot(page, `history-${name}`, true);
      expect(await axeProblems(page)).toEqual([]);
      expect(refused).toEqual([]);
      await ctx.close();
    }
  });

  it('Settings: only the host’s own profile, password, Telegram and alerts, with no refused request', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { ctx, page, refused } = await newPage(viewport);
      await login(page, HOST);
      await page.goto(`${server.url}/settings`);
      await page.getByRole('tab', { name: 'Профиль' }).waitFor();
      await expect(page.getByRole('tab').allTextContents()).resolves.toEqual(['Профиль', 'Уведомления']);
      await page.getByLabel('Полное имя').waitFor();
      await shot(page, `settings-${name}`, true);
      expect(await axeProblems(page)).toEqual([]);
      await page.getByRole('tab', { name: 'Уведомления' }).click();
      await page.getByText('Какие сообщения бот отправляет').waitFor();
      // The host saves their own alerts.
      const saved = page.waitForResponse(
        (r) => r.url().endsWith('/api/v1/settings/') && r.request().method() === 'POST',
      );
      // Alerts about bookings name sessions on any date: a host gets only the day-before summary.
      expect(await page.getByRole('switch', { name: 'Новая запись' }).count()).toBe(0);
      await page.getByRole('switch', { name: 'Напоминание за день' }).click();
      await page.getByRole('button', { name: 'Сохранить' }).click();
      expect((await saved).status()).toBe(200);
      expect(refused).toEqual([]);
      await ctx.close();
    }
  });

  it('every other page by its URL shows «Нет доступа» and asks the server nothing', async () => {
    const { ctx, page, refused } = await newPage(PHONE);
    await login(page, HOST);
    for (const path of ['/workshops', '/customers', '/cash', '/audit', '/admin', '/certificates', '/promo-codes']) {
      await page.goto(`${server.url}${path}`);
      // A page the admin does not have at all is «Not found», which asks for nothing either.
      await page.getByTestId('no-access').or(page.getByTestId('not-found')).first().waitFor();
    }
    await page.goto(`${server.url}/customers`);
    await page.getByTestId('no-access').getByText('Нет доступа').waitFor();
    await shot(page, 'no-access-phone');
    expect(await axeProblems(page)).toEqual([]);
    expect(refused).toEqual([]);
    await ctx.close();
  });

  it('a manager at phone width gets the same cards, with the booking history and refunds', async () => {
    const { ctx, page, refused } = await newPage(PHONE);
    await login(page, MANAGER);
    await page.goto(`${server.url}/schedule`);
    const oleg = card(page, ids.soon).locator(`[data-testid="record-card"][data-record-id="${ids.oleg}"]`);
    await oleg.getByRole('button', { name: 'История изменений' }).waitFor();
    expect(await page.getByTestId('records-table').count()).toBe(0);
    await card(page, ids.dayAfter).waitFor();
    await shot(page, 'manager-schedule-phone', true);
    expect(refused).toEqual([]);
    await ctx.close();
    expect(errors).toEqual([]);
  });
});
