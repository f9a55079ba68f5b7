/**
 * Telegram's own powers in the mini-app, end to end: Debian's Chromium playing the Telegram client
 * (it records every event the app posts and sends it Telegram's answers), the real server, and the
 * fake Bot API on loopback preparing the shared messages. Each client version gets what it has:
 * shareMessage (8.0+) and the SecondaryButton (7.10+), the older ways elsewhere; the contact form's
 * draft in the client's DeviceStorage (9.0+) and "add to home screen" after the second booking
 * (8.0+). Screenshots in test-results/screenshots/native-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { axeProblems, signedInitData, THEMES, type Platform, type TgUser, type Theme } from '../helpers/miniapp';

declare global {
  interface Window {
    /** The test process's DeviceStorage: Telegram's answer (event and data) to a web_app_device_storage_* method. */
    __tgDeviceStorage?: (method: string, params: Record<string, unknown>) => Promise<readonly [string, object]>;
  }
}

const DIST = process.env.DIST_DIR ?? 'dist';
const PLATFORMS: Platform[] = ['ios', 'android', 'tdesktop'];
/** A client of today, and one from before the SecondaryButton and shareMessage (Mini Apps 7.10, 8.0). */
const CURRENT = '8.0';
const OLD = '7.2';
/** A client with DeviceStorage (Mini Apps 9.0). */
const STORAGE = '9.0';

let server: Awaited<ReturnType<typeof startTestServer>>;
let fake: FakeTelegram;
let browser: Browser;
let staff: Record<string, string>;
const ids = { free: 0, full: 0, more: [] as number[] };
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

/** The launch hash of a client of `version` on `platform`. */
const launch = (user: TgUser, platform: Platform, version: string, theme: Theme = 'light') =>
  '#' +
  new URLSearchParams({
    tgWebAppData: signedInitData(user),
    tgWebAppVersion: version,
    tgWebAppPlatform: platform,
    tgWebAppThemeParams: JSON.stringify(THEMES[theme]),
  }).toString();

type HomeScreenStatus = 'unsupported' | 'unknown' | 'added' | 'missed';

/** What the emulated client knows beyond recording events. */
interface ClientSide {
  theme?: Theme;
  /** Its answer to web_app_check_home_screen (home_screen_checked); unanswered without it. */
  homeScreen?: HomeScreenStatus;
  /**
   * The client's DeviceStorage for the test bot, held in the test process so that it outlives the
   * page (a reload, the mini-app opened again): it answers the web_app_device_storage_* methods.
   */
  device?: Map<string, string>;
}

interface Client {
  context: BrowserContext;
  page: Page;
  errors: string[];
  /** Another page on the same device: the mini-app opened again. */
  open(): Promise<Page>;
}

/** Telegram's answer to one DeviceStorage method, as a client keeps it. */
function deviceStorageAnswer(device: Map<string, string>, method: string, p: Record<string, unknown>) {
  const req_id = p.req_id as string;
  switch (method) {
    case 'web_app_device_storage_save_key':
      // A null value removes the key.
      if (p.value === null) device.delete(p.key as string);
      else device.set(p.key as string, String(p.value));
      return ['device_storage_key_saved', { req_id }] as const;
    case 'web_app_device_storage_get_key':
      return ['device_storage_key_received', { req_id, value: device.get(p.key as string) ?? null }] as const;
    case 'web_app_device_storage_clear':
      device.clear();
      return ['device_storage_cleared', { req_id }] as const;
    default:
      return ['device_storage_failed', { req_id }] as const;
  }
}

