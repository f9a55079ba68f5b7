/**
 * The owner's first visit on the platform, in Debian's Chromium at 1280 and 390 px: the platform bot's
 * one-time link `/s/<slug>/welcome?token=…` logs them in (the token leaves the address bar, the login is
 * kept under the studio's prefix), and the first-run wizard sets the studio's name and time zone, adds a
 * first address, workshop and session, and «Готово» opens the schedule with that session, in the new
 * zone. Before that the studio's password-login owner sees the schedule's «Завершите настройку студии»
 * banner; the link used once is refused in Russian. axe-core (WCAG 2.1 AA) finds nothing serious or
 * critical on any step. Screenshots: test-results/screenshots/welcome-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { storageKey } from '../../contract/app-config';
import { toZonedInput } from '../../contract/format';
import { createLoginLink } from '../../platform/login-links';
import { launchBrowser, screenshotPath, sideways } from '../helpers/browser';
import { axeProblems } from '../helpers/miniapp';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

const DIST = process.env.DIST_DIR ?? 'dist';
const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const OWNER_TG = 8_880_001;

let browser: Browser;

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'admin', 'index.html')))
    throw new Error(`No built admin in ${DIST}: run \`npx vite build\` first`);
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

/** A platform with one studio (platform/host.ts gives its app the studio's gateway). */
async function platformWithStudio(slug: string) {
  const p = await startTestPlatform();
  const studio = await p.addStudio(slug, 1);
  return { p, studio };
}

async function openPage(viewport: { width: number; height: number }, token?: string, prefix = '') {
  const context = await browser.newContext({
    viewport,
    locale: 'ru-RU',
    timezoneId: 'Europe/Belgrade',
    bypassCSP: true,
  });
  if (token)
    await context.addInitScript(([k, t]) => localStorage.setItem(k, t), [storageKey(prefix, 'access_token'), token]);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors, close: () => context.close() };
}

const shot = async (page: Page, name: string) => {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: screenshotPath(`welcome-${name}`), fullPage: true });
};

async function step(page: Page, n: number, title: string) {
  await page
    .getByTestId('wizard-step')
    .filter({ hasText: `Шаг ${n} из 5. ${title}` })
    .waitFor();
  // The dropdowns and the stepper's own animations settle before axe and the screenshot.
  await page.waitForTimeout(250);
}

async function checkAxe(page: Page, where: string) {
  // A hovered button is a shade lighter (Mantine's hover of the darkest shade): the pointer moves away first.
  await page.mouse.move(0, 0);
  expect(await axeProblems(page), where).toEqual([]);
}

