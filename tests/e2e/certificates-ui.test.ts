/**
 * Gift certificates and promo codes in the browser (Debian's Chromium against the real server, its built
 * bundles and the fake Bot API): /apply step 2 with a certificate and a promo code on every Telegram layout the
 * mini-app supports (ios, android, tdesktop), light and dark, the price following the promo code and the party
 * before booking; refused codes; the certificate link's landing; buying a certificate with a Telegram invoice;
 * /record's lines; the staff's Сертификаты page (list, search, issue, ledger, void), «Оплатить сертификатом» and
 * Касса at desktop and phone widths. axe-core (WCAG 2.1 AA) finds nothing serious or critical on any of them.
 * Screenshots: test-results/screenshots/certificates-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import {
  postUpdate,
  preCheckoutUpdate,
  startFakeTelegram,
  successfulPaymentUpdate,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { axeProblems, launchHashFor, signedInitData, type Platform, type Theme, type TgUser } from '../helpers/miniapp';

const DIST = process.env.DIST_DIR ?? 'dist';

let server: Awaited<ReturnType<typeof startTestServer>>;
let fake: FakeTelegram;
let browser: Browser;
let token = '';
let staff: Record<string, string>;
let scheduleId = 0;
let nextUser = 7810001;
const newUser = (first_name = 'Анна'): TgUser => ({ id: nextUser++, first_name, last_name: 'Петрова' });

interface Certificate {
  code: string;
  balance: number;
  status: string;
  entries: { kind: string; amount: number; record_id: number | null }[];
}

async function call<T>(method: string, url: string, body?: unknown, headers = staff): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const issue = (amount: number, recipient_name: string, buyer_name = 'Ольга') =>
  call<Certificate>('POST', '/certificates/', {
    amount,
    method: 'cash',
    buyer_name,
    recipient_name,
    greeting: 'С днём рождения!',
  });

const shotName = (name: string) => screenshotPath(`certificates-${name}`);
/** The number in a price as the page prints it ('6 300 RSD' with no-break spaces → '6 300 RSD'). */
const spaces = (s: string) => s.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'webapp', 'index.html')))
    throw new Error(`No built bundles in ${DIST}: run \`vite build\` first`);
  fake = await startFakeTelegram();
  server = await startTestServer({
    env: { ...fake.env, PAYMENT_PROVIDER_TOKEN: '284685063:TEST:e2e', BUSINESS_NAME: 'Кулинарная студия «Тесто»' },
  });
  const login = await fetch(`${server.url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: server.superuser.email, password: server.superuser.password }),
  });
  token = ((await login.json()) as { access_token: string }).access_token;
  staff = { authorization: `Bearer ${token}` };
  const w = await call<{ id: number }>('POST', '/workshops/', { title: 'Хинкали и хачапури', price: 3500 });
  const a = await call<{ id: number }>('POST', '/address/', {
    title: 'Нови Сад, Змај Јовина 12',
    map_link: 'https://maps.example/1',
  });
  const date = new Date(Date.now() + 3 * 86_400_000).toISOString();
  scheduleId = (
    await call<{ id: number }>('POST', '/schedule/', { date, capacity: 40, workshop_id: w.id, address_id: a.id })
  ).id;
  await call('POST', '/promo-codes/', { code: 'VESNA10', kind: 'percent', value: 10 });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fake?.close();
});

const VIEWPORTS: Record<Platform, { width: number; height: number; isMobile: boolean }> = {
  ios: { width: 390, height: 844, isMobile: true },
  android: { width: 412, height: 915, isMobile: true },
  tdesktop: { width: 640, height: 800, isMobile: false },
};

/** A page playing the Telegram client of `platform`: it records the events the app posts. */
async function telegramPage(
  platform: Platform,
  theme: Theme,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const { width, height, isMobile } = VIEWPORTS[platform];
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: 2,
    isMobile,
    hasTouch: isMobile,
    colorScheme: theme,
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
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** Presses Telegram's MainButton once the app shows it with this text, active. */
async function pressMainButton(page: Page, text: string | RegExp) {
  const source = typeof text === 'string' ? `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` : text.source;
  await page.waitForFunction((s) => {
    const setups = window.__tgEvents.filter((e) => e[0] === 'web_app_setup_main_button');
    const last = setups[setups.length - 1]?.[1] as
      { is_visible?: boolean; is_active?: boolean; text?: string } | undefined;
    return last?.is_visible === true && last.is_active === true && new RegExp(s).test(last.text ?? '');
  }, source);
  await page.evaluate(() => window.Telegram.WebView.receiveEvent('main_button_pressed'));
}

/** Opens /apply (with `query`) and goes to step 2 of the session. */
async function stepTwo(page: Page, user: TgUser, platform: Platform, theme: Theme, query = '') {
  await page.goto(`${server.url}/apply${query}${launchHashFor(user, theme, platform)}`);
  await page.getByTestId(`session-${scheduleId}`).click();
  await page.getByText('Сертификат и промокод').waitFor();
}

/** Presses a cell that is a label (a switch's or a radio's): telegram-ui's ripple lies over its text. */
const tap = (page: Page, text: string) =>
  page
    .locator('label')
    .filter({ hasText: new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) })
    .click();

const priceText = async (page: Page) => spaces(await page.getByTestId('price').innerText());

describe('/apply step 2: a certificate and a promo code, on every layout', () => {
  for (const platform of ['ios', 'android', 'tdesktop'] as const)
    for (const theme of ['light', 'dark'] as const)
      it(`${platform} ${theme}: the price follows the promo code and the party; the certificate pays its part of it`, async () => {
        const cert = await issue(5000, `Гость ${platform} ${theme}`);
        const user = newUser();
        const { context, page, errors } = await telegramPage(platform, theme);
        await stepTwo(page, user, platform, theme);
        expect(await priceText(page)).toBe('3 500 RSD');

        // The promo code: the server's quote prices it.
        await tap(page, 'Промокод');
        await page.getByLabel('Код', { exact: true }).fill('vesna10');
        await page.getByRole('button', { name: 'Применить' }).click();
        await page.getByTestId('promo-discount').waitFor();
        expect(await priceText(page)).toBe('3 500 RSD 3 150 RSD');
        expect(spaces(await page.getByTestId('promo-discount').innerText())).toContain('Скидка по промокоду VESNA10');

        // A larger party: quoted again.
        await page.getByRole('button', { name: 'Увеличить' }).click();
        await page.waitForFunction(() => document.querySelector('[data-testid="price"]')?.textContent?.includes('6'));
        expect(await priceText(page)).toBe('7 000 RSD 6 300 RSD');

        // The certificate: checked, and it pays up to its balance.
        await tap(page, 'У меня есть сертификат');
        await page.getByLabel('Код сертификата').fill(cert.code.toLowerCase());
        await page.getByRole('button', { name: 'Применить' }).click();
        const covers = page.getByTestId('certificate-covers');
        await covers.waitFor();
        const coverText = spaces(await covers.innerText());
        expect(coverText).toContain('Сертификат оплатит 5 000 RSD');
        expect(coverText).toContain('Остаток 5 000 RSD');
        expect(coverText).toContain('Остальное (1 300 RSD) — как обычно');

        await tap(page, 'Да, впервые');
        await page.getByText('Сертификат и промокод').scrollIntoViewIfNeeded();
        await page.screenshot({ path: shotName(`apply-${platform}-${theme}`), fullPage: true });
        expect(await axeProblems(page)).toEqual([]);

        await pressMainButton(page, 'Записаться');
        await page.getByText('Вы записаны!').waitFor();
        const link = await page.getByRole('link', { name: 'Открыть мою запись' }).getAttribute('href');
        const recordId = Number(link!.split('/').pop());
        const ledger = await call<{ money: { price: number; amount_paid: number; balance: number } }>(
          'GET',
          `/records/${recordId}/payments`,
        );
        expect(ledger.money).toMatchObject({ price: 6300, amount_paid: 5000, balance: 1300 });
        const after = await call<Certificate>('GET', `/certificates/${cert.code}`);
        expect(after.balance).toBe(0);
        expect(after.entries.find((e) => e.kind === 'redemption')).toMatchObject({
          amount: -5000,
          record_id: recordId,
        });

        if (platform === 'ios') {
          // /record says what the promo code took off and what was paid.
          await page.getByRole('link', { name: 'Открыть мою запись' }).click();
          const section = page.getByTestId('payment-section');
          await section.waitFor();
          const text = spaces(await section.innerText());
          // The price, then the discount, then what is left to pay for the booking, in that order.
          const lines = [
            'Стоимость записи 7 000 RSD',
            'Скидка по промокоду VESNA10 −700 RSD',
            'Итого со скидкой 6 300 RSD',
          ];
          for (const line of lines) expect(text).toContain(line);
          expect(lines.map((line) => text.indexOf(line))).toEqual(
            lines.map((line) => text.indexOf(line)).sort((a, b) => a - b),
          );
          expect(text).toContain('Оплачено 5 000 RSD');
          expect(text).toContain('Оплачено сертификатом 5 000 RSD');
          await section.scrollIntoViewIfNeeded();
          // No cell under the pointer: a hovered cell's grey is a passing state, not the page's colours.
          await page.mouse.move(0, 0);
          await page.screenshot({ path: shotName(`record-${theme}`), fullPage: true });
          expect(await axeProblems(page)).toEqual([]);
        }
        expect(errors).toEqual([]);
        await context.close();
      });
});

describe('/apply step 2: a places certificate', () => {
  it('says the places it pays for this party and what they are worth, again when the party changes', async () => {
    const cert = await call<Certificate>('POST', '/certificates/', {
      places: 3,
      price_paid: 9000,
      method: 'cash',
      recipient_name: 'Гость с местами',
    });
    const user = newUser();
    const { context, page, errors } = await telegramPage('ios', 'light');
    await stepTwo(page, user, 'ios', 'light');
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Увеличить' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="price"]')?.textContent?.includes('14'));
    await tap(page, 'У меня есть сертификат');
    await page.getByLabel('Код сертификата').fill(cert.code);
    await page.getByRole('button', { name: 'Применить' }).click();
    const covers = page.getByTestId('certificate-covers');
    await covers.waitFor();
    // 4 people: its 3 places at 3 500 each, the fourth as usual.
    let text = spaces(await covers.innerText());
    expect(text).toContain('Сертификат оплатит 3 места — 10 500 RSD');
    expect(text).toContain('Осталось 3 места на любой мастер-класс');
    expect(text).toContain('Остальное (3 500 RSD) — как обычно');
    expect(text).not.toContain('Остаток');
    await page.getByRole('button', { name: 'Уменьшить' }).click();
    await page.getByRole('button', { name: 'Уменьшить' }).click();
    await page.waitForFunction(() =>
      /2\sместа/.test(document.querySelector('[data-testid="certificate-covers"]')?.textContent ?? ''),
    );
    text = spaces(await covers.innerText());
    expect(text).toContain('Сертификат оплатит 2 места — 7 000 RSD');
    expect(text).not.toContain('Остальное');
    await tap(page, 'Да, впервые');
    await page.getByText('Сертификат и промокод').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotName('apply-places'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);

    await pressMainButton(page, 'Записаться');
    await page.getByText('Вы записаны!').waitFor();
    const link = await page.getByRole('link', { name: 'Открыть мою запись' }).getAttribute('href');
    const ledger = await call<{ money: { price: number; amount_paid: number; balance: number } }>(
      'GET',
      `/records/${Number(link!.split('/').pop())}/payments`,
    );
    expect(ledger.money).toMatchObject({ price: 7000, amount_paid: 7000, balance: 0 });
    expect(await call<{ places_left: number }>('GET', `/certificates/${cert.code}`)).toMatchObject({ places_left: 1 });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('/apply step 2: refused codes', () => {
  it('a malformed and an unknown certificate code, an unknown promo code: the reason, and no booking until fixed', async () => {
    const user = newUser('Борис');
    const { context, page, errors } = await telegramPage('ios', 'light');
    await stepTwo(page, user, 'ios', 'light');
    await tap(page, 'У меня есть сертификат');
    const code = page.getByLabel('Код сертификата');
    await code.fill('ABC');
    await page.getByRole('button', { name: 'Применить' }).click();
    await page.getByText('Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM').waitFor();
    await code.fill('ABCD-EFGH-JKLM');
    await page.getByRole('button', { name: 'Применить' }).click();
    await page.getByText('Сертификат с таким кодом не найден').waitFor();
    expect(await page.getByTestId('certificate-covers').count()).toBe(0);

    await tap(page, 'Промокод');
    await page.getByLabel('Код', { exact: true }).fill('NETAKOGO');
    await page.getByRole('button', { name: 'Применить' }).last().click();
    await page.getByText(/Промокод не найден/).waitFor();
    expect(await priceText(page)).toBe('3 500 RSD');
    await page.screenshot({ path: shotName('apply-refused-ios-light'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);

    // A code typed but not accepted holds the booking back, with the reason.
    await tap(page, 'Нет, уже был(а)');
    await pressMainButton(page, 'Записаться');
    await page.locator('.toast').getByText('Нажмите «Применить», чтобы проверить код').waitFor();
    // Nothing was booked: the customer is unknown to the studio.
    const res = await fetch(`${server.url}/api/v1/customers/${user.id}`, { headers: staff });
    expect(res.status).toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the certificate link', () => {
  it('/apply?cert=<code> says the certificate pays, and step 2 has the code filled in', async () => {
    const cert = await issue(10000, 'Вера');
    const user = newUser('Вера');
    const { context, page, errors } = await telegramPage('android', 'light');
    await page.goto(
      `${server.url}/apply?cert=${cert.code.replaceAll('-', '')}${launchHashFor(user, 'light', 'android')}`,
    );
    await page.getByText('Выберите мастер-класс: сертификат оплатит запись.').waitFor();
    await page.screenshot({ path: shotName('landing-android-light'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    await page.getByTestId(`session-${scheduleId}`).click();
    expect(await page.getByLabel('Код сертификата').inputValue()).toBe(cert.code.replaceAll('-', ''));
    await page.getByRole('button', { name: 'Применить' }).click();
    expect(spaces(await page.getByTestId('certificate-covers').innerText())).toContain('Сертификат оплатит 3 500 RSD');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('buying a certificate in the mini-app', () => {
  it('an amount from the list, recipient and greeting; the Telegram invoice; the certificate arrives paid', async () => {
    const buyer = newUser('Галина');
    const { context, page, errors } = await telegramPage('ios', 'light');
    await page.goto(`${server.url}/apply${launchHashFor(buyer, 'light', 'ios')}`);
    await page.getByRole('button', { name: 'Подарочный сертификат' }).click();
    await page.getByRole('heading', { name: 'Подарочный сертификат' }).waitFor();
    await page.getByText('5 000 RSD', { exact: true }).click();
    await page.getByLabel('Кому').fill('Дарья');
    await page.getByLabel('Поздравление').fill('С новосельем!');
    await page.screenshot({ path: shotName('buy-ios-light'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);

    await pressMainButton(page, /^Оплатить 5\s000\sRSD$/);
    await page.waitForFunction(() => window.__tgEvents.some((e) => e[0] === 'web_app_open_invoice'));
    const opened = (await page.evaluate(() => window.__tgEvents)).find((e) => e[0] === 'web_app_open_invoice')!;
    const slug = (opened[1] as { slug: string }).slug;
    const invoice = fake.ok('createInvoiceLink').at(-1)!;
    const prices = invoice.params.prices as string | { amount: number }[];
    expect((typeof prices === 'string' ? JSON.parse(prices) : prices)[0].amount).toBe(500000);
    const payload = String(invoice.params.payload);
    // Telegram charges the buyer: the last check, then the payment.
    const from = { ...buyer, is_bot: false as const };
    for (const update of [
      preCheckoutUpdate(from, payload, 500000),
      successfulPaymentUpdate(from, payload, 500000, `charge-${buyer.id}`),
    ])
      expect((await postUpdate(server.app, server.config.webhookSecret, update)).statusCode).toBe(200);
    await page.evaluate(
      (s) =>
        (window.Telegram.WebView as unknown as { receiveEvent(n: string, d: unknown): void }).receiveEvent(
          'invoice_closed',
          { slug: s, status: 'paid' },
        ),
      slug,
    );
    await page.getByText('Оплата прошла! Сертификат придёт в чат с ботом.').waitFor();
    const mine = page.getByTestId('my-certificates');
    await mine.waitFor();
    const text = spaces(await mine.innerText());
    expect(text).toContain('Действует');
    expect(text).toContain('Остаток 5 000 RSD из 5 000 RSD');
    expect(text).toMatch(/[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/);
    await mine.getByRole('button', { name: 'Подарить сертификат' }).waitFor();
    await page.screenshot({ path: shotName('bought-ios-light'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    const list = await call<{ data: { recipient_name: string; status: string; amount: number }[] }>(
      'GET',
      '/certificates/?q=Дарья',
    );
    expect(list.data).toMatchObject([{ recipient_name: 'Дарья', status: 'active', amount: 5000 }]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** The admin with the owner's token, at a desktop or a phone width. */
async function adminPage(phone: boolean): Promise<Page> {
  const context = await browser.newContext({
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 860 },
    deviceScaleFactor: phone ? 2 : 1,
    isMobile: phone,
    hasTouch: phone,
    locale: 'ru-RU',
    timezoneId: 'Europe/Belgrade',
    bypassCSP: true,
  });
  await context.addInitScript((t) => localStorage.setItem('access_token', t), token);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

describe('admin: Сертификаты', () => {
  for (const phone of [false, true])
    it(`${phone ? 'phone' : 'desktop'}: list and search, issue, the ledger, void with a reason and a confirmation`, async () => {
      const width = phone ? 'phone' : 'desktop';
      const page = await adminPage(phone);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${server.url}/certificates`);
      const table = page.getByTestId('certificates-table');
      await table.waitFor();
      const all = await call<{ count: number }>('GET', '/certificates/?limit=20');
      expect(all.count).toBeGreaterThanOrEqual(8);
      expect(await table.locator('tbody tr').count()).toBe(Math.min(all.count, 20));
      await page.waitForTimeout(300);
      await page.screenshot({ path: shotName(`admin-list-${width}`), fullPage: true });
      expect(await axeProblems(page)).toEqual([]);

      // Search by the recipient.
      await page.getByLabel('Поиск по коду, получателю или покупателю').fill('Вера');
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="certificates-table"] tbody tr').length === 1,
      );
      expect(await table.innerText()).toContain('Вера');

      // Issue one: the expiry defaults to 12 months ahead.
      await page.getByRole('button', { name: 'Выпустить' }).click();
      const dialog = page.getByRole('dialog', { name: 'Новый сертификат' });
      await dialog.waitFor();
      // Shown as Russians write a date: дд.мм.гггг.
      const expiry = await dialog.getByLabel('Действует до').inputValue();
      expect(expiry).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      const [d, m, y] = expiry.split('.').map(Number);
      const inYear = new Date();
      inYear.setFullYear(inYear.getFullYear() + 1);
      expect(Math.abs(new Date(y, m - 1, d, 12).getTime() - inYear.getTime())).toBeLessThan(2 * 86_400_000);
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      await dialog.getByText('Укажите сумму в динарах').waitFor();
      const recipient = `Жанна ${width}`;
      await dialog.getByLabel('Номинал, RSD').fill('7000');
      await dialog.getByLabel('Как оплачен').click();
      await page.getByRole('option', { name: 'Карта в студии' }).click();
      await dialog.getByLabel('Покупатель').fill('Игорь');
      await dialog.getByLabel('Получатель').fill(recipient);
      await dialog.getByLabel('Поздравление').fill('С юбилеем!');
      await page.screenshot({ path: shotName(`admin-issue-${width}`), fullPage: true });
      expect(await axeProblems(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Сохранить' }).click();

      // The new certificate opens with its ledger: the sale.
      const view = page.getByTestId('certificate-dialog');
      await view.waitFor();
      expect(spaces(await view.innerText())).toContain('Остаток: 7 000 RSD из 7 000 RSD');
      const ledger = view.getByTestId('certificate-ledger');
      expect(spaces(await ledger.innerText())).toMatch(/Продажа — \+7 000 RSD/);
      const issued = (
        await call<{ data: { code: string; pay_method: string }[] }>(
          'GET',
          `/certificates/?q=${encodeURIComponent(recipient)}`,
        )
      ).data;
      expect(issued).toMatchObject([{ pay_method: 'card' }]);
      await page.waitForTimeout(300);
      await page.screenshot({ path: shotName(`admin-ledger-${width}`), fullPage: true });
      expect(await axeProblems(page)).toEqual([]);

      // Void: the reason, then the confirmation says what is written off.
      await view.getByRole('button', { name: 'Аннулировать сертификат' }).click();
      await view.getByRole('button', { name: 'Аннулировать…' }).click();
      await view.getByText('Укажите причину').waitFor();
      await view.getByLabel('Причина аннулирования').fill('Покупатель вернул деньги');
      await view.getByRole('button', { name: 'Аннулировать…' }).click();
      const confirm = page.getByRole('dialog', { name: 'Аннулировать сертификат?' });
      await confirm.waitFor();
      expect(spaces(await confirm.innerText())).toContain('остаток 7 000 RSD будет списан');
      await page.waitForTimeout(300);
      await page.screenshot({ path: shotName(`admin-void-${width}`), fullPage: true });
      expect((await call<Certificate>('GET', `/certificates/${issued[0].code}`)).status).toBe('active');
      await confirm.getByRole('button', { name: 'Аннулировать' }).click();
      await view.getByText('Аннулирован', { exact: true }).first().waitFor();
      await view.getByRole('alert').getByText('Покупатель вернул деньги').waitFor();
      const voided = await call<Certificate>('GET', `/certificates/${issued[0].code}`);
      expect(voided).toMatchObject({ status: 'voided', balance: 0 });
      expect(errors).toEqual([]);
      await page.context().close();
    });

  it('«Выпустить» a places certificate: the places and what was paid; its dialog and ledger say places', async () => {
    const page = await adminPage(false);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/certificates`);
    await page.getByTestId('certificates-table').waitFor();
    await page.getByRole('button', { name: 'Выпустить' }).click();
    const dialog = page.getByRole('dialog', { name: 'Новый сертификат' });
    await dialog.waitFor();
    await dialog.getByText('Места', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Мест' }).fill('2');
    await dialog.getByLabel('Оплачено, RSD').fill('6500');
    await dialog.getByLabel('Получатель').fill('Лидия и Петар');
    await page.screenshot({ path: shotName('admin-issue-places'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    const view = page.getByTestId('certificate-dialog');
    await view.waitFor();
    const text = spaces(await view.innerText());
    expect(text).toContain('Осталось: 2 места из 2 на любой мастер-класс');
    expect(text).toContain('Заплатил покупатель 6 500 RSD');
    expect(spaces(await view.getByTestId('certificate-ledger').innerText())).toMatch(/Продажа — \+2 места \+6 500 RSD/);
    await page.waitForTimeout(300);
    await page.screenshot({ path: shotName('admin-ledger-places'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a redeemed certificate shows the booking it paid in its ledger', async () => {
    const page = await adminPage(false);
    const redeemed = (await call<{ data: { code: string; status: string }[] }>('GET', '/certificates/?status=used'))
      .data;
    expect(redeemed.length).toBeGreaterThan(0);
    await page.goto(`${server.url}/certificates`);
    await page.getByRole('button', { name: `Сертификат ${redeemed[0].code}` }).click();
    const ledger = page.getByTestId('certificate-ledger');
    await ledger.waitFor();
    expect(spaces(await ledger.innerText())).toMatch(/Оплата записи №\d+ −5 000 RSD/);
    await page.context().close();
  });

  it('«Оплатить сертификатом» on a booking, and Касса counts certificates', async () => {
    const cert = await issue(2000, 'Зоя');
    const guest = newUser('Зоя');
    const booked = await call<{ record: { id: number } }>(
      'POST',
      '/records/',
      { schedule_id: scheduleId, name: 'Зоя', is_first_time: true, consent: true },
      { authorization: `tma ${signedInitData(guest)}` },
    );
    const page = await adminPage(false);
    await page.goto(`${server.url}/cash`);
    await page.getByTestId('certificate-totals').waitFor();
    const before = spaces(await page.getByTestId('certificate-totals').innerText());
    expect(before).toMatch(/Продано сертификатов \S/);
    await page.goto(`${server.url}/schedule`);
    const row = page.locator('tr', { hasText: 'Зоя' }).first();
    await row.getByTestId('payment-badge').click();
    const dialog = page.getByTestId('payment-dialog');
    await dialog.waitFor();
    await dialog.getByLabel('Код сертификата').fill(cert.code);
    await dialog.getByRole('button', { name: 'Оплатить сертификатом' }).click();
    await dialog.getByTestId('ledger').getByRole('cell', { name: 'Сертификат', exact: true }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: shotName('admin-redeem'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    const ledger = await call<{ money: { amount_paid: number; balance: number } }>(
      'GET',
      `/records/${booked.record.id}/payments`,
    );
    expect(ledger.money).toMatchObject({ amount_paid: 2000, balance: 1500 });

    await page.goto(`${server.url}/cash`);
    const totals = page.getByTestId('certificate-totals');
    await totals.waitFor();
    const desk = await call<{ certificates: { sold: number; redeemed: number; outstanding: number } }>(
      'GET',
      '/payments/',
    );
    const text = spaces(await totals.innerText());
    const rsd = (n: number) => new Intl.NumberFormat('ru-RU').format(n).replace(/\s/g, ' ') + ' RSD';
    expect(text).toContain(`Продано сертификатов ${rsd(desk.certificates.sold)}`);
    expect(text).toContain(`Оплачено сертификатами ${rsd(desk.certificates.redeemed)}`);
    expect(text).toContain(`Остаток на сертификатах ${rsd(desk.certificates.outstanding)}`);
    expect(desk.certificates.redeemed).toBeGreaterThanOrEqual(2000);
    await page.waitForTimeout(300);
    await page.screenshot({ path: shotName('admin-cash-desk'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    await page.context().close();
  });
});
