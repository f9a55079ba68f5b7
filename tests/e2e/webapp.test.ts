/**
 * The mini-app end to end: Debian's Chromium (playwright-core) on a 390x844 phone against the
 * real server, with Telegram launch parameters whose init data is signed with the test bot token,
 * so the server's real check runs. Screenshots of every screen, light and dark, go to
 * test-results/screenshots/webapp-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { initDataFor } from '../helpers/telegram';
import { launchHash, signedInitData, type Theme, type TgUser } from '../helpers/miniapp';

const DIST = process.env.DIST_DIR ?? 'dist';

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let staff: Record<string, string>;
const customer: TgUser = { id: 5550001, first_name: 'Мария', last_name: 'Иванова', username: 'maria_cooks' };
const ids = { workshop: 0, address: 0, free: 0, full: 0, past: 0, pastRecord: 0 };

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

const inDays = (days: number, hourUtc = 11) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};

interface Phone {
  context: BrowserContext;
  page: Page;
  events: () => Promise<[string, unknown][]>;
  errors: string[];
}

/** A phone-sized page that plays the Telegram client: it records every event the app posts. */
async function phone(theme: Theme = 'light'): Promise<Phone> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    colorScheme: theme,
    locale: 'ru-RU',
    timezoneId: 'Europe/Belgrade',
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
  return {
    context,
    page,
    errors,
    events: () => page.evaluate(() => window.__tgEvents),
  };
}

/**
 * Inside Telegram the primary action is Telegram's MainButton: waits until the app shows it with
 * this text, active, then presses it as Telegram does.
 */
async function pressMainButton(page: Page, text: string) {
  await page.waitForFunction((t) => {
    const setups = window.__tgEvents.filter((e) => e[0] === 'web_app_setup_main_button');
    const last = setups[setups.length - 1]?.[1] as
      { is_visible?: boolean; is_active?: boolean; text?: string } | undefined;
    return last?.is_visible === true && last.is_active === true && last.text === t;
  }, text);
  await page.evaluate(() => window.Telegram.WebView.receiveEvent('main_button_pressed'));
}

