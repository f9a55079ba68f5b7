import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import 'dayjs/locale/ru';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { axeProblems } from '../helpers/miniapp';
import { seedHistory } from '../../bench/seed-history';

dayjs.extend(utc);
dayjs.extend(timezone);

/*
 * What is typed is what is saved: the schedule dialog keeps the hour typed after a day was picked in
 * its calendar, a weekly series includes the picked day and lists its dates before saving, the toast
 * counts the sessions made, and days before today cannot be picked.
 */

type Server = Awaited<ReturnType<typeof startTestServer>>;
const TZ = 'Europe/Belgrade';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server: Server;
let browser: Browser;
let staff: { authorization: string };
const errors: string[] = [];

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...staff },
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
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(server.superuser.email);
  await page.getByLabel('Password', { exact: true }).fill(server.superuser.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await page.locator('main').waitFor();
  return { ctx, page };
}

async function shot(page: Page, name: string, fullPage = false) {
  await page.waitForTimeout(400); // transitions settle
  await page.screenshot({ path: screenshotPath(`typed-dates-${name}`), fullPage });
}

const studioDay = (plusDays: number) => dayjs().tz(TZ).add(plusDays, 'day').startOf('day');
/** As a Russian writes a day: «05.12.2026». */
const ru = (d: dayjs.Dayjs) => d.format('DD.MM.YYYY');
const RU_DAY = /^\d{2}\.\d{2}\.\d{4}$/;

/** The calendar's name for a day: «30 ноября 2026». */
const dayLabel = (d: dayjs.Dayjs) => d.locale('ru').format('D MMMM YYYY');

/** Clicks a day in the open calendar, turning to the next month when it is not shown yet. */
async function pickDay(page: Page, d: dayjs.Dayjs) {
  const day = page.getByRole('button', { name: dayLabel(d), exact: true });
  const next = page.locator('[data-direction="next"]').first();
  // The calendar opens after the click: counting its days before it is drawn would turn the month too far.
  await next.waitFor();
  for (let i = 0; i < 3 && (await day.count()) === 0; i++) await next.click();
  await day.click();
}

async function openAddDialog(page: Page) {
  await page.goto(`${server.url}/schedule`);
  await page.getByRole('button', { name: 'Добавить' }).click();
  const dialog = page.getByRole('dialog', { name: 'Добавление мастер-класса в расписание' });
  await dialog.getByRole('combobox', { name: 'Мастер-класс' }).click();
  await page.getByRole('listbox', { name: 'Мастер-класс' }).getByRole('option', { name: 'Сырники' }).click();
  return dialog;
}

const sessions = () => api<{ data: { id: number; date: string }[] }>('GET', '/schedule/');
const studioTimes = (list: { date: string }[]) =>
  list.map((s) => dayjs(s.date).tz(TZ).format('YYYY-MM-DD HH:mm')).sort();

