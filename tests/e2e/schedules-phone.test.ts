/**
 * Schedules read at a glance and every staff page fits a phone, end to end (Chromium against the real
 * server). Admin at 1280 and 390 px: a session card says its seats before the first booking and does
 * not repeat the workshop's description; Расписание filters by workshop and has a compact week; a
 * workshop without an English or Serbian title says so; Сертификаты, Пользователи, Касса and Главная
 * have no sideways scrolling at 390 px (their tables become cards, actions in view); the
 * SegmentedControl's pill sits on its label. Mini-app on phones (ios, android, tdesktop; light, dark):
 * the date tile carries the month, sessions are grouped by month, English dates read «Sat, 5 Dec»;
 * the source option and «Подтвердить отмену» fit; the cancel reason has a visible label.
 * axe-core clean. Screenshots: test-results/screenshots/schedules-phone-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshotPath, sideways, startAdminBrowser, type AdminBrowser, type Viewport } from '../helpers/browser';
import { axeProblems, launchHash, signedInitData, type Platform, type Theme, type TgUser } from '../helpers/miniapp';
import { tma } from '../helpers/telegram';

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const CUSTOMER = { id: 7_800_001, username: 'vera_p', first_name: 'Вера', language_code: 'ru' };

let admin: AdminBrowser;
const ids = { pasta: 0, sushi: 0, soon: 0, later: 0, record: 0 };

/** Days from now at 17:00 UTC (18:00 in Belgrade in winter). */
const inDays = (days: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  d.setUTCHours(17, 0, 0, 0);
  return d.toISOString();
};

beforeAll(async () => {
  admin = await startAdminBrowser({ env: { BUSINESS_TIMEZONE: 'Europe/Belgrade' } });
  ids.pasta = (
    await admin.api<{ id: number }>('POST', '/workshops/', {
      title: 'Паста',
      title_en: 'Fresh pasta',
      title_sr: 'Sveža pasta',
      description: 'Домашняя паста с тремя соусами',
      price: 3500,
    })
  ).id;
  ids.sushi = (
    await admin.api<{ id: number }>('POST', '/workshops/', {
      title: 'Суши',
      description: 'Роллы и нигири',
      price: 4000,
    })
  ).id;
  const address = await admin.api<{ id: number }>('POST', '/address/', {
    title: 'Кнеза Милоша 1',
    map_link: 'https://m/1',
  });
  // Two sessions 37 days apart: always in two different months.
  ids.soon = (
    await admin.api<{ id: number }>('POST', '/schedule/', {
      date: inDays(3),
      capacity: 8,
      workshop_id: ids.pasta,
      address_id: address.id,
    })
  ).id;
  ids.later = (
    await admin.api<{ id: number }>('POST', '/schedule/', {
      date: inDays(40),
      capacity: 10,
      workshop_id: ids.sushi,
      address_id: address.id,
    })
  ).id;
  ids.record = (
    await admin.api<{ record: { id: number } }>(
      'POST',
      '/records/',
      {
        schedule_id: ids.soon,
        name: 'Вера',
        last_name: 'Петрович',
        people_count: 2,
        has_allergy: false,
        is_first_time: true,
        consent: true,
      },
      tma(CUSTOMER),
    )
  ).record.id;
  await admin.api('POST', `/records/${ids.record}/payments`, {
    amount: 3500,
    method: 'cash',
    note: 'Наличными на месте',
  });
  await admin.api('POST', '/certificates/', {
    amount: 7000,
    method: 'cash',
    buyer_name: 'Ольга Константинопольская',
    recipient_name: 'Анастасия Александровна',
  });
  await admin.api('POST', '/users/', {
    email: 'maria.longname.cook@example.com',
    full_name: 'Мария Повар',
    password: 'cook-password-1',
    role: 'host',
    is_active: true,
  });
}, 120_000);

afterAll(() => admin?.close());

/** An admin page as the superuser, the browser on UTC (the studio's dates come from the server's zone). */
const staffPage = (url: string, viewport: Viewport) => admin.open(url, viewport, { timezoneId: 'UTC' });

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300); // transitions settle
  await page.screenshot({ path: screenshotPath(`schedules-phone-${name}`), fullPage: true });
}

/** Every element inside `root` is within the window's width: nothing hidden to the right (the header row aside). */
const allInView = (root: Locator) =>
  root.evaluate((el) => {
    const width = document.documentElement.clientWidth;
    return [...el.querySelectorAll('*')]
      .filter((e) => !e.closest('thead') && e.getBoundingClientRect().right > width + 0.5)
      .map((e) => `${e.tagName}.${e.className}: ${e.textContent?.slice(0, 30)}`);
  });

