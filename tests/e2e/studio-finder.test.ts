/**
 * The platform's /login, where staff who came to the platform's own address say which studio they sign
 * in to, in Debian's Chromium at 1280 and 390 px: typed by name it leads to that studio's own login page;
 * an unknown studio is said at the field. axe-core: no serious or critical violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshotPath, sideways } from '../helpers/browser';
import { axeProblems } from '../helpers/miniapp';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

let browser: Browser;
let p: TestPlatform;

beforeAll(async () => {
  browser = await launchBrowser();
  p = await startTestPlatform();
  await p.addStudio('pekarnya', 31);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await p?.close();
});

describe("the platform's login page", () => {
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`asks which studio and leads to its own login (${name})`, async () => {
      const ctx = await browser.newContext({ viewport, locale: 'ru-RU', bypassCSP: true });
      const page = await ctx.newPage();
      await page.goto(`${p.url}/login`);
      const field = page.getByLabel('Адрес или название студии');
      await field.fill('нет такой');
      await page.getByRole('button', { name: 'Продолжить' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Такой студии нет');
      await page.screenshot({ path: screenshotPath(`studio-finder-unknown-${name}`) });
      expect(await axeProblems(page)).toEqual([]);
      expect(await sideways(page)).toBe(0);
      await page.getByLabel('Адрес или название студии').fill('Студия 31');
      await page.getByRole('button', { name: 'Продолжить' }).click();
      await page.waitForURL((u) => u.pathname === '/s/pekarnya/login');
      await page.getByLabel('Email').waitFor();
      await page.screenshot({ path: screenshotPath(`studio-finder-studio-login-${name}`) });
      await ctx.close();
    });
  }
});