beforeAll(async () => {
  server = await startTestServer({ env: { BUSINESS_TIMEZONE: TZ } });
  browser = await launchBrowser();
  staff = await server.auth();
  const workshop = await api<{ id: number }>('POST', '/workshops/', { title: 'Сырники', price: 2500 });
  const address = await api<{ id: number }>('POST', '/address/', { title: 'Улица 1', map_link: 'https://m/1' });
  // Ten past sessions, one every 17 hours back from yesterday: История has something to filter.
  await seedHistory(server.database, { workshopId: workshop.id, addressId: address.id, sessions: 10, perSession: 1 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('what is typed in the schedule dialog is what is saved', () => {
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`an hour typed after picking a day is the hour saved (${width})`, async () => {
      const { ctx, page } = await newPage(viewport);
      const before = (await sessions()).data.map((s) => s.id);
      const dialog = await openAddDialog(page);
      const target = studioDay(width === 'desktop' ? 3 : 4);
      await dialog.getByRole('textbox', { name: 'Дата' }).click();
      await pickDay(page, target);
      // As a person types: a click on the hours, then one digit at a time.
      await dialog.getByRole('spinbutton', { name: 'Часы' }).click();
      await page.keyboard.type('18', { delay: 300 });
      await page.keyboard.type('30', { delay: 300 });
      await shot(page, `hour-typed-${width}`);
      expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
      const created = page.waitForResponse((r) => r.url().endsWith('/schedule/') && r.status() === 201);
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      await created;
      const added = (await sessions()).data.filter((s) => !before.includes(s.id));
      expect(studioTimes(added)).toEqual([`${target.format('YYYY-MM-DD')} 18:30`]);
      await ctx.close();
    });

    it(`a weekly series includes the picked day, lists its dates before saving, and the toast counts them (${width})`, async () => {
      const { ctx, page } = await newPage(viewport);
      const before = (await sessions()).data.map((s) => s.id);
      const dialog = await openAddDialog(page);
      const target = studioDay(width === 'desktop' ? 2 : 5);
      await dialog.getByRole('textbox', { name: 'Дата' }).click();
      // Days before today cannot be picked; today can.
      const yesterday = page.getByRole('button', { name: dayLabel(studioDay(-1)), exact: true });
      if (await yesterday.count()) expect(await yesterday.isDisabled()).toBe(true);
      const today = page.getByRole('button', { name: dayLabel(studioDay(0)), exact: true });
      if (await today.count()) expect(await today.isDisabled()).toBe(false);
      await shot(page, `calendar-${width}`);
      await pickDay(page, target);
      await dialog.getByRole('spinbutton', { name: 'Часы' }).click();
      await page.keyboard.type('1830', { delay: 200 });
      await dialog.getByLabel('Повторять каждую неделю').check();
      // The picked day's weekday is chosen already, as the hint says.
      const weekday = ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'][(target.day() + 6) % 7];
      expect(await dialog.getByRole('checkbox', { name: weekday, exact: true }).isChecked()).toBe(true);
      await dialog.getByLabel('Недель (до 26)').fill('3');
      const preview = dialog.getByTestId('series-preview');
      await preview.getByText('Будет создано 3 мастер-класса:').waitFor();
      const listed = await preview.getByRole('listitem').allInnerTexts();
      const expected = [0, 7, 14].map((d) => target.add(d, 'day').locale('ru').format('D MMMM 18:30'));
      expect(listed.map((t) => t.replace(/^\S+, /, ''))).toEqual(expected);
      await preview.scrollIntoViewIfNeeded();
      await page.mouse.move(0, 0);
      await shot(page, `series-${width}`);
      expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      await page.getByText('Создано 3 мастер-класса', { exact: true }).waitFor();
      await shot(page, `series-toast-${width}`);
      const added = (await sessions()).data.filter((s) => !before.includes(s.id));
      expect(studioTimes(added)).toEqual([0, 7, 14].map((d) => target.add(d, 'day').format('YYYY-MM-DD 18:30')));
      await ctx.close();
    });
  }
});

describe('one Russian date input on Касса, История, Журнал and Промокоды', () => {
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`each shows дд.мм.гггг and filters by the day typed (${width})`, async () => {
      const { ctx, page } = await newPage(viewport);
      const field = (label: string) => page.getByRole('textbox', { name: label, exact: true });

      // Журнал: from tomorrow nothing; up to today everything made so far.
      await page.goto(`${server.url}/audit`);
      await page.getByTestId('audit-entry').first().waitFor();
      await field('С').fill(ru(studioDay(1)));
      await page.getByText('Записей в журнале нет.').waitFor();
      await field('С').fill('');
      await field('По').fill(ru(studioDay(0)));
      await page.getByTestId('audit-entry').first().waitFor();
      expect(await field('С').inputValue()).toBe('');
      await page.keyboard.press('Escape');
      expect(await field('По').inputValue()).toMatch(RU_DAY);
      expect(await field('По').inputValue()).toBe(ru(studioDay(0)));
      await field('С').click();
      await page
        .getByRole('button', { name: dayLabel(studioDay(0)), exact: true })
        .first()
        .waitFor();
      await shot(page, `audit-${width}`);
      expect(await axeProblems(page)).toEqual([]);
      await page.keyboard.press('Escape');

      // История: up to three days ago shows the sessions before then, as the API counts them.
      await page.goto(`${server.url}/past`);
      await page.getByTestId('schedule-card').nth(9).waitFor();
      const until = studioDay(-3);
      const expected = await api<{ count: number }>('GET', `/schedule/past?to=${until.format('YYYY-MM-DD')}`);
      expect(expected.count).toBeGreaterThan(0);
      expect(expected.count).toBeLessThan(10);
      // Typed with one-digit day and month, it reads back in full once the field is left.
      await field('По').fill(until.format('D.M.YYYY'));
      await field('По').press('Tab');
      expect(await field('По').inputValue()).toBe(ru(until));
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="schedule-card"]').length === n,
        expected.count,
      );
      await shot(page, `past-${width}`);
      expect(await axeProblems(page)).toEqual([]);

      // Касса: the last 30 days by default, in Russian; a period is asked of the API as typed.
      await page.goto(`${server.url}/cash`);
      await page.getByTestId('cash-totals').waitFor();
      expect(await field('С').inputValue()).toBe(ru(studioDay(-30)));
      expect(await field('По').inputValue()).toBe(ru(studioDay(0)));
      const asked = page.waitForRequest((r) => r.url().includes(`from=${studioDay(-7).format('YYYY-MM-DD')}`));
      await field('С').fill(ru(studioDay(-7)));
      await asked;
      await page.keyboard.press('Escape');
      await shot(page, `cash-desk-${width}`);
      expect(await axeProblems(page)).toEqual([]);

      // Промокоды: the dialog's period is typed the same way.
      await page.goto(`${server.url}/promo-codes`);
      await page.getByRole('button', { name: 'Добавить' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Код').fill(`ZIMA-${width}`);
      await dialog.getByLabel(/^(Процент скидки|Сумма скидки, RSD)/).fill('10');
      await dialog.getByRole('textbox', { name: 'Действует с' }).fill(ru(studioDay(1)));
      await dialog.getByRole('textbox', { name: 'по (включительно)' }).fill(ru(studioDay(31)));
      await dialog.getByLabel('Код').click(); // closes the calendar
      // The pointer off the buttons: axe checks the resting colours, not a hover.
      await page.mouse.move(0, 0);
      await shot(page, `promo-${width}`);
      expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
      const created = page.waitForResponse((r) => r.url().endsWith('/promo-codes/') && r.status() === 201);
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      expect(await (await created).json()).toMatchObject({
        valid_from: studioDay(1).format('YYYY-MM-DD'),
        valid_to: studioDay(31).format('YYYY-MM-DD'),
      });
      await page
        .getByTestId('promo-card')
        .filter({ hasText: `ZIMA-${width}`.toUpperCase() })
        .getByText(`с ${ru(studioDay(1))} по ${ru(studioDay(31))}`)
        .waitFor();
      await ctx.close();
    });
  }

  it('left no console errors', () => {
    expect(errors).toEqual([]);
  });
});
