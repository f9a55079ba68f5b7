/**
 * The customer's journey in the mini-app, end to end (Debian's Chromium against the real server,
 * init data signed with the test bot token): the change deadline, "Добавить в календарь", giving a
 * seat to a friend, leaving the queue, "Записаться снова", "Сообщить о новых датах"; the mini-app on
 * Telegram's iOS, Android and desktop layouts in light and dark, checked with axe-core (WCAG 2.1 AA,
 * no serious or critical violation). Screenshots: test-results/screenshots/journey-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import ICAL from 'ical.js';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { axeProblems, launchHashFor, signedInitData, type Platform, type Theme, type TgUser } from '../helpers/miniapp';

const DIST = process.env.DIST_DIR ?? 'dist';

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let staff: Record<string, string>;
const ids = { workshop: 0, address: 0, soon: 0, later: 0, fullWorkshop: 0 };
let nextUser = 5560001;
const newUser = (first_name = 'Мария'): TgUser => ({ id: nextUser++, first_name, last_name: 'Иванова' });

async function call<T = { id: number; record: { id: number; state: string }; calendar_url: string }>(
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
const asCustomer = (u: TgUser) => ({ authorization: `tma ${signedInitData(u)}` });
const bookAs = (u: TgUser, scheduleId: number, extra: object = {}) =>
  call(
    'POST',
    '/records/',
    { schedule_id: scheduleId, name: u.first_name, is_first_time: true, consent: true, ...extra },
    asCustomer(u),
  );

const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

async function phone(theme: Theme = 'light'): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    colorScheme: theme,
    locale: 'ru-RU',
    timezoneId: 'Europe/Belgrade',
    // axe-core is injected as a script; the page's CSP would refuse it.
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

const shot = (page: Page, name: string) => page.screenshot({ path: screenshotPath(`journey-${name}`), fullPage: true });

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
    await call('POST', '/workshops/', { title: 'Хинкали и хачапури', price: 3500, duration_minutes: 150 })
  ).id;
  ids.fullWorkshop = (await call('POST', '/workshops/', { title: 'Французская выпечка', price: 4800 })).id;
  ids.address = (
    await call('POST', '/address/', {
      title: 'Нови Сад, Змај Јовина 12',
      map_link: 'https://www.openstreetmap.org/?mlat=45.2551&mlon=19.8452',
      description: 'Вход со двора, 2 этаж',
    })
  ).id;
  ids.soon = (
    await call('POST', '/schedule/', {
      date: hoursFromNow(20),
      capacity: 8,
      workshop_id: ids.workshop,
      address_id: ids.address,
    })
  ).id;
  ids.later = (
    await call('POST', '/schedule/', {
      date: hoursFromNow(24 * 6),
      capacity: 8,
      workshop_id: ids.workshop,
      address_id: ids.address,
    })
  ).id;
  // A workshop whose only session is full: offered as "Сообщить о новых датах".
  const full = (
    await call('POST', '/schedule/', {
      date: hoursFromNow(24 * 4),
      capacity: 0,
      workshop_id: ids.fullWorkshop,
      address_id: ids.address,
    })
  ).id;
  void full;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the booking page: deadline, calendar, a seat for a friend, the queue', () => {
  it('a checked-in booking: the page says so and offers no change, as the server’s allowed says', async () => {
    const soon = await call('POST', '/schedule/', {
      date: hoursFromNow(0.5),
      capacity: 8,
      workshop_id: ids.workshop,
      address_id: ids.address,
    });
    const u = newUser();
    const id = (await bookAs(u, soon.id)).record.id;
    await call('PUT', `/records/${id}/attendance`, { attendance: 'ATTENDED' });
    for (const theme of ['light', 'dark'] as const) {
      const { page, errors, context } = await phone(theme);
      await page.goto(`${server.url}/record/${id}${launchHashFor(u, theme)}`);
      await page.getByText('Посещение отмечено').waitFor();
      expect(await page.getByRole('main').textContent()).toContain('запись больше нельзя изменить');
      for (const name of ['Изменить количество человек', 'Отменить запись', 'Передать место другу'])
        expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
      await shot(page, `record-attended-${theme}`);
      expect(await axeProblems(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('within the change deadline: the notice names the deadline and the contact, the change buttons are gone', async () => {
    await call('PUT', '/business-settings/', { change_deadline_hours: 24, contact: '@testo_studio' });
    try {
      const u = newUser();
      const id = (await bookAs(u, ids.soon)).record.id;
      for (const theme of ['light', 'dark'] as const) {
        const { page, errors, context } = await phone(theme);
        await page.goto(`${server.url}/record/${id}${launchHashFor(u, theme)}`);
        await page.getByText('Изменить запись уже нельзя').waitFor();
        expect(await page.getByRole('main').textContent()).toContain('Свяжитесь со студией: @testo_studio');
        for (const name of ['Изменить количество человек', 'Отменить запись', 'Восстановить запись'])
          expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Добавить в календарь' }).count()).toBe(1);
        // The seat may still be given away: the server allows it, so the page shows it.
        expect(await page.getByRole('button', { name: 'Передать место другу' }).count()).toBe(1);
        await shot(page, `record-deadline-${theme}`);
        expect(await axeProblems(page)).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      }
    } finally {
      await call('PUT', '/business-settings/', { change_deadline_hours: 0, contact: '' });
    }
  });

  it('"Добавить в календарь" opens the signed .ics in Telegram\'s browser; the file is a valid event', async () => {
    const u = newUser();
    const created = await bookAs(u, ids.later);
    const { page, context } = await phone('light');
    await page.goto(`${server.url}/record/${created.record.id}${launchHashFor(u, 'light')}`);
    await page.getByRole('button', { name: 'Добавить в календарь' }).click();
    await page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_open_link'));
    const opened = (await page.evaluate(() => window.__tgEvents)).find((e) => e[0] === 'web_app_open_link')!;
    const url = (opened[1] as { url: string }).url;
    expect(url).toBe(`${server.url}${created.calendar_url}`);
    const ics = await (await fetch(url)).text();
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!);
    expect(event.summary).toBe('Хинкали и хачапури — Кулинарная студия «Тесто»');
    expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(150 * 60_000);
    await context.close();
  });

  it('"Передать место другу": the giver gets a link; the friend opens it, enters a name and allergy, and the booking is theirs', async () => {
    const giver = newUser('Анна');
    const id = (await bookAs(giver, ids.later, { people_count: 2 })).record.id;
    const g = await phone('light');
    await g.page.goto(`${server.url}/record/${id}${launchHashFor(giver, 'light')}`);
    await g.page.getByRole('button', { name: 'Передать место другу' }).click();
    const url = (await g.page.getByTestId('gift-url').textContent())!;
    expect(url).toMatch(/^https:\/\/t\.me\/studio_test_bot\?start=gift_[\w-]{22}$/);
    await shot(g.page, 'record-gift-link-light');
    await g.page.getByRole('button', { name: 'Отправить другу' }).click();
    await g.page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_open_tg_link'));
    await g.context.close();

    // The bot answers /start gift_<token> with a button to /apply?gift=<token>.
    const token = url.split('gift_')[1];
    const friend = newUser('Ольга');
    for (const theme of ['dark', 'light'] as const) {
      const f = await phone(theme);
      await f.page.goto(`${server.url}/apply?gift=${token}${launchHashFor(friend, theme)}`);
      await f.page.getByRole('heading', { name: 'Анна передаёт вам место' }).waitFor();
      expect(await f.page.getByRole('main').textContent()).toContain('Хинкали и хачапури');
      expect(await f.page.getByLabel('Имя', { exact: true }).inputValue()).toBe('Ольга');
      if (theme === 'dark') {
        await shot(f.page, 'gift-accept-dark');
        expect(await axeProblems(f.page)).toEqual([]);
        await f.context.close();
        continue;
      }
      await f.page.getByText('Есть аллергия на продукты', { exact: true }).click();
      await f.page.getByLabel('На что аллергия').fill('глютен');
      await shot(f.page, 'gift-accept-light');
      // A filled form: Telegram asks before closing.
      await f.page.waitForFunction(() =>
        window.__tgEvents.some(
          (e) =>
            e[0] === 'web_app_setup_closing_behavior' && (e[1] as { need_confirmation: boolean }).need_confirmation,
        ),
      );
      expect(await axeProblems(f.page)).toEqual([]);
      // Inside Telegram the primary action is Telegram's MainButton.
      await f.page.waitForFunction(() =>
        window.__tgEvents.some(
          (e) => e[0] === 'web_app_setup_main_button' && (e[1] as { text?: string }).text === 'Принять место',
        ),
      );
      await f.page.evaluate(() => window.Telegram.WebView.receiveEvent('main_button_pressed'));
      await f.page.waitForURL(new RegExp(`/record/${id}`));
      await f.page.getByRole('heading', { name: 'Ваша запись на мастер-класс' }).waitFor();
      await shot(f.page, 'gift-accepted-record-light');
      expect(f.errors).toEqual([]);
      await f.context.close();
    }
    expect((await call('GET', `/records/${id}`)).record).toMatchObject({
      telegram_id: friend.id,
      name: 'Ольга',
      people_count: 2,
      has_allergy: true,
      allergy_type: 'глютен',
    });
    // The link is dead now.
    const dead = await phone('light');
    await dead.page.goto(`${server.url}/apply?gift=${token}${launchHashFor(newUser(), 'light')}`);
    await dead.page.getByText('Ссылка недействительна', { exact: true }).waitFor();
    await shot(dead.page, 'gift-dead-light');
    await dead.context.close();
  });

  it('a queued customer leaves the queue from /record (asked once more)', async () => {
    const tiny = (
      await call('POST', '/schedule/', {
        date: hoursFromNow(48),
        capacity: 0,
        workshop_id: ids.workshop,
        address_id: ids.address,
      })
    ).id;
    const u = newUser();
    const id = (await bookAs(u, tiny)).record.id;
    const { page, context } = await phone('light');
    await page.goto(`${server.url}/record/${id}${launchHashFor(u, 'light')}`);
    // On a client with the SecondaryButton (7.10+) leaving the queue is that button.
    await page.waitForFunction(() =>
      window.__tgEvents.some(
        (e) => e[0] === 'web_app_setup_secondary_button' && (e[1] as { text?: string }).text === 'Выйти из очереди',
      ),
    );
    await page.evaluate(() => window.Telegram.WebView.receiveEvent('secondary_button_pressed'));
    await page.getByText('Выйти из очереди? Место в очереди не сохранится.').waitFor();
    await shot(page, 'record-leave-queue-light');
    await page.getByRole('button', { name: 'Да, выйти' }).click();
    await page.getByText('Запись была отменена').waitFor();
    expect((await call('GET', `/records/${id}`)).record).toMatchObject({
      state: 'CANCELLED',
      cancel_reason: 'Вышел(а) из очереди',
    });
    await context.close();
  });
});

describe('/apply: book again, new dates', () => {
  it('"Записаться снова" shows that workshop\'s dates and fills in the party size and allergy', async () => {
    const u = newUser();
    const id = (await bookAs(u, ids.soon, { people_count: 3, has_allergy: true, allergy_type: 'орехи' })).record.id;
    const { page, errors, context } = await phone('light');
    await page.goto(`${server.url}/apply?again=${id}${launchHashFor(u, 'light')}`);
    await page.getByRole('button', { name: 'Показать все мастер-классы' }).waitFor();
    expect(await page.getByTestId(`session-${ids.later}`).count()).toBe(1);
    await shot(page, 'apply-again-schedule-light');
    await page.getByTestId(`session-${ids.later}`).click();
    await page.getByText('Контактные данные').waitFor();
    expect(await page.getByLabel('На что аллергия').inputValue()).toBe('орехи');
    expect(await page.locator('.contact-form').getByTestId('stepper-value').textContent()).toBe('3');
    await shot(page, 'apply-again-form-light');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('"Сообщить о новых датах" for a workshop without free dates', async () => {
    const u = newUser();
    for (const theme of ['light', 'dark'] as const) {
      const { page, context } = await phone(theme);
      await page.goto(`${server.url}/apply${launchHashFor(u, theme)}`);
      const offer = page.getByTestId(`offer-${ids.fullWorkshop}`);
      await offer.waitFor();
      if (theme === 'light') {
        await offer.getByRole('button', { name: 'Сообщить о новых датах' }).click();
        await offer.getByText('Подписка оформлена').waitFor();
      }
      await shot(page, `apply-new-dates-${theme}`);
      await context.close();
    }
    const offers = await call<{ data: { workshop_id: number; subscribed: boolean }[] }>(
      'GET',
      '/date-subscriptions/',
      undefined,
      asCustomer(u),
    );
    expect(offers.data.find((o) => o.workshop_id === ids.fullWorkshop)?.subscribed).toBe(true);
  });
});

describe('every Telegram platform, light and dark, axe-clean', () => {
  const platforms: Platform[] = ['ios', 'android', 'tdesktop'];
  for (const platform of platforms)
    for (const theme of ['light', 'dark'] as const)
      it(`${platform} ${theme}: /apply (both steps) and /record; each label once; no serious or critical axe violation`, async () => {
        const u = newUser();
        const { page, errors, context } = await phone(theme);
        await page.goto(`${server.url}/apply${launchHashFor(u, theme, platform)}`);
        await page.getByTestId(`session-${ids.later}`).waitFor();
        expect(await axeProblems(page)).toEqual([]);
        await page.getByTestId(`session-${ids.later}`).click();
        await page.getByText('Контактные данные').waitFor();
        // The label is read once by a screen reader and shown once (Android's layout used to show it twice).
        for (const label of ['Имя', 'Фамилия'])
          expect(await page.locator('.contact-form').getByText(label, { exact: true }).count()).toBe(1);
        await shot(page, `apply-form-${platform}-${theme}`);
        expect(await axeProblems(page)).toEqual([]);
        const id = (await bookAs(u, ids.later)).record.id;
        await page.goto(`${server.url}/record/${id}${launchHashFor(u, theme, platform)}`);
        await page.getByRole('heading', { name: 'Ваша запись на мастер-класс' }).waitFor();
        await shot(page, `record-${platform}-${theme}`);
        expect(await axeProblems(page)).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      });
});

describe('the admin side', () => {
  async function adminPage(viewport = { width: 1280, height: 900 }) {
    const context = await browser.newContext({ viewport, locale: 'ru-RU', timezoneId: 'Europe/Belgrade' });
    const token = staff.authorization.replace(/^Bearer /, '');
    await context.addInitScript((t) => localStorage.setItem('access_token', t), token);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    return { context, page, errors };
  }

  it('Настройки → Бизнес: a superuser changes the reminder hours and the deadline; a wrong value gets a Russian message', async () => {
    const { page, errors, context } = await adminPage();
    await page.goto(`${server.url}/settings`);
    await page.getByRole('tab', { name: 'Бизнес' }).click();
    const hours = page.getByLabel('Напоминания клиентам, за сколько часов');
    await hours.waitFor();
    expect(await hours.inputValue()).toBe('24, 3');
    await hours.fill('48, 0');
    await hours.blur();
    await page.getByText('Напоминание: не раньше чем за 1 час').waitFor();
    await page.screenshot({ path: screenshotPath('journey-admin-business-error'), fullPage: true });
    await hours.fill('48, 3');
    await page.getByLabel('Срок изменений, часов до начала').fill('12');
    await page.getByLabel('Контакты студии').fill('@testo_studio, +381 60 123 4567');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Настройки сохранены.').waitFor();
    await page.screenshot({ path: screenshotPath('journey-admin-business'), fullPage: true });
    const saved = await call<{ reminder_hours: number[]; change_deadline_hours: number; contact: string }>(
      'GET',
      '/business-settings/',
    );
    expect(saved).toMatchObject({
      reminder_hours: [48, 3],
      change_deadline_hours: 12,
      contact: '@testo_studio, +381 60 123 4567',
    });
    await call('PUT', '/business-settings/', { reminder_hours: [24, 3], change_deadline_hours: 0, contact: '' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the address form takes the pin from a map link; the booking table shows "Придёт" and the rating', async () => {
    const { page, errors, context } = await adminPage();
    await page.goto(`${server.url}/settings`);
    await page.getByRole('tab', { name: 'Адреса' }).click();
    await page.getByRole('heading', { name: 'Адреса' }).waitFor();
    await page.getByRole('button', { name: 'Добавить' }).click();
    const dialog = page.getByRole('dialog', { name: 'Добавление адреса' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Адрес', exact: true }).fill('Београд, Цетињска 15');
    const link = dialog.getByLabel('Ссылка на карту');
    await link.fill('https://www.google.com/maps/place/Cetinjska/@44.8176,20.4633,17z');
    await link.blur();
    expect(await dialog.getByLabel('Широта').inputValue()).toBe('44.8176');
    expect(await dialog.getByLabel('Долгота').inputValue()).toBe('20.4633');
    await page.screenshot({ path: screenshotPath('journey-admin-address-pin'), fullPage: true });
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Адрес добавлен.').waitFor();

    // A confirmed booking and a rated one, in a session of their own.
    const own = (
      await call('POST', '/schedule/', {
        date: hoursFromNow(30),
        capacity: 8,
        workshop_id: ids.workshop,
        address_id: ids.address,
      })
    ).id;
    const u = newUser('Вера');
    const r = (await bookAs(u, own)).record.id;
    await server.database.db
      .updateTable('records')
      .set({ confirmed_at: new Date().toISOString() })
      .where('id', '=', r)
      .execute();
    const v = newUser('Зоран');
    const r2 = (await bookAs(v, own)).record.id;
    await server.database.db.updateTable('records').set({ rating: 5 }).where('id', '=', r2).execute();
    await page.goto(`${server.url}/schedule`);
    await page.getByTestId('confirmed').first().waitFor();
    expect(await page.getByTestId('rating').first().textContent()).toBe('★ 5');
    await page.getByTestId('confirmed').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('journey-admin-confirmed-rating') });
    expect(errors).toEqual([]);
    await context.close();
  });
});
