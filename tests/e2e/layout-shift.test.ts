/**
 * The mini-app's first screen does not jump: the schedule replaces its loading placeholder without
 * moving what is on the screen (no layout shift, as Lighthouse and a user's thumb would notice), on a
 * phone-sized screen with the CPU slowed 4× so the placeholder is seen first.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { seedThreeSessions } from '../helpers/miniapp';

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  await seedThreeSessions(server);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('/apply draws its sessions where the placeholder was without a layout shift', async () => {
  const ctx = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(() => {
      const w = window as Window & { shifts?: { value: number; nodes: string[] }[]; sawPlaceholder?: boolean };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & {
          value: number;
          sources?: { node?: Node }[];
        })[])
          w.shifts!.push({
            value: e.value,
            nodes: (e.sources ?? []).map((s) => (s.node as Element)?.outerHTML?.slice(0, 120)),
          });
      }).observe({ type: 'layout-shift', buffered: true });
      new MutationObserver(() => {
        if (document.querySelector('[aria-busy="true"]')) w.sawPlaceholder = true;
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(`${server.url}/apply`);
    await page.locator('[data-testid^="session-"]').first().waitFor();
    await page.waitForTimeout(1500); // the later screens' code and styles load when the browser is idle
    const seen = await page.evaluate(() => {
      const w = window as Window & { shifts?: { value: number; nodes: string[] }[]; sawPlaceholder?: boolean };
      return { shifts: w.shifts, sawPlaceholder: w.sawPlaceholder };
    });
    // The placeholder was on screen first: the test saw the moment it is about.
    expect(seen.sawPlaceholder).toBe(true);
    expect(seen.shifts).toEqual([]);
  } finally {
    await ctx.close();
  }
});
