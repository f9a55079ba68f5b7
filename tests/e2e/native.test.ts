/**
 * Telegram's own powers in the mini-app, end to end: Debian's Chromium playing the Telegram client
 * (it records every event the app posts and sends it Telegram's answers), the real server, and the
 * fake Bot API on loopback preparing the shared messages. Each client version gets what it has:
 * shareMessage (8.0+) and the SecondaryButton (7.10+), the older ways elsewhere. Screenshots in
 * test-results/screenshots/native-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { axeProblems, signedInitData, THEMES, type Platform, type TgUser } from '../helpers/miniapp';

const DIST = process.env.DIST_DIR ?? 'dist';
const PLATFORMS: Platform[] = ['ios', 'android', 'tdesktop'];
/** A client of today, and one from before the SecondaryButton and shareMessage (Mini Apps 7.10, 8.0). */
const CURRENT = '8.0';
const OLD = '7.2';

let server: Awaited<ReturnType<typeof startTestServer>>;
let fake: FakeTelegram;
let browser: Browser;
let staff: Record<string, string>;
const ids = { free: 0, full: 0 };
let nextUser = 5570001;
const newUser = (first_name = 'Мария'): TgUser => ({ id: nextUser++, first_name, last_name: 'Иванова' });

async function call<T = { id: number; record: { id: number; state: string } }>(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = staff,
): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
const bookAs = (u: TgUser, scheduleId: number) =>
  call(
    'POST',
    '/records/',
    { schedule_id: scheduleId, name: u.first_name, is_first_time: true, consent: true },
    { authorization: `tma ${signedInitData(u)}` },
  );
const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** The launch hash of a client of `version` on `platform`, light theme. */
const launch = (user: TgUser, platform: Platform, version: string) =>
  '#' +
  new URLSearchParams({
    tgWebAppData: signedInitData(user),
    tgWebAppVersion: version,
    tgWebAppPlatform: platform,
    tgWebAppThemeParams: JSON.stringify(THEMES.light),
  }).toString();