describe.each(VIEWPORTS)('the welcome link and the first-run wizard (%s)', (width, viewport) => {
  let p: TestPlatform;
  let slug: string;
  let studioId: number;

  beforeAll(async () => {
    const made = await platformWithStudio(`wizard-${width}`);
    p = made.p;
    slug = made.studio.slug;
    studioId = made.studio.id;
  }, 120_000);
  afterAll(async () => p?.close());

  it('shows a password-login owner the schedule banner until setup is done', async () => {
    const owner = await p.auth(slug);
    const { page, errors, close } = await openPage(viewport, owner.authorization.replace(/^Bearer /, ''), `/s/${slug}`);
    await page.goto(`${p.url}/s/${slug}/schedule`);
    const banner = page.getByTestId('setup-banner');
    await banner.waitFor();
    expect(await banner.getByRole('link', { name: 'Завершите настройку студии' }).getAttribute('href')).toBe(
      `/s/${slug}/welcome?setup=1`,
    );
    await shot(page, `banner-${width}`);
    await checkAxe(page, 'schedule with the banner');
    expect(errors).toEqual([]);
    await close();
  });

  it('logs in by the link and goes through all five steps to the schedule with the first session', async () => {
    const token = await createLoginLink(p.store, studioId, OWNER_TG);
    const { page, errors, close } = await openPage(viewport);
    await page.goto(`${p.url}/s/${slug}/welcome?token=${token}`);

    // 1. The name: the link logged the owner in, under this studio's key, and left the address bar.
    await step(page, 1, 'Название');
    expect(page.url()).toBe(`${p.url}/s/${slug}/welcome`);
    expect(await page.evaluate((k) => localStorage.getItem(k), storageKey(`/s/${slug}`, 'access_token'))).toBeTruthy();
    await page.getByTestId('telegram-login-note').waitFor();
    expect(await sideways(page)).toBe(0);
    const name = page.getByRole('textbox', { name: 'Название студии' });
    expect(await name.inputValue()).toBe('Студия 1');
    // Required: an empty name is refused at the field, in Russian.
    await name.fill('   ');
    await page.getByRole('button', { name: 'Далее' }).click();
    await page.getByText('Укажите название студии').waitFor();
    await name.fill('Кухня Марии');
    await shot(page, `1-name-${width}`);
    await checkAxe(page, 'step 1');
    await page.getByRole('button', { name: 'Далее' }).click();

    // 2. The time zone: searchable, the studio's (Europe/Belgrade) chosen first.
    await step(page, 2, 'Часовой пояс');
    const zone = page.getByRole('combobox', { name: 'Часовой пояс' });
    expect(await zone.inputValue()).toMatch(/^Белград — Europe\/Belgrade/);
    await zone.click();
    await zone.fill('Моск');
    await page.getByRole('option', { name: /Москва — Europe\/Moscow/ }).click();
    expect(await zone.inputValue()).toMatch(/^Москва — Europe\/Moscow \(GMT\+3\)$/);
    await shot(page, `2-zone-${width}`);
    await checkAxe(page, 'step 2');
    await page.getByRole('button', { name: 'Далее' }).click();

    // 3. The first address: the API's check of a required field is shown at it.
    await step(page, 3, 'Адрес');
    await page.getByRole('textbox', { name: 'Адрес' }).fill('Улица Цара Душана 10');
    await page.getByRole('button', { name: 'Далее' }).click();
    await page.getByText('Укажите ссылку').waitFor();
    await page.getByRole('textbox', { name: 'Ссылка на карту' }).fill('https://maps.app.goo.gl/dorcol');
    await shot(page, `3-address-${width}`);
    await checkAxe(page, 'step 3');
    await page.getByRole('button', { name: 'Далее' }).click();

    // 4. The first workshop.
    await step(page, 4, 'Мастер-класс');
    await page.getByRole('textbox', { name: 'Название мастер-класса' }).fill('Хачапури по-аджарски');
    await page.getByRole('textbox', { name: 'Цена, RSD' }).fill('4500');
    await page.getByRole('textbox', { name: 'Описание' }).fill('Тесто, сыр и яйцо: печём вместе.');
    await shot(page, `4-workshop-${width}`);
    await checkAxe(page, 'step 4');
    await page.getByRole('button', { name: 'Далее' }).click();

    // 5. The first session: the workshop and address just made, tomorrow, at a time typed, in the studio's new zone.
    await step(page, 5, 'Первое занятие');
    expect(await page.getByRole('combobox', { name: 'Мастер-класс' }).inputValue()).toBe('Хачапури по-аджарски');
    expect(await page.getByRole('combobox', { name: 'Адрес' }).inputValue()).toBe('Улица Цара Душана 10');
    await page.getByText('Часовой пояс: Europe/Moscow').waitFor();
    await page.getByRole('spinbutton', { name: 'Часы' }).click();
    await page.keyboard.type('1830', { delay: 100 });
    await page.getByRole('textbox', { name: 'Количество мест' }).fill('10');
    await shot(page, `5-session-${width}`);
    await checkAxe(page, 'step 5');
    await page.getByRole('button', { name: 'Готово' }).click();

    // The schedule, loaded anew with the studio's new name and zone, shows the session.
    await page.waitForURL(`${p.url}/s/${slug}/schedule`);
    const card = page.getByTestId('schedule-card');
    await card.filter({ hasText: 'Хачапури по-аджарски' }).waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.innerText()).toContain('18:30');
    expect(await page.getByTestId('setup-banner').count()).toBe(0);
    await page.waitForTimeout(300);
    await shot(page, `6-schedule-${width}`);
    await checkAxe(page, 'the schedule after the wizard');
    expect(await sideways(page)).toBe(0);
    expect(errors).toEqual([]);

    // What the wizard saved.
    const owner = {
      authorization: `Bearer ${await page.evaluate((k) => localStorage.getItem(k)!, storageKey(`/s/${slug}`, 'access_token'))}`,
    };
    const get = async (url: string) => (await fetch(`${p.url}/s/${slug}/api/v1${url}`, { headers: owner })).json();
    expect(await get('/studio')).toEqual({ name: 'Кухня Марии', timezone: 'Europe/Moscow', setup_done: true });
    const sessions = (await get('/schedule/')) as { data: { date: string; capacity: number; workshop_id: number }[] };
    expect(sessions.data).toHaveLength(1);
    expect(sessions.data[0].capacity).toBe(10);
    expect(toZonedInput(sessions.data[0].date, 'Europe/Moscow').slice(11, 16)).toBe('18:30');
    const [workshop] = ((await get('/workshops/')) as { data: { title: string; price: number }[] }).data;
    expect(workshop).toMatchObject({ title: 'Хачапури по-аджарски', price: 4500 });
    // The page itself says the new name now (the studio was reopened with it).
    expect(await page.locator('meta[name="app-config"]').getAttribute('content')).toContain('Кухня Марии');
    await close();
  });

  it('refuses the same link a second time, in Russian', async () => {
    const token = await createLoginLink(p.store, studioId, OWNER_TG);
    const first = await openPage(viewport);
    await first.page.goto(`${p.url}/s/${slug}/welcome?token=${token}`);
    await step(first.page, 1, 'Название');
    await first.close();
    const { page, errors, close } = await openPage(viewport);
    await page.goto(`${p.url}/s/${slug}/welcome?token=${token}`);
    await page
      .getByTestId('welcome-failed')
      .filter({ hasText: 'Ссылка для входа устарела. Попросите новую у бота: /studios' })
      .waitFor();
    expect(page.url()).not.toContain('token');
    await page.getByRole('link', { name: 'Войти по email и паролю' }).waitFor();
    await shot(page, `used-${width}`);
    await checkAxe(page, 'a used link');
    expect(errors).toEqual([]);
    await close();
  });
});
