/**
 * Касса's «Несверенные деньги» as the one place for money waiting on staff (Debian's Chromium against the
 * real server and its built bundles): a sweeper finding, a bank line nobody matched and a refund owed to
 * a customer who erased their data, at 1280 and 390 px, axe clean; «Выплачено» records the owed refund
 * once and the card goes when nothing is left, the statement upload staying. Screenshots:
 * test-results/screenshots/unreconciled-joined-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { axeProblems, signedInitData } from '../helpers/miniapp';
import { sweepUnreconciled } from '../../core/payments/reconcile';

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let staff: Record<string, string>;
let token = '';

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

beforeAll(async () => {
  server = await startTestServer();
  const login = await fetch(`${server.url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin@example.com', password: 'superuser-password-1' }),
  });
  token = ((await login.json()) as { access_token: string }).access_token;
  staff = { authorization: `Bearer ${token}` };
  await call('PUT', '/business-settings/', { prepayment: 'none', refund_to: 'refund' });
  const w = await call<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: 3500 });
  const a = await call<{ id: number }>('POST', '/address/', {
    title: 'Змај Јовина 12',
    map_link: 'https://maps.example/1',
  });
  const date = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const s = await call<{ id: number }>('POST', '/schedule/', {
    date,
    capacity: 8,
    workshop_id: w.id,
    address_id: a.id,
  });
  // A finding: paid for two, then made one.
  const tma = { authorization: `tma ${signedInitData({ id: 7790101, first_name: 'Мария' })}` };
  const { record } = await call<{ record: { id: number } }>(
    'POST',
    '/records/',
    { schedule_id: s.id, name: 'Мария', people_count: 2, is_first_time: true, consent: true },
    tma,
  );
  await call('POST', `/records/${record.id}/payments`, { method: 'cash' });
  await call('PUT', `/records/${record.id}`, { people_count: 1 }, tma);
  expect(await sweepUnreconciled(server.database)).toBe(1);
  // A bank line that names no booking.
  await call('POST', '/payments/bank-statement', {
    text: 'Datum;Naziv;Svrha;Potražuje;Poziv na broj\n27.11.2026;Marko Jovanović;Uplata za radionicu;2.000,00;',
  });
  // A customer with 1500 of studio credit erased at their request.
  await call('POST', '/customers/7790102/credit', { amount: 1500, reason: 'Компенсация за перенос' });
  await call('DELETE', '/customers/7790102/data');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function cashPage(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height },
    locale: 'ru-RU',
    timezoneId: 'Europe/Belgrade',
    bypassCSP: true,
  });
  await context.addInitScript((t) => localStorage.setItem('access_token', t), token);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${server.url}/cash`);
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
    const desk = await call<{ payments: { amount: number; method: string; kind: string }[] }>('GET', '/payments/');
    expect(desk.payments.filter((p) => p.amount === -1500 && p.method === 'cash' && p.kind === 'refund')).toHaveLength(
      1,
    );
    // The rest decided, the card goes; the upload stays.
    const { items } = await call<{ items: { id: number }[] }>('GET', '/payments/unreconciled');
    for (const f of items)
      await call('POST', `/payments/unreconciled/${f.id}/decision`, { decision: 'keep', reason: 'Проверено' });
    const lines = await call<{ data: { id: number }[] }>('GET', '/payments/bank-lines?status=unmatched');
    for (const l of lines.data)
      await call('POST', `/payments/bank-lines/${l.id}/dismiss`, { reason: 'Не оплата записи' });
    await page.reload();
    await page.getByRole('button', { name: 'Загрузить выписку' }).waitFor();
    expect(await page.getByTestId('unreconciled-money').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('unreconciled-joined-done'), fullPage: true });
    await page.context().close();
  });
});