/** The SegmentedControl's pill and its active label: their boxes' offsets in px (0 when the pill sits on it). */
const pillOffset = (control: Locator) =>
  control.evaluate((root) => {
    const pill = root.querySelector('.mantine-SegmentedControl-indicator')!.getBoundingClientRect();
    const label = root
      .querySelector('.mantine-SegmentedControl-label[data-active]')!
      .closest('.mantine-SegmentedControl-control')!
      .getBoundingClientRect();
    return {
      top: Math.round(pill.top - label.top),
      left: Math.round(pill.left - label.left),
      bottom: Math.round(pill.bottom - label.bottom),
      right: Math.round(pill.right - label.right),
    };
  });

describe('Расписание', () => {
  for (const [width, viewport] of Object.entries(WIDTHS))
    it(`cards say seats without bookings, no description; a workshop filter and a week (${width})`, async () => {
      const { page, errors, close } = await staffPage('/schedule', viewport);
      const later = page.locator(`[data-schedule-id="${ids.later}"]`);
      await later.waitFor();
      expect(await later.getByTestId('seats-badge').innerText()).toBe('Мест 10 · свободно 10');
      expect(await page.locator(`[data-schedule-id="${ids.soon}"]`).getByTestId('seats-badge').innerText()).toBe(
        'Мест 8 · свободно 6',
      );
      const cards = await page.locator('main').innerText();
      expect(cards).not.toContain('Роллы и нигири');
      expect(cards).not.toContain('Домашняя паста');
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      expect(await axeProblems(page)).toEqual([]);
      await shot(page, `schedule-${width}`);

      await page.getByTestId('upcoming-filter').getByLabel('Мастер-класс').selectOption({ label: 'Суши' });
      await page.locator(`[data-schedule-id="${ids.soon}"]`).waitFor({ state: 'detached' });
      // The filtered list has arrived (the pasta card also leaves while it loads).
      await later.waitFor();
      expect(await page.getByTestId('schedule-card').count()).toBe(1);
      await page.getByTestId('upcoming-filter').getByLabel('Мастер-класс').selectOption({ label: 'Все' });
      await page.locator(`[data-schedule-id="${ids.soon}"]`).waitFor();

      const view = page.getByTestId('upcoming-filter').locator('.mantine-SegmentedControl-root');
      await page.getByText('Неделя', { exact: true }).click();
      await page.waitForTimeout(400); // the pill's move
      expect(await pillOffset(view)).toEqual({ top: 0, left: 0, bottom: 0, right: 0 });
      const week = page.getByTestId('schedule-week');
      // The session in three days is this week or the next.
      const line = week.getByTestId('week-session');
      if ((await line.count()) === 0) await week.getByRole('button', { name: 'Следующая неделя' }).click();
      await line.first().waitFor();
      expect((await line.first().innerText()).replace(/\s+/g, ' ')).toMatch(/^\d\d?:\d\d Паста свободно 6 из 8$/);
      await line.first().click();
      await week.locator(`[data-schedule-id="${ids.soon}"]`).waitFor();
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      expect(await axeProblems(page)).toEqual([]);
      await shot(page, `week-${width}`);
      expect(errors).toEqual([]);
      await close();
    });
});

describe('Мастер-классы', () => {
  it('flags a workshop whose title has no English or Serbian translation', async () => {
    const { page, errors, close } = await staffPage('/workshops', WIDTHS.phone);
    const sushi = page.getByTestId('workshop-card').filter({ hasText: 'Суши' });
    await sushi.waitFor();
    expect(await sushi.getByTestId('missing-translation').innerText()).toBe('Нет перевода названия: EN, SR');
    const pasta = page.getByTestId('workshop-card').filter({ hasText: 'Паста' });
    expect(await pasta.getByTestId('missing-translation').count()).toBe(0);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(await axeProblems(page)).toEqual([]);
    await shot(page, 'workshops-phone');
    expect(errors).toEqual([]);
    await close();
  });
});

const TABLES = [
  { name: 'certificates', url: '/certificates', table: 'certificates-table', text: 'Анастасия Александровна' },
  { name: 'users', url: '/admin', table: 'users-table', text: 'maria.longname.cook@example.com' },
  { name: 'cash-desk', url: '/cash', table: 'cash-list', text: 'Наличными на месте' },
  { name: 'dashboard', url: '/', table: 'next-days', text: 'Паста' },
];

