/**
 * The cash desk's «Несверенные деньги» card in the browser (Debian's Chromium against the real server and
 * its built bundles): the sweeper's findings at 1280 and 390 px, checked with axe-core, and a decision
 * that clears its line. Screenshots: test-results/screenshots/unreconciled-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath, startAdminBrowser, type AdminBrowser } from '../helpers/browser';
import { axeProblems, signedInitData, type TgUser } from '../helpers/miniapp';
import { sweepUnreconciled } from '../../core/payments/reconcile';

let admin: AdminBrowser;

/** A booking of `people` paid in cash, then made one person: paid beyond its price. */
async function overpaid(scheduleId: number, customer: TgUser, people: number) {
  const tma = { authorization: `tma ${signedInitData(customer)}` };
  const { record } = await admin.api<{ record: { id: number } }>(
    'POST',
    '/records/',
    { schedule_id: scheduleId, name: customer.first_name, people_count: people, is_first_time: true, consent: true },
    tma,
  );
  await admin.api('POST', `/records/${record.id}/payments`, { method: 'cash' });
  await admin.api('PUT', `/records/${record.id}`, { people_count: 1 }, tma);
}

beforeAll(async () => {
  admin = await startAdminBrowser();
  await admin.api('PUT', '/business-settings/', { prepayment: 'none', refund_to: 'refund' });
  const w = await admin.api<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: 3500 });
  const a = await admin.api<{ id: number }>('POST', '/address/', {
    title: 'Змај Јовина 12',
    map_link: 'https://maps.example/1',
  });
  const date = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const s = await admin.api<{ id: number }>('POST', '/schedule/', {
    date,
    capacity: 8,
    workshop_id: w.id,
    address_id: a.id,
  });
  await overpaid(s.id, { id: 7780001, first_name: 'Мария', last_name: 'Иванова' }, 3);
  await overpaid(s.id, { id: 7780002, first_name: 'Олег' }, 2);
  expect(await sweepUnreconciled(admin.server.database)).toBe(2);
});
afterAll(() => admin?.close());

async function cashPage(width: number, height: number): Promise<Page> {
  const { page } = await admin.open('/cash', { width, height });
  await page.getByTestId('unreconciled-money').waitFor();
  return page;
}

describe('Касса: «Несверенные деньги»', () => {
  for (const [name, width, height] of [
    ['desktop', 1280, 860],
    ['phone', 390, 844],
  ] as const)
    it(`lists each finding with its decisions (${width} px)`, async () => {
      const page = await cashPage(width, height);
      const card = page.getByTestId('unreconciled-money');
      expect(await card.getByRole('heading', { name: 'Несверенные деньги' }).count()).toBe(1);
      const lines = card.getByTestId('unreconciled-line');
      expect(await lines.count()).toBe(2);
      const first = (await lines.first().innerText()).replace(/\s+/g, ' ');
      expect(first).toMatch(/Оплачено больше цены/);
      expect(first).toMatch(/7 000 RSD/);
      expect(first).toMatch(/Запись №\d+ · Мария · Хинкали, /);
      for (const label of ['На баланс клиента', 'Вернуть', 'Оставить'])
        expect(await lines.first().getByRole('button', { name: label }).count()).toBe(1);
      // Nothing runs past the phone's edge.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.waitForTimeout(300);
      await page.screenshot({ path: screenshotPath(`unreconciled-${name}`), fullPage: true });
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

  it('a decision clears its line; keeping asks for the reason first', async () => {
    const page = await cashPage(1280, 860);
    const lines = page.getByTestId('unreconciled-line');
    await lines.first().getByRole('button', { name: 'На баланс клиента' }).click();
    await page.getByText('Деньги зачислены на баланс клиента').waitFor();
    await expect.poll(() => lines.count()).toBe(1);
    await lines.first().getByRole('button', { name: 'Оставить' }).click();
    const keep = lines.first().getByRole('button', { name: 'Оставить' });
    expect(await keep.isDisabled()).toBe(true);
    await lines.first().getByLabel('Почему оставить').fill('Чаевые повару');
    await keep.click();
    await page.getByTestId('unreconciled-money').waitFor({ state: 'detached' });
    const left = await admin.api<{ items: unknown[] }>('GET', '/payments/unreconciled');
    expect(left.items).toEqual([]);
    await page.context().close();
  });
});