interface Client {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** A phone (iOS, Android) or a desktop window (tdesktop) playing the Telegram client. */
async function client(platform: Platform): Promise<Client> {
  const desktop = platform === 'tdesktop';
  const context = await browser.newContext({
    viewport: desktop ? { width: 900, height: 760 } : { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: !desktop,
    hasTouch: !desktop,
    colorScheme: 'light',
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
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { context, page, errors };
}

type ButtonSetup = { is_visible?: boolean; is_active?: boolean; text?: string; position?: string };

/** The last setup the app posted for one of Telegram's bottom buttons. */
const lastSetup = (page: Page, event: 'web_app_setup_main_button' | 'web_app_setup_secondary_button') =>
  page.evaluate((e) => {
    const setups = window.__tgEvents.filter((x) => x[0] === e);
    return (setups[setups.length - 1]?.[1] ?? null) as ButtonSetup | null;
  }, event);

/** Waits until the app shows that bottom button with this text, active. */
const shown = (page: Page, event: 'web_app_setup_main_button' | 'web_app_setup_secondary_button', text: string) =>
  page.waitForFunction(
    ([e, t]) => {
      const setups = window.__tgEvents.filter((x) => x[0] === e);
      const last = setups[setups.length - 1]?.[1] as ButtonSetup | undefined;
      return last?.is_visible === true && last.is_active === true && last.text === t;
    },
    [event, text] as const,
  );

const press = (page: Page, event: 'main_button_pressed' | 'secondary_button_pressed') =>
  page.evaluate((e) => window.Telegram.WebView.receiveEvent(e), event);

const shot = (page: Page, name: string) => page.screenshot({ path: screenshotPath(`native-${name}`), fullPage: true });

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'webapp', 'index.html')))
    throw new Error(`No built mini-app in ${DIST}: run \`vite build\` first`);
  fake = await startFakeTelegram();
  server = await startTestServer({ env: { ...fake.env, DIST_DIR: DIST, BUSINESS_NAME: 'Кулинарная студия «Тесто»' } });
  browser = await launchBrowser();
  const login = await fetch(`${server.url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: server.superuser.email, password: server.superuser.password }).toString(),
  });
  staff = { authorization: `Bearer ${(await login.json()).access_token}` };
  const workshop = (await call('POST', '/workshops/', { title: 'Хинкали и хачапури', price: 3500 })).id;
  const address = (
    await call('POST', '/address/', { title: 'Нови Сад, Змај Јовина 12', map_link: 'https://maps.example/1' })
  ).id;
  const session = (date: string, capacity: number) =>
    call('POST', '/schedule/', { date, capacity, workshop_id: workshop, address_id: address });
  ids.free = (await session(hoursFromNow(24 * 5), 40)).id;
  // No seats at all: every booking waits in the queue.
  ids.full = (await session(hoursFromNow(24 * 6), 0)).id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fake?.close();
});

describe('giving a seat with shareMessage', () => {
  it.each(PLATFORMS)('%s, a current client: the bot prepares the message and Telegram sends it', async (platform) => {
    const giver = newUser('Анна');
    const id = (await bookAs(giver, ids.free)).record.id;
    const { page, errors, context } = await client(platform);
    await page.goto(`${server.url}/record/${id}${launch(giver, platform, CURRENT)}`);
    const prepared = page.waitForResponse((r) => r.url().endsWith(`/records/${id}/gift/share`));
    await page.getByRole('button', { name: 'Передать место другу' }).click();
    const answer = (await (await prepared).json()) as { id: string; url: string };
    // Telegram's dialog opens with the id the bot got for this giver.
    await page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_send_prepared_message'));
    const sent = (await page.evaluate(() => window.__tgEvents)).filter((e) => e[0] === 'web_app_send_prepared_message');
    expect(sent).toEqual([['web_app_send_prepared_message', { id: answer.id }]]);
    const saved = fake.ok('savePreparedInlineMessage').find((c) => Number(c.params.user_id) === giver.id);
    expect(saved?.params.result).toMatchObject({ reply_markup: { inline_keyboard: [[{ url: answer.url }]] } });

    // The customer picks a chat and sends it: the page says so.
    await page.evaluate(() => window.Telegram.WebView.receiveEvent('prepared_message_sent'));
    await page.getByRole('status').filter({ hasText: 'Сообщение отправлено' }).waitFor();
    expect(await page.getByTestId('gift-url').textContent()).toBe(answer.url);
    await shot(page, `gift-sent-${platform}`);
    expect(await axeProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an older client (no shareMessage) shares the link through t.me/share', async () => {
    const giver = newUser('Анна');
    const id = (await bookAs(giver, ids.free)).record.id;
    const calls = fake.ok('savePreparedInlineMessage').length;
    const { page, errors, context } = await client('android');
    await page.goto(`${server.url}/record/${id}${launch(giver, 'android', OLD)}`);
    await page.getByRole('button', { name: 'Передать место другу' }).click();
    const url = (await page.getByTestId('gift-url').textContent())!;
    expect(url).toMatch(/^https:\/\/t\.me\/studio_test_bot\?start=gift_[\w-]+$/);
    await page.getByRole('button', { name: 'Отправить другу' }).click();
    await page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_open_tg_link'));
    const events = await page.evaluate(() => window.__tgEvents);
    const opened = events.find((e) => e[0] === 'web_app_open_tg_link')![1] as { path_full: string };
    expect(opened.path_full).toContain(`/share/url?url=${encodeURIComponent(url)}`);
    expect(events.some((e) => e[0] === 'web_app_send_prepared_message')).toBe(false);
    expect(fake.ok('savePreparedInlineMessage')).toHaveLength(calls);
    await shot(page, 'gift-link-old-client');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('giving a certificate with shareMessage', () => {
  it.each(PLATFORMS)('%s: the customer’s paid certificate goes out as the bot’s message', async (platform) => {
    const buyer = newUser('Анна');
    const cert = await call<{ id: number; code: string }>('POST', '/certificates/', {
      amount: 5000,
      method: 'cash',
      buyer_telegram_id: buyer.id,
    });
    const { page, errors, context } = await client(platform);
    await page.goto(`${server.url}/apply?buy=certificate${launch(buyer, platform, CURRENT)}`);
    const mine = page.getByTestId('my-certificates');
    await mine.getByText(cert.code).waitFor();
    const prepared = page.waitForResponse((r) => r.url().endsWith(`/me/certificates/${cert.id}/share`));
    await mine.getByRole('button', { name: 'Подарить сертификат' }).click();
    const answer = (await (await prepared).json()) as { id: string; url: string };
    expect(answer.url).toBe(`https://t.me/studio_test_bot?start=cert_${cert.code.replaceAll('-', '')}`);
    await page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_send_prepared_message'));
    const sent = (await page.evaluate(() => window.__tgEvents)).filter((e) => e[0] === 'web_app_send_prepared_message');
    expect(sent).toEqual([['web_app_send_prepared_message', { id: answer.id }]]);
    await page.evaluate(() => window.Telegram.WebView.receiveEvent('prepared_message_sent'));
    await page.getByText('Сертификат отправлен').waitFor();
    await shot(page, `certificate-sent-${platform}`);
    expect(await axeProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the queue action as the SecondaryButton', () => {
  it.each(PLATFORMS)(
    '%s, a current client: /apply on a full session offers other dates and the queue beside',
    async (platform) => {
      const u = newUser('Ольга');
      const { page, errors, context } = await client(platform);
      await page.goto(`${server.url}/apply${launch(u, platform, CURRENT)}`);
      await page.getByTestId(`session-${ids.full}`).click();
      await page.getByText(/Свободных мест нет\. Запись будет добавлена в очередь/).waitFor();
      await page.getByRole('radio', { name: 'Да, впервые' }).check({ force: true });
      await shown(page, 'web_app_setup_main_button', 'Другие даты');
      await shown(page, 'web_app_setup_secondary_button', 'Встать в очередь');
      expect((await lastSetup(page, 'web_app_setup_secondary_button'))?.position).toBe('left');
      await shot(page, `apply-queue-secondary-${platform}`);
      expect(await axeProblems(page)).toEqual([]);
      if (platform === 'tdesktop') {
        // The MainButton goes back to the dates; the buttons leave with the form.
        await press(page, 'main_button_pressed');
        await page.getByTestId(`session-${ids.free}`).waitFor();
        await page.waitForFunction(() => {
          const s = window.__tgEvents.filter((e) => e[0] === 'web_app_setup_secondary_button');
          return (s[s.length - 1]?.[1] as { is_visible?: boolean }).is_visible === false;
        });
      } else {
        await press(page, 'secondary_button_pressed');
        await page.getByText('Вы в очереди').waitFor();
        expect(await page.getByText(/Ваше место в очереди: \d+/).count()).toBe(1);
      }
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('an older client keeps the queue on the MainButton and shows no SecondaryButton', async () => {
    const u = newUser('Ольга');
    const { page, errors, context } = await client('ios');
    await page.goto(`${server.url}/apply${launch(u, 'ios', OLD)}`);
    await page.getByTestId(`session-${ids.full}`).click();
    await page.getByRole('radio', { name: 'Да, впервые' }).check({ force: true });
    await shown(page, 'web_app_setup_main_button', 'Встать в очередь');
    expect(await lastSetup(page, 'web_app_setup_secondary_button')).toBeNull();
    await shot(page, 'apply-queue-old-client');
    await press(page, 'main_button_pressed');
    await page.getByText('Вы в очереди').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(PLATFORMS)(
    '%s, a current client: /record of a queued booking leaves the queue from the SecondaryButton',
    async (platform) => {
      const u = newUser();
      const id = (await bookAs(u, ids.full)).record.id;
      const { page, errors, context } = await client(platform);
      await page.goto(`${server.url}/record/${id}${launch(u, platform, CURRENT)}`);
      await shown(page, 'web_app_setup_main_button', 'Закрыть');
      await shown(page, 'web_app_setup_secondary_button', 'Выйти из очереди');
      // The page's own buttons stay for screen readers only.
      expect(await page.locator('.visually-hidden').getByRole('button', { name: 'Выйти из очереди' }).count()).toBe(1);
      expect(await page.locator('.visually-hidden').getByRole('button', { name: 'Закрыть' }).count()).toBe(1);
      await shot(page, `record-queue-secondary-${platform}`);
      expect(await axeProblems(page)).toEqual([]);
      await press(page, 'secondary_button_pressed');
      await page.getByText('Выйти из очереди? Место в очереди не сохранится.').waitFor();
      await page.waitForFunction(() => {
        const s = window.__tgEvents.filter((e) => e[0] === 'web_app_setup_secondary_button');
        return (s[s.length - 1]?.[1] as { is_visible?: boolean }).is_visible === false;
      });
      await page.getByRole('button', { name: 'Да, выйти' }).click();
      await page.getByText('Запись была отменена').waitFor();
      expect((await call('GET', `/records/${id}`)).record).toMatchObject({ state: 'CANCELLED' });
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('an older client: the page’s own «Выйти из очереди» and no SecondaryButton', async () => {
    const u = newUser();
    const id = (await bookAs(u, ids.full)).record.id;
    const { page, context } = await client('android');
    await page.goto(`${server.url}/record/${id}${launch(u, 'android', OLD)}`);
    const leave = page.getByRole('button', { name: 'Выйти из очереди' });
    await leave.waitFor();
    expect(await page.locator('.visually-hidden').getByRole('button', { name: 'Выйти из очереди' }).count()).toBe(0);
    expect(await lastSetup(page, 'web_app_setup_secondary_button')).toBeNull();
    await shot(page, 'record-queue-old-client');
    await context.close();
  });
});