describe('tables at phone width', () => {
  for (const [width, viewport] of Object.entries(WIDTHS))
    for (const t of TABLES)
      it(`${t.name}: no sideways scrolling, every column and action in view (${width})`, async () => {
        const { page, errors, close } = await staffPage(t.url, viewport);
        const table = page.getByTestId(t.table);
        await table.getByText(t.text).first().waitFor();
        expect(await sideways(page)).toBeLessThanOrEqual(0);
        expect(await allInView(table)).toEqual([]);
        // At phone width a row is a card: its cells one under another, each named.
        const row = table.locator('tbody tr').first();
        const cells = row.locator('td');
        const [first, second] = [await cells.nth(0).boundingBox(), await cells.nth(1).boundingBox()];
        if (width === 'phone') {
          expect(second!.y).toBeGreaterThanOrEqual(first!.y + first!.height - 1);
          // The header row stays for screen readers, a pixel high.
          expect((await table.locator('thead').boundingBox())?.height ?? 0).toBeLessThanOrEqual(1);
        } else {
          expect(second!.y).toBe(first!.y);
          expect(await table.locator('thead').isVisible()).toBe(true);
        }
        expect(await axeProblems(page)).toEqual([]);
        await shot(page, `${t.name}-${width}`);
        expect(errors).toEqual([]);
        await close();
      });
});

async function miniapp(user: TgUser & { language_code?: string }, url: string, theme: Theme, platform: Platform) {
  const desktop = platform === 'tdesktop';
  const context = await admin.browser.newContext({
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
  await page.goto(`${admin.server.url}${url}${launchHash(signedInitData(user), theme, platform)}`);
  return { page, errors, close: () => context.close() };
}

/** Elements under `root` whose text is cut: wider than their box, or ellipsised. */
const cutOff = (root: Locator) =>
  root.evaluate((el) =>
    [el, ...el.querySelectorAll('*')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
      .map((e) => `${e.className}: ${e.textContent}`),
  );

const PHONES: { platform: Platform; theme: Theme }[] = [
  { platform: 'ios', theme: 'light' },
  { platform: 'android', theme: 'dark' },
  { platform: 'tdesktop', theme: 'light' },
  { platform: 'ios', theme: 'dark' },
];

describe('the mini-app schedule', () => {
  for (const { platform, theme } of PHONES)
    it(`groups sessions by month, the tile carries the month, English reads «Sat, 5 Dec» (${platform} ${theme})`, async () => {
      const { page, errors, close } = await miniapp(
        { id: 7_800_100, first_name: 'Ana', language_code: 'en' },
        '/apply',
        theme,
        platform,
      );
      await page.getByTestId(`session-${ids.later}`).waitFor();
      const groups = page.locator('.month-group');
      expect(await groups.count()).toBe(2);
      const months = await groups.evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label')));
      for (const m of months) expect(m).toMatch(/^[A-Z][a-z]+ \d{4}$/);
      expect(await groups.nth(0).getByTestId(`session-${ids.soon}`).count()).toBe(1);
      expect(await groups.nth(1).getByTestId(`session-${ids.later}`).count()).toBe(1);
      for (const id of [ids.soon, ids.later]) {
        const cell = page.getByTestId(`session-${id}`);
        expect(await cell.locator('.date-tile__month').innerText()).toMatch(/^[A-Z]{3}$/i);
        expect(await cell.locator('.session-day').innerText()).toMatch(
          /^[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2,3} · \d\d:\d\d$/,
        );
      }
      expect(await page.getByTestId(`session-${ids.later}`).innerText()).toContain('Суши'); // no English title: Russian
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`schedules-phone-apply-${platform}-${theme}`), fullPage: true });
      expect(errors).toEqual([]);
      await close();
    });

  for (const { platform, theme } of PHONES.slice(0, 2))
    it(`the source options and «Подтвердить отмену» fit; the cancel reason is labelled (${platform} ${theme})`, async () => {
      const apply = await miniapp(CUSTOMER, '/apply', theme, platform);
      await apply.page.getByTestId(`session-${ids.later}`).click({ force: true });
      const sources = apply.page.getByRole('radiogroup', { name: 'Откуда вы о нас узнали?' });
      await sources.getByText('Получил(а) подарочный сертификат').waitFor();
      expect(await cutOff(sources)).toEqual([]);
      await apply.page.screenshot({
        path: screenshotPath(`schedules-phone-contact-${platform}-${theme}`),
        fullPage: true,
      });
      expect(apply.errors).toEqual([]);
      await apply.close();

      const record = await miniapp(CUSTOMER, `/record/${ids.record}`, theme, platform);
      await record.page.getByRole('button', { name: 'Отменить запись' }).click();
      const panel = record.page.getByRole('region', { name: 'Отменить запись' });
      const label = panel.getByText('Причина отмены', { exact: true });
      expect(await label.isVisible()).toBe(true);
      const confirm = panel.getByRole('button', { name: 'Подтвердить отмену' });
      expect(await cutOff(confirm)).toEqual([]);
      expect(await axeProblems(record.page)).toEqual([]);
      await record.page.screenshot({
        path: screenshotPath(`schedules-phone-cancel-${platform}-${theme}`),
        fullPage: true,
      });
      expect(record.errors).toEqual([]);
      await record.close();
    });
});
