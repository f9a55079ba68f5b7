/**
 * Касса's «Несверенные деньги» as the one place for money waiting on staff (Debian's Chromium against the
 * real server and its built bundles): a sweeper finding, a bank line nobody matched and a refund owed to
 * a customer who erased their data, at 1280 and 390 px, axe clean; «Выплачено» records the owed refund
 * once and the card goes when nothing is left, the statement upload staying. Screenshots:
 * test-results/screenshots/unreconciled-joined-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath, startAdminBrowser, type AdminBrowser } from '../helpers/browser';
import { axeProblems, signedInitData } from '../helpers/miniapp';
import { sweepUnreconciled } from '../../core/payments/reconcile';

let admin: AdminBrowser;

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
  // A finding: paid for two, then made one.
  const tma = { authorization: `tma ${signedInitData({ id: 7790101, first_name: 'Мария' })}` };
  const { record } = await admin.api<{ record: { id: number } }>(
    'POST',
    '/records/',
    { schedule_id: s.id, name: 'Мария', people_count: 2, is_first_time: true, consent: true },
    tma,
  );
  await admin.api('POST', `/records/${record.id}/payments`, { method: 'cash' });
  await admin.api('PUT', `/records/${record.id}`, { people_count: 1 }, tma);
  expect(await sweepUnreconciled(admin.server.database)).toBe(1);
  // A bank line that names no booking.
  await admin.api('POST', '/payments/bank-statement', {
    text: 'Datum;Naziv;Svrha;Potražuje;Poziv na broj\n27.11.2026;Marko Jovanović;Uplata za radionicu;2.000,00;',
  });
  // A customer with 1500 of studio credit erased at their request.
  await admin.api('POST', '/customers/7790102/credit', { amount: 1500, reason: 'Компенсация за перенос' });
  await admin.api('DELETE', '/customers/7790102/data');
});
afterAll(() => admin?.close());

async function cashPage(width: number, height: number): Promise<Page> {
  const { page } = await admin.open('/cash', { width, height });
  await page.getByTestId('unreconciled-money').getByTestId('owed-refund-line').waitFor();
  return page;
}

describe('Касса: «Несверенные деньги» holds every money decision', () => {
  for (const [name, width, height] of [
    ['desktop', 1280, 860],
    ['phone', 390, 844],
  ] as const)
    it(`shows the finding, the unmatched bank line and the owed refund in one card (${width} px)`, async () => {
      const page = await cashPage(width, height);
      const card = page.getByTestId('unreconciled-money');
      expect(await card.getByRole('heading', { name: 'Несверенные деньги' }).count()).toBe(1);
      expect(await card.getByText('3 · решите, куда их отнести').count()).toBe(1);
      expect((await card.getByTestId('unreconciled-line').innerText()).replace(/\s+/g, ' ')).toMatch(
        /Оплачено больше цены.*3 500 RSD/,
      );
      expect((await card.getByTestId('bank-line').innerText()).replace(/\s+/g, ' ')).toMatch(
        /27\.11\.2026 · Marko Jovanović.*2 000 RSD/,
      );
      const owed = (await card.getByTestId('owed-refund-line').innerText()).replace(/\s+/g, ' ');
      expect(owed).toMatch(/Возврат после удаления данных/);
      expect(owed).toMatch(/1 500 RSD/);
      expect(owed).not.toMatch(/7790102/);
      // The upload stays in its own card.
      expect(await page.getByRole('button', { name: 'Загрузить выписку' }).count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.waitForTimeout(300);
      await page.screenshot({ path: screenshotPath(`unreconciled-joined-${name}`), fullPage: true });
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

  it('«Выплачено» asks how, records it once, and the card goes when nothing is left', async () => {
    const page = await cashPage(1280, 860);
    const card = page.getByTestId('unreconciled-money');
    const line = card.getByTestId('owed-refund-line');
    const paidOut = line.getByRole('button', { name: 'Выплачено' });
    expect(await paidOut.isDisabled()).toBe(true);
    await line.getByLabel('Как выплачено').click();
    await page.getByRole('option', { name: 'Наличными' }).click();
    await paidOut.click();
    await page.getByText('Выплата записана в кассу').waitFor();
    await line.waitFor({ state: 'detached' });
    const desk = await admin.api<{ payments: { amount: number; method: string; kind: string }[] }>('GET', '/payments/');
    expect(desk.payments.filter((p) => p.amount === -1500 && p.method === 'cash' && p.kind === 'refund')).toHaveLength(
      1,
    );
    // The rest decided, the card goes; the upload stays.
    const { items } = await admin.api<{ items: { id: number }[] }>('GET', '/payments/unreconciled');
    for (const f of items)
      await admin.api('POST', `/payments/unreconciled/${f.id}/decision`, { decision: 'keep', reason: 'Проверено' });
    const lines = await admin.api<{ data: { id: number }[] }>('GET', '/payments/bank-lines?status=unmatched');
    for (const l of lines.data)
      await admin.api('POST', `/payments/bank-lines/${l.id}/dismiss`, { reason: 'Не оплата записи' });
    await page.reload();
    await page.getByRole('button', { name: 'Загрузить выписку' }).waitFor();
    expect(await page.getByTestId('unreconciled-money').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('unreconciled-joined-done'), fullPage: true });
    await page.context().close();
  });
});
