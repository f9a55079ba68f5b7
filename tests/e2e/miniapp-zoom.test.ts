/**
 * The mini-app on a phone can be zoomed (its viewport sets no maximum scale and does not forbid
 * scaling), its headings go in order (one h1, then h2 …: axe-core's heading-order and
 * page-has-heading-one) on each screen, and axe-core finds nothing serious.
 * Screenshots: test-results/screenshots/miniapp-zoom-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { tma } from '../helpers/telegram';
import { axeProblems, launchHash, signedInitData } from '../helpers/miniapp';

const DIST = process.env.DIST_DIR ?? 'dist';
const CUSTOMER = { id: 7_400_001, first_name: 'Ольга', username: 'olga_z' };

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let scheduleId = 0;
let recordId = 0;

async function api<T>(method: string, url: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'webapp', 'index.html'))) throw new Error(`No built mini-app in ${DIST}`);
  server = await startTestServer({ env: { DIST_DIR: DIST } });
  browser = await launchBrowser();
  const staff = await server.auth();
  const workshop = await api<{ id: number }>('POST', '/workshops/', { title: 'Паста', price: 3500 }, staff);
  const address = await api<{ id: number }>('POST', '/address/', { title: 'Улица 1', map_link: 'https://m/1' }, staff);
  const date = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 11) + '16:00:00Z';
  scheduleId = (
    await api<{ id: number }>(
      'POST',
      '/schedule/',
      { date, capacity: 8, workshop_id: workshop.id, address_id: address.id },
      staff,
    )
  ).id;
  recordId = (
    await api<{ record: { id: number } }>(
      'POST',
      '/records/',
      {
        schedule_id: scheduleId,
        name: 'Ольга',
        people_count: 1,
        has_allergy: false,
        is_first_time: true,
        consent: true,
      },
      tma(CUSTOMER),
    )
  ).record.id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(url: string) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    timezoneId: 'Europe/Belgrade',
    bypassCSP: true,
  });
  await context.addInitScript(() => {
    window.__tgEvents = [];
    window.TelegramWebviewProxy = { postEvent: () => undefined };
  });
  const page = await context.newPage();
  await page.goto(`${server.url}${url}${launchHash(signedInitData(CUSTOMER), 'light', 'ios')}`);
  return { page, close: () => context.close() };
}

/** axe-core's two heading rules (best practice, so not in the WCAG run), any impact. */
async function headingProblems(page: Page): Promise<string[]> {
  await axeProblems(page); // loads axe-core
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: 'rule', values: ['heading-order', 'page-has-heading-one'] },
    });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  });
  return violations;
}

/** The page's heading levels in document order. */
const levels = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])));

describe('the mini-app on a phone', () => {
  it('can be zoomed: the viewport neither caps the scale nor forbids scaling', async () => {
    const { page, close } = await open('/apply');
    const viewport = await page.locator('meta[name="viewport"]').getAttribute('content');
    expect(viewport).toContain('width=device-width');
    expect(viewport).not.toMatch(/user-scalable\s*=\s*(no|0)/i);
    expect(viewport).not.toMatch(/maximum-scale/i);
    await close();
  });

  it('has its headings in order on the schedule, the contact step and the booking page', async () => {
    const apply = await open('/apply');
    await apply.page.getByTestId(`session-${scheduleId}`).waitFor();
    expect(await headingProblems(apply.page)).toEqual([]);
    expect((await levels(apply.page))[0]).toBe(1);
    expect(await axeProblems(apply.page)).toEqual([]);
    await apply.page.screenshot({ path: screenshotPath('miniapp-zoom-apply'), fullPage: true });
    await apply.page.getByTestId(`session-${scheduleId}`).click({ force: true });
    await apply.page.getByText('Откуда вы о нас узнали?').waitFor();
    expect(await headingProblems(apply.page)).toEqual([]);
    expect(await axeProblems(apply.page)).toEqual([]);
    await apply.page.screenshot({ path: screenshotPath('miniapp-zoom-contact'), fullPage: true });
    await apply.close();

    const record = await open(`/record/${recordId}`);
    await record.page.getByText('Паста').first().waitFor();
    expect(await headingProblems(record.page)).toEqual([]);
    expect((await levels(record.page))[0]).toBe(1);
    expect(await axeProblems(record.page)).toEqual([]);
    await record.page.screenshot({ path: screenshotPath('miniapp-zoom-record'), fullPage: true });
    await record.close();
  });
});
