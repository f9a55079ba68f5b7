/**
 * The certificate's card page in the browser (Debian's Chromium against the real server, its bot on
 * the fake Bot API for the link): on a phone and a desktop screen, then as printed (print media), each
 * checked with axe-core (WCAG 2.1 AA: no serious or critical violation); a places certificate's card
 * says its places on any workshop, never a sum; the card in English and Serbian. Screenshots: test-results/screenshots/certificate-card-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { FAKE_BOT, startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { axeProblems } from '../helpers/miniapp';
import { startTestServer } from '../helpers/server';

let fake: FakeTelegram;
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let code = '';
let placesCode = '';

beforeAll(async () => {
  fake = await startFakeTelegram();
  server = await startTestServer({ env: { ...fake.env, BUSINESS_NAME: 'Кулинарная студия «Шафран»' } });
  const staff = await server.auth();
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/certificates/',
    headers: staff,
    payload: {
      amount: 7500,
      method: 'card',
      buyer_name: 'Пётр',
      recipient_name: 'Мария Иванова',
      greeting: 'С днём рождения! Пусть каждый ужин будет праздником.',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  code = res.json().code;
  const places = await server.app.inject({
    method: 'POST',
    url: '/api/v1/certificates/',
    headers: staff,
    payload: {
      places: 3,
      price_paid: 10500,
      method: 'cash',
      recipient_name: 'Ана и Марко',
      greeting: 'Три места на любой мастер-класс — выбирайте вместе!',
    },
  });
  expect(places.statusCode, places.body).toBe(201);
  placesCode = places.json().code;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fake?.close();
});

describe('the certificate card page', () => {
  for (const [name, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 900 }],
  ] as const)
    it(`shows the card on a ${name} screen, with the bot's link as text and QR code`, async () => {
      const page = await browser.newPage({ viewport, bypassCSP: true, locale: 'ru-RU' });
      try {
        const res = await page.goto(`${server.url}/gift/${code.toLowerCase()}`);
        expect(res?.status()).toBe(200);
        await expect.poll(() => page.title()).toContain('Подарочный сертификат');
        const card = page.locator('main.card');
        await expect.poll(async () => (await card.innerText()).replace(/\s+/g, ' ')).toContain('7 500 RSD');
        const text = await card.innerText();
        expect(text).toContain('Кулинарная студия «Шафран»'.toUpperCase());
        expect(text).toContain('Мария Иванова');
        expect(text).toContain('С днём рождения!');
        expect(text).toContain(code);
        expect(text).toMatch(/действует до\s*\d+ \S+ \d{4}/i);
        const link = `https://t.me/${FAKE_BOT.username}?start=cert_${code.replaceAll('-', '')}`;
        expect(await page.locator(`a[href="${link}"]`).count()).toBe(1);
        const qr = page.locator('svg[role="img"]');
        expect((await qr.boundingBox())!.width).toBeGreaterThan(80);
        // Nothing sticks out sideways on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect(await page.locator('.hint').isVisible()).toBe(true);
        expect(await axeProblems(page)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`certificate-card-${name}`), fullPage: true });
      } finally {
        await page.close();
      }
    });

  for (const [name, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 900 }],
  ] as const)
    it(`shows a places certificate's card on a ${name} screen: its places on any workshop, no sum`, async () => {
      const page = await browser.newPage({ viewport, bypassCSP: true, locale: 'ru-RU' });
      try {
        const res = await page.goto(`${server.url}/gift/${placesCode}`);
        expect(res?.status()).toBe(200);
        await expect.poll(() => page.title()).toContain('Сертификат на 3 места на любой мастер-класс');
        const card = page.locator('main.card');
        const text = (await card.innerText()).replace(/\s+/g, ' ');
        expect(text).toMatch(/Подарочный сертификат на 3 места на любой мастер-класс/i);
        expect(text).not.toMatch(/дин\.|RSD/);
        expect(text).toContain('Ана и Марко');
        expect(text).toContain('по месту на каждого участника');
        expect(text).toContain(placesCode);
        expect(await page.locator('svg[role="img"]').count()).toBe(1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect(await axeProblems(page)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`certificate-card-places-${name}`), fullPage: true });
      } finally {
        await page.close();
      }
    });

  for (const [name, viewport, query, locale, words] of [
    // The bot's link says the customer's language; a link without it takes the browser's.
    [
      'en',
      { width: 390, height: 844 },
      '?lang=en',
      'ru-RU',
      ['Gift certificate', '7,500 RSD', 'Valid until', 'For: Мария', '“С днём рождения!'],
    ],
    [
      'sr',
      { width: 1280, height: 900 },
      '',
      'sr-RS',
      ['Poklon-sertifikat', '7.500 din.', 'Važi do', 'Za: Мария', '„С днём рождения!'],
    ],
  ] as const)
    it(`shows the card in ${name} (${query ? 'the link’s language' : 'the browser’s language'})`, async () => {
      const page = await browser.newPage({ viewport, bypassCSP: true, locale });
      try {
        const res = await page.goto(`${server.url}/gift/${code}${query}`);
        expect(res?.status()).toBe(200);
        const card = page.locator('main.card');
        const text = (await card.innerText()).replace(/\s+/g, ' ');
        // Labels are capitals on screen (CSS): compared as the catalogue writes them.
        for (const w of words) expect(text.toLowerCase()).toContain(w.toLowerCase());
        expect(await page.locator('html').getAttribute('lang')).toBe(name === 'en' ? 'en-GB' : 'sr-Latn');
        // The Russian greeting keeps Russian letter forms on an English or Serbian page.
        expect(await page.locator('.greeting').getAttribute('lang')).toBe('ru');
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect(await axeProblems(page)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`certificate-card-${name}`), fullPage: true });
      } finally {
        await page.close();
      }
    });

  it('prints the card alone on an A5 sheet: no shadow, no hint', async () => {
    const page = await browser.newPage({ viewport: { width: 794, height: 560 }, bypassCSP: true, locale: 'ru-RU' });
    try {
      await page.goto(`${server.url}/gift/${code}`);
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('.hint').isVisible()).toBe(false);
      const card = page.locator('main.card');
      expect(await card.evaluate((el) => getComputedStyle(el).boxShadow)).toBe('none');
      const box = (await card.boundingBox())!;
      // The card spans the sheet's width.
      expect(box.width).toBeGreaterThan(700);
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath('certificate-card-print'), fullPage: true });
      const pdf = await page.pdf({ preferCSSPageSize: true });
      expect(pdf.byteLength).toBeGreaterThan(5000);
    } finally {
      await page.close();
    }
  });
});