/** A phone (iOS, Android) or a desktop window (tdesktop) playing the Telegram client. */
async function client(platform: Platform, side: ClientSide = {}): Promise<Client> {
  const desktop = platform === 'tdesktop';
  const theme = side.theme ?? 'light';
  const context = await browser.newContext({
    viewport: desktop ? { width: 900, height: 760 } : { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: !desktop,
    hasTouch: !desktop,
    colorScheme: theme,
    locale: 'ru-RU',
    timezoneId: 'Europe/Belgrade',
    bypassCSP: true,
  });
  const { device } = side;
  if (device)
    await context.exposeFunction('__tgDeviceStorage', (method: string, params: Record<string, unknown>) =>
      deviceStorageAnswer(device, method, params),
    );
  await context.addInitScript(
    ({ homeScreen, storage }) => {
      const w = window;
      w.__tgEvents = [];
      // Telegram answers a method later, never from inside the call.
      const answer = (event: string, data?: unknown) => setTimeout(() => w.Telegram.WebView.receiveEvent(event, data));
      w.TelegramWebviewProxy = {
        postEvent(name: string, data?: string) {
          const params = data ? JSON.parse(data) : undefined;
          w.__tgEvents.push([name, params]);
          if (name === 'web_app_check_home_screen' && homeScreen) answer('home_screen_checked', { status: homeScreen });
          if (name === 'web_app_add_to_home_screen' && homeScreen) answer('home_screen_added');
          if (name.startsWith('web_app_device_storage_') && storage)
            void w.__tgDeviceStorage!(name, params).then(([event, payload]) => answer(event, payload));
        },
      };
    },
    { homeScreen: side.homeScreen ?? null, storage: Boolean(device) },
  );
  const errors: string[] = [];
  const open = async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    return page;
  };
  return { context, page: await open(), errors, open };
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
  // More dates for one customer's second and third booking.
  for (const day of [7, 8]) ids.more.push((await session(hoursFromNow(24 * day), 40)).id);
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

/** What the app posted with this method on the page. */
const posted = (page: Page, method: string) =>
  page.evaluate((m) => window.__tgEvents.filter((e) => e[0] === m).map((e) => e[1]), method);

/** How long a DeviceStorage round trip (and the form's pause before it saves) may take. */
const POLL = { timeout: 10_000 };

/** A moment for the client's answers (they come on the next task) and anything the app posts after them. */
const settle = (page: Page) => page.waitForTimeout(600);

/** Picks the session on /apply's first step: the contact form. */
async function pickSession(page: Page, sessionId: number) {
  await page.getByTestId(`session-${sessionId}`).click();
  await page.getByText('Контактные данные').waitFor();
}

/** Answers «впервые», presses Telegram's MainButton and waits for the success step; the booking's id. */
async function bookFromForm(page: Page): Promise<number> {
  await page.getByRole('radio', { name: 'Да, впервые' }).check({ force: true });
  await shown(page, 'web_app_setup_main_button', 'Записаться');
  await press(page, 'main_button_pressed');
  await page.getByText('Вы записаны!').waitFor();
  const link = await page.getByRole('link', { name: 'Открыть мою запись' }).getAttribute('href');
  return Number(link!.split('/').pop());
}

describe('the contact form’s draft in Telegram’s DeviceStorage', () => {
  const DRAFT_KEY = 'contact-draft';
  const typed = {
    name: 'Марина',
    last_name: 'Петрова',
    has_allergy: true,
    allergy_type: 'орехи, кунжут',
    comment: 'Приду с дочкой, ей 12 лет',
  };

  async function typeDraft(page: Page) {
    await page.getByLabel('Имя', { exact: true }).fill(typed.name);
    await page.getByLabel('Фамилия', { exact: true }).fill(typed.last_name);
    // The base layout's ripple lies over the cell's text: the switch itself is checked, as a tap on the cell does.
    await page.getByLabel('Есть аллергия', { exact: true }).check({ force: true });
    await page.getByLabel('На что аллергия').fill(typed.allergy_type);
    await page.getByLabel('Комментарий').fill(typed.comment);
  }

  /** The form holds what was typed before the mini-app was closed. */
  async function expectRestored(page: Page) {
    await expect.poll(() => page.getByLabel('Имя', { exact: true }).inputValue(), POLL).toBe(typed.name);
    expect(await page.getByLabel('Фамилия', { exact: true }).inputValue()).toBe(typed.last_name);
    expect(await page.getByLabel('Есть аллергия', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('На что аллергия').inputValue()).toBe(typed.allergy_type);
    expect(await page.getByLabel('Комментарий').inputValue()).toBe(typed.comment);
  }

  /** Booked from the restored form: the booking carries the draft, and the draft is forgotten. */
  async function bookAndForget(page: Page, device: Map<string, string>) {
    const id = await bookFromForm(page);
    await expect.poll(() => device.has(DRAFT_KEY), POLL).toBe(false);
    const saves = (await posted(page, 'web_app_device_storage_save_key')) as { key: string; value: string | null }[];
    expect(saves[saves.length - 1]).toMatchObject({ key: DRAFT_KEY, value: null });
    const { record } = await call<{ record: Record<string, unknown> }>('GET', `/records/${id}`);
    expect(record).toMatchObject({ ...typed, state: 'ACTIVE' });
  }

  it.each(PLATFORMS)('%s, a 9.0 client: restored after a reload, forgotten after booking', async (platform) => {
    const u = newUser();
    const device = new Map<string, string>();
    const { page, errors, context } = await client(platform, { device });
    await page.goto(`${server.url}/apply${launch(u, platform, STORAGE)}`);
    await pickSession(page, ids.free);
    // Nothing kept yet: the form starts from the Telegram profile.
    expect(await page.getByLabel('Имя', { exact: true }).inputValue()).toBe('Мария');
    await typeDraft(page);
    await expect.poll(() => JSON.parse(device.get(DRAFT_KEY) ?? '{}'), POLL).toEqual(typed);

    // The mini-app is closed and opened again.
    await page.reload();
    await pickSession(page, ids.free);
    await expectRestored(page);
    expect(await posted(page, 'web_app_device_storage_get_key')).toEqual([
      { req_id: expect.any(String), key: DRAFT_KEY },
    ]);
    await shot(page, `draft-restored-${platform}`);
    expect(await axeProblems(page)).toEqual([]);

    await bookAndForget(page, device);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('dark theme, the mini-app opened again in a new page: restored; after booking the form starts afresh', async () => {
    const u = newUser();
    const device = new Map<string, string>();
    const c = await client('android', { device, theme: 'dark' });
    await c.page.goto(`${server.url}/apply${launch(u, 'android', STORAGE, 'dark')}`);
    await pickSession(c.page, ids.more[0]);
    await typeDraft(c.page);
    await expect.poll(() => JSON.parse(device.get(DRAFT_KEY) ?? '{}'), POLL).toEqual(typed);
    await c.page.close();

    const again = await c.open();
    await again.goto(`${server.url}/apply${launch(u, 'android', STORAGE, 'dark')}`);
    await pickSession(again, ids.more[0]);
    await expectRestored(again);
    await shot(again, 'draft-restored-dark');
    expect(await axeProblems(again)).toEqual([]);
    await bookAndForget(again, device);
    await again.close();

    // Opened once more for another date: nothing left to restore.
    const third = await c.open();
    await third.goto(`${server.url}/apply${launch(u, 'android', STORAGE, 'dark')}`);
    await pickSession(third, ids.more[1]);
    await settle(third);
    expect(await posted(third, 'web_app_device_storage_get_key')).toHaveLength(1);
    expect(await third.getByLabel('Имя', { exact: true }).inputValue()).toBe('Мария');
    expect(await third.getByLabel('Комментарий').inputValue()).toBe('');
    expect(c.errors).toEqual([]);
    await c.context.close();
  });

  it('an 8.0 client (no DeviceStorage): nothing is asked or kept, and booking works', async () => {
    const u = newUser();
    // Whatever the device holds, a client without DeviceStorage is never asked for it.
    const device = new Map([[DRAFT_KEY, JSON.stringify({ ...typed, name: 'Черновик' })]]);
    const { page, errors, context } = await client('ios', { device });
    await page.goto(`${server.url}/apply${launch(u, 'ios', CURRENT)}`);
    await pickSession(page, ids.free);
    await typeDraft(page);
    await settle(page);
    await page.reload();
    await pickSession(page, ids.free);
    await settle(page);
    expect(await page.getByLabel('Имя', { exact: true }).inputValue()).toBe('Мария');
    expect(await page.getByLabel('Комментарий').inputValue()).toBe('');
    const id = await bookFromForm(page);
    expect((await call('GET', `/records/${id}`)).record).toMatchObject({ state: 'ACTIVE' });
    const storageCalls = (await page.evaluate(() => window.__tgEvents)).filter((e) =>
      e[0].startsWith('web_app_device_storage_'),
    );
    expect(storageCalls).toEqual([]);
    expect(device.get(DRAFT_KEY)).toContain('Черновик');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('add to home screen, offered after the second booking on the device', () => {
  /** One booking in the mini-app opened anew on the device (`c`); the page stays open on the success step. */
  async function bookOnDevice(c: Client, u: TgUser, platform: Platform, version: string, sessionId: number) {
    const page = await c.open();
    await page.goto(`${server.url}/apply${launch(u, platform, version)}`);
    await pickSession(page, sessionId);
    await bookFromForm(page);
    await settle(page);
    return page;
  }
  const offers = async (page: Page) => ({
    checked: (await posted(page, 'web_app_check_home_screen')).length,
    offered: (await posted(page, 'web_app_add_to_home_screen')).length,
  });

  it.each(PLATFORMS)(
    '%s, an 8.0 client, the app not there yet: offered once, after the second booking',
    async (platform) => {
      const u = newUser('Ирина');
      const c = await client(platform, { homeScreen: 'missed' });
      const first = await bookOnDevice(c, u, platform, CURRENT, ids.free);
      expect(await offers(first)).toEqual({ checked: 0, offered: 0 });

      const second = await bookOnDevice(c, u, platform, CURRENT, ids.more[0]);
      await second.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_add_to_home_screen'));
      expect(await offers(second)).toEqual({ checked: 1, offered: 1 });
      const order = (await second.evaluate(() => window.__tgEvents.map((e) => e[0]))).filter((n) =>
        n.includes('home_screen'),
      );
      expect(order).toEqual(['web_app_check_home_screen', 'web_app_add_to_home_screen']);
      await shot(second, `home-screen-offered-${platform}`);
      expect(await axeProblems(second)).toEqual([]);

      const third = await bookOnDevice(c, u, platform, CURRENT, ids.more[1]);
      expect(await offers(third)).toEqual({ checked: 0, offered: 0 });
      expect(c.errors).toEqual([]);
      await c.context.close();
    },
  );

  it.each([
    ['android', 'added'],
    ['tdesktop', 'unsupported'],
  ] as const)('%s, the client answers %s: checked after the second booking, not offered', async (platform, status) => {
    const u = newUser('Ирина');
    const c = await client(platform, { homeScreen: status });
    await bookOnDevice(c, u, platform, CURRENT, ids.free);
    const second = await bookOnDevice(c, u, platform, CURRENT, ids.more[0]);
    expect(await offers(second)).toEqual({ checked: 1, offered: 0 });
    expect(c.errors).toEqual([]);
    await c.context.close();
  });

  it('ios, a 7.x client (no home screen): neither checked nor offered', async () => {
    const u = newUser('Ирина');
    const c = await client('ios', { homeScreen: 'missed' });
    const first = await bookOnDevice(c, u, 'ios', OLD, ids.free);
    const second = await bookOnDevice(c, u, 'ios', OLD, ids.more[0]);
    expect([await offers(first), await offers(second)]).toEqual([
      { checked: 0, offered: 0 },
      { checked: 0, offered: 0 },
    ]);
    expect(c.errors).toEqual([]);
    await c.context.close();
  });
});