const shot = (page: Page, name: string) => page.screenshot({ path: screenshotPath(`webapp-${name}`), fullPage: true });

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'webapp', 'index.html')))
    throw new Error(`No built mini-app in ${DIST}: run \`vite build\` first`);
  server = await startTestServer({ env: { DIST_DIR: DIST, BUSINESS_NAME: 'Кулинарная студия «Тесто»' } });
  browser = await launchBrowser();
  const login = await fetch(`${server.url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: server.superuser.email, password: server.superuser.password }).toString(),
  });
  staff = { authorization: `Bearer ${(await login.json()).access_token}` };

  ids.workshop = (
    await call('POST', '/workshops/', { title: 'Хинкали и хачапури', description: 'Грузинская кухня', price: 3500 })
  ).id;
  const pasta = (await call('POST', '/workshops/', { title: 'Свежая паста и соусы', description: null, price: 4200 }))
    .id;
  ids.address = (
    await call('POST', '/address/', {
      title: 'Нови Сад, Змај Јовина 12',
      map_link: 'https://maps.google.com/?q=45.2551,19.8452',
      description: 'Вход со двора, 2 этаж',
    })
  ).id;
  ids.free = (
    await call('POST', '/schedule/', {
      date: inDays(3),
      capacity: 3,
      workshop_id: ids.workshop,
      address_id: ids.address,
    })
  ).id;
  ids.full = (
    await call('POST', '/schedule/', { date: inDays(5, 16), capacity: 2, workshop_id: pasta, address_id: ids.address })
  ).id;
  // Someone else takes both seats of the second session.
  const other = { id: 5550002, first_name: 'Иван' };
  await call(
    'POST',
    '/records/',
    { schedule_id: ids.full, name: 'Иван', people_count: 2, is_first_time: true, consent: true },
    { authorization: `tma ${signedInitData(other)}` },
  );
  // A booking made while the session was ahead, then the session moved into the past.
  ids.past = (
    await call('POST', '/schedule/', { date: inDays(2), capacity: 8, workshop_id: pasta, address_id: ids.address })
  ).id;
  ids.pastRecord = (
    await call(
      'POST',
      '/records/',
      { schedule_id: ids.past, name: 'Мария', people_count: 1, is_first_time: true, consent: true },
      { authorization: `tma ${signedInitData(customer)}` },
    )
  ).record.id;
  await call('PUT', `/schedule/${ids.past}`, { date: inDays(-3) });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let freeRecordId = 0;

describe('mini-app /apply', () => {
  it('books a free session: schedule, form, success, Close closes the app', async () => {
    const { page, events, errors, context } = await phone('light');
    await page.goto(`${server.url}/apply${launchHash(signedInitData(customer), 'light')}`);
    const free = page.getByTestId(`session-${ids.free}`);
    await free.waitFor();
    expect(await free.textContent()).toContain('Осталось 3 места');
    expect(await page.getByTestId(`session-${ids.full}`).textContent()).toContain('Мест нет — запись в очередь');
    await page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_ready'));
    await shot(page, 'apply-1-schedule-light');

    await free.click();
    await page.getByText('Контактные данные').waitFor();
    expect(await page.getByLabel('Имя', { exact: true }).inputValue()).toBe('Мария');
    await shot(page, 'apply-2-form-light');
    // Telegram's back button returns to step 1, and the session can be picked again.
    expect(await events()).toContainEqual(['web_app_setup_back_button', { is_visible: true }]);
    await page.evaluate(() => window.Telegram.WebView.receiveEvent('back_button_pressed'));
    await page.getByText('Шаг 1 из 3').waitFor();
    await page.getByTestId(`session-${ids.free}`).click();

    await pressMainButton(page, 'Записаться');
    await page.getByText('Укажите, впервые ли вы у нас').waitFor();
    await shot(page, 'apply-2-form-errors-light');
    await page.getByText('Да, впервые', { exact: true }).click();
    await page.getByText('Есть аллергия на продукты', { exact: true }).click();
    await page.getByLabel('На что аллергия').fill('орехи');
    await page.getByText('Instagram', { exact: true }).click();
    await page.getByLabel('Комментарий').fill('Возьму фартук');
    // A filled form: Telegram asks before closing.
    await page.waitForFunction(() =>
      window.__tgEvents.some(
        (e) => e[0] === 'web_app_setup_closing_behavior' && (e[1] as { need_confirmation: boolean }).need_confirmation,
      ),
    );
    await pressMainButton(page, 'Записаться');
    await page.getByText('Вы записаны!').waitFor();
    await shot(page, 'apply-3-success-light');

    const link = await page.getByRole('link', { name: 'Открыть мою запись' }).getAttribute('href');
    freeRecordId = Number(link!.split('/').pop());
    const view = await call('GET', `/records/${freeRecordId}`);
    expect(view.record).toMatchObject({
      state: 'ACTIVE',
      name: 'Мария',
      last_name: 'Иванова',
      telegram_id: customer.id,
      has_allergy: true,
      allergy_type: 'орехи',
      source: 'instagram',
      is_first_time: true,
    });

    await page.getByRole('button', { name: 'Закрыть' }).click();
    await page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_close'));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('booking the same session again shows the server’s refusal', async () => {
    const { page, context } = await phone('light');
    await page.goto(`${server.url}/apply${launchHash(signedInitData(customer), 'light')}`);
    await page.getByTestId(`session-${ids.free}`).click();
    await page.getByText('Нет, уже был(а)', { exact: true }).click();
    await pressMainButton(page, 'Записаться');
    const toast = page.locator('.toast');
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(/Что-то пошло не так\..*Записаться не получилось\. \S/);
    await shot(page, 'apply-2-refused-light');
    await context.close();
  });

  it('books a full session and lands in the queue (dark theme)', async () => {
    const { page, errors, context } = await phone('dark');
    const other: TgUser = { id: 5550003, first_name: 'Ольга' };
    await page.goto(`${server.url}/apply${launchHash(signedInitData(other), 'dark')}`);
    await page.getByTestId(`session-${ids.full}`).waitFor();
    await shot(page, 'apply-1-schedule-dark');
    await page.getByTestId(`session-${ids.full}`).click();
    await page.getByText(/Свободных мест нет\. Запись будет добавлена в очередь/).waitFor();
    await page.getByText('Да, впервые', { exact: true }).click();
    await shot(page, 'apply-2-form-dark');
    // On a client with the SecondaryButton (7.10+) the queue is that button, beside «Другие даты».
    await page.waitForFunction(() =>
      window.__tgEvents.some(
        (e) => e[0] === 'web_app_setup_secondary_button' && (e[1] as { text?: string }).text === 'Встать в очередь',
      ),
    );
    await page.evaluate(() => window.Telegram.WebView.receiveEvent('secondary_button_pressed'));
    await page.getByText('Вы в очереди').waitFor();
    expect(await page.getByText(/Ваше место в очереди: 1/).count()).toBe(1);
    await shot(page, 'apply-3-queued-dark');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('init data in the older format (no signature) still books', async () => {
    const { page, context } = await phone('light');
    const user = { id: 5550004, first_name: 'Пётр', username: 'petr' };
    await page.goto(`${server.url}/apply${launchHash(initDataFor(user), 'light')}`);
    await page.getByTestId(`session-${ids.free}`).click();
    await page.getByText('Нет, уже был(а)', { exact: true }).click();
    await pressMainButton(page, 'Записаться');
    await page.getByText('Вы записаны!').waitFor();
    await context.close();
  });

  it('outside Telegram: no crash, the missing user is explained and submit is blocked', async () => {
    const { page, errors, context } = await phone('light');
    await page.goto(`${server.url}/apply`);
    await page.getByTestId(`session-${ids.free}`).click();
    await page.getByText('Нет данных Telegram').waitFor();
    expect(await page.getByRole('button', { name: 'Записаться' }).isDisabled()).toBe(true);
    await shot(page, 'apply-2-no-telegram-fallback-theme');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('mini-app /record/{id}', () => {
  it('shows the booking; changes the count with and without the queue warning; cancels with a reason; restores', async () => {
    expect(freeRecordId).toBeGreaterThan(0);
    for (const theme of ['light', 'dark'] as const) {
      const { page, context } = await phone(theme);
      await page.goto(`${server.url}/record/${freeRecordId}${launchHash(signedInitData(customer), theme)}`);
      await page.getByRole('heading', { name: 'Ваша запись на мастер-класс' }).waitFor();
      await shot(page, `record-active-${theme}`);
      await context.close();
    }
    const { page, errors, events, context } = await phone('light');
    await page.goto(`${server.url}/record/${freeRecordId}${launchHash(signedInitData(customer), 'light')}`);
    await page.getByRole('heading', { name: 'Ваша запись на мастер-класс' }).waitFor();
    const main = page.getByRole('main');
    expect(await main.textContent()).toContain('Кулинарная студия «Тесто»');
    expect(await main.textContent()).toContain('Вход со двора, 2 этаж');
    expect(await page.getByRole('link', { name: 'На карте' }).getAttribute('href')).toContain('maps.google.com');
    expect(await page.getByTestId('people-count').textContent()).toBe('1');

    // 3 seats, 1 taken by us (+1 by the older-format booking): +1 fits.
    await page.getByRole('button', { name: 'Изменить количество человек' }).click();
    const panel = page.getByRole('region', { name: 'Изменить количество человек' });
    await panel.getByRole('button', { name: 'Увеличить' }).click();
    expect(await panel.getByText(/поставлена в очередь/).count()).toBe(0);
    await shot(page, 'record-count-panel-light');
    await panel.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Количество человек изменено: 2.').waitFor();
    expect(await page.getByTestId('people-count').textContent()).toBe('2');

    // Now no seat is left: one more person goes beyond, with the warning, and the booking is queued.
    await page.getByRole('button', { name: 'Изменить количество человек' }).click();
    await panel.getByRole('button', { name: 'Увеличить' }).click();
    await panel.getByText(/запись будет поставлена в очередь, пока не освободятся места/).waitFor();
    await shot(page, 'record-count-warning-light');
    await panel.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Количество человек изменено: 3. Запись в очереди.').waitFor();
    await page.getByText('Запись в очереди', { exact: true }).waitFor();
    expect(await page.getByTestId('queue-position').textContent()).toContain('Ваше место в очереди: 1');
    await shot(page, 'record-queued-light');

    // Cancel: the confirm button stays disabled until a reason is typed.
    await page.getByRole('button', { name: 'Отменить запись' }).click();
    expect(await page.getByRole('button', { name: 'Подтвердить отмену' }).isDisabled()).toBe(true);
    await page.getByLabel('Причина отмены').fill('Не получится прийти');
    await shot(page, 'record-cancel-panel-light');
    await page.getByRole('button', { name: 'Подтвердить отмену' }).click();
    await page.getByText('Запись была отменена').waitFor();
    expect((await call('GET', `/records/${freeRecordId}`)).record).toMatchObject({
      state: 'CANCELLED',
      cancel_reason: 'Не получится прийти',
    });
    await shot(page, 'record-cancelled-light');

    await page.getByRole('button', { name: 'Восстановить запись' }).click();
    await page.getByText(/^Запись восстановлена\./).waitFor();
    expect(await page.getByText('Запись была отменена').count()).toBe(0);
    // Restored into the queue (its party is larger than the seats left): «Закрыть» is the MainButton,
    // beside «Выйти из очереди» on the SecondaryButton.
    expect((await call('GET', `/records/${freeRecordId}`)).record.state).toBe('QUEUED');

    await pressMainButton(page, 'Закрыть');
    await page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_close'));
    expect((await events()).map((e) => e[0])).toContain('web_app_close');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a cancelled booking in the dark theme', async () => {
    const rec = await call('PUT', `/records/cancel/${freeRecordId}`, { cancel_reason: 'Заболела' });
    expect(rec.record.state).toBe('CANCELLED');
    const { page, context } = await phone('dark');
    await page.goto(`${server.url}/record/${freeRecordId}${launchHash(signedInitData(customer), 'dark')}`);
    await page.getByText('Запись была отменена').waitFor();
    await shot(page, 'record-cancelled-dark');
    await context.close();
  });

  it('a past booking shows "Запись неактивна" with no actions', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page, errors, context } = await phone(theme);
      await page.goto(`${server.url}/record/${ids.pastRecord}${launchHash(signedInitData(customer), theme)}`);
      await page.getByText('Запись неактивна').waitFor();
      for (const name of [
        'Изменить количество человек',
        'Отменить запись',
        'Восстановить запись',
        'Передать место другу',
        'Выйти из очереди',
      ]) {
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      }
      await shot(page, `record-past-${theme}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('someone else’s booking redirects to /apply', async () => {
    const { page, context } = await phone('light');
    await page.goto(
      `${server.url}/record/${ids.pastRecord}${launchHash(signedInitData({ id: 5550099, first_name: 'Чужой' }), 'light')}`,
    );
    await page.waitForURL(/\/apply/);
    await page.getByText('Выберите мастер-класс').first().waitFor();
    await context.close();
  });
});
