import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { axeProblems, launchHash, signedInitData } from '../helpers/miniapp';

/*
 * Minimum participants in the browser: the mini-app's schedule says how many more people a session
 * under its minimum needs; the workshop dialog, the session dialog and Настройки → Бизнес have their
 * fields, a superuser saves the choice, and a wrong value gets a Russian message. Screenshots of each.
 */

type Server = Awaited<ReturnType<typeof startTestServer>>;

let server: Server;
let browser: Browser;
let staff: { authorization: string };
const ids = { needs: 0, met: 0, own: 0 };
let workshopId = 0;
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

async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  const ctx = await browser.newContext({ viewport, locale: 'ru-RU', timezoneId: 'UTC', bypassCSP: true });
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return page;
}

async function login(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(server.superuser.email);
  await page.getByLabel('Password', { exact: true }).fill(server.superuser.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await page.locator('main').waitFor();
}

const shot = async (page: Page, name: string) => {
  await page.waitForTimeout(400);
  await page.screenshot({ path: screenshotPath(`min-people-${name}`), fullPage: true });
};

const book = (scheduleId: number, people: number) =>
  api('POST', '/records/', {
    schedule_id: scheduleId,
    name: 'Гость',
    people_count: people,
    is_first_time: true,
    consent: true,
  });

beforeAll(async () => {
  server = await startTestServer({ env: { BUSINESS_TIMEZONE: 'Europe/Belgrade' } });
  browser = await launchBrowser();
  staff = await server.auth();
  workshopId = (await api<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: 3000, min_people: 4 })).id;
  const address = await api<{ id: number }>('POST', '/address/', { title: 'Улица 1', map_link: 'https://m/1' });
  const session = async (days: number, extra: Record<string, unknown> = {}) =>
    (
      await api<{ id: number }>('POST', '/schedule/', {
        date: new Date(Date.now() + days * 86_400_000).toISOString(),
        capacity: 8,
        workshop_id: workshopId,
        address_id: address.id,
        ...extra,
      })
    ).id;
  ids.needs = await session(5);
  ids.met = await session(6);
  ids.own = await session(7, { min_people: 2 });
  // Staff take bookings for people without Telegram: 1 of 4, 4 of 4, and none of its own 2.
  await book(ids.needs, 1);
  await book(ids.met, 4);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('minimum participants in the browser', () => {
  it('the mini-app schedule says «Нужно ещё N человек» on sessions under their minimum only', async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(`${server.url}/apply${launchHash(signedInitData({ id: 7_400_001, first_name: 'Ира' }), 'light')}`);
    const needs = page.getByTestId(`session-${ids.needs}`);
    await needs.waitFor();
    expect(await needs.textContent()).toContain('Нужно ещё 3 человека');
    expect(await page.getByTestId(`session-${ids.own}`).textContent()).toContain('Нужно ещё 2 человека');
    expect(await page.getByTestId(`session-${ids.met}`).textContent()).not.toContain('Нужно ещё');
    await shot(page, 'apply-schedule');
    expect(await axeProblems(page)).toEqual([]);
  });

  it('the workshop and session dialogs have «Минимум участников»; Настройки → Бизнес has the rule', async () => {
    const page = await newPage({ width: 1280, height: 900 });
    await login(page);

    await page.goto(`${server.url}/workshops`);
    await page
      .getByRole('button', { name: /Добавить/ })
      .first()
      .click();
    const min = page.getByLabel('Минимум участников');
    await min.waitFor();
    expect(await min.inputValue()).toBe('0');
    await min.fill('-1');
    await min.blur();
    await page.getByText('Минимум участников: от 0 до 1000').waitFor();
    await shot(page, 'workshop-dialog');
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/schedule`);
    await page
      .getByRole('button', { name: /Добавить/ })
      .first()
      .click();
    const own = page.getByLabel('Минимум участников');
    await own.waitFor();
    // Empty: the workshop's minimum applies.
    expect(await own.inputValue()).toBe('');
    await shot(page, 'session-dialog');
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/settings`);
    await page.getByRole('tab', { name: 'Бизнес' }).click();
    const decision = page.getByLabel('Срок решения, часов до начала');
    await decision.waitFor();
    expect(await decision.inputValue()).toBe('48');
    await decision.scrollIntoViewIfNeeded();
    await shot(page, 'settings-ask');
    const grace = page.getByLabel('Время на ответ, часов');
    await grace.fill('0');
    await grace.blur();
    await page.getByText('Время на ответ: не меньше 1 часа').waitFor();
    await grace.fill('6');
    await page.getByRole('combobox', { name: 'Если не набрался минимум' }).click();
    await page.getByRole('option', { name: 'Отменять автоматически' }).click();
    // Without staff to ask there is nothing to wait for.
    await expect.poll(() => page.getByLabel('Время на ответ, часов').count()).toBe(0);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Настройки сохранены.').waitFor();
    const saved = await api<Record<string, unknown>>('GET', '/business-settings/');
    expect(saved).toMatchObject({
      min_people_action: 'cancel',
      min_people_grace_hours: 6,
      min_people_decision_hours: 48,
    });
    await shot(page, 'settings-cancel');
    expect(errors).toEqual([]);
  });
});
