/**
 * What staff see of fiscal receipts (Debian's Chromium against the real server and its built bundles, the
 * fiscal sender sending to a fake PFR on loopback): Настройки → Фискализация with the PFR's state and its
 * PIN, a booking's ledger with the PFR's receipt numbers, Касса with its «Чек» column and «Без чека», the
 * day's fiscal report (not agreeing while a receipt waits for the PIN, agreeing once it is issued), the
 * printable receipt (original, then a copy marked «ОВО НИЈЕ ФИСКАЛНИ РАЧУН», on 80 mm paper) and training
 * mode's banner, at 1280 and 390 px in the light theme, axe clean. Screenshots:
 * test-results/screenshots/fiscal-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { CashDesk, RecordLedger } from '../../contract/money';
import { createLpfr } from '../../core/fiscal/lpfr';
import { createFiscalSender, type FiscalSender } from '../../core/jobs/fiscal-sender';
import { screenshotPath, sideways, startAdminBrowser, type AdminBrowser } from '../helpers/browser';
import { startFakePfr, type FakePfr } from '../helpers/fake-pfr';
import { axeProblems, signedInitData } from '../helpers/miniapp';

const PIN = '2468';
const VIEWPORTS = [
  ['desktop', 1280, 860],
  ['phone', 390, 844],
] as const;

let admin: AdminBrowser;
let pfr: FakePfr;
let sender: FiscalSender;
/** The bookings: Анна paid cash, Борис by card (both receipts issued), Вера cash while the PFR wants its PIN. */
const booking: Record<'anna' | 'boris' | 'vera', { id: number; payment: number }> = {} as never;

async function book(scheduleId: number, telegramId: number, name: string, amount: number, method: string) {
  const tma = { authorization: `tma ${signedInitData({ id: telegramId, first_name: name })}` };
  const { record } = await admin.api<{ record: { id: number } }>(
    'POST',
    '/records/',
    { schedule_id: scheduleId, name, people_count: 1, is_first_time: true, consent: true },
    tma,
  );
  const ledger = await admin.api<RecordLedger>('POST', `/records/${record.id}/payments`, { amount, method });
  return { id: record.id, payment: ledger.payments[0].id };
}

const ledgerOf = (id: number) => admin.api<RecordLedger>('GET', `/records/${id}/payments`);

async function until(what: string, done: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  pfr = await startFakePfr({ pin: PIN });
  admin = await startAdminBrowser({ env: { DIST_DIR: process.env.DIST_DIR ?? 'dist' } });
  sender = createFiscalSender({
    database: admin.server.database,
    log: { info() {}, warn() {}, error() {}, debug() {} },
    portFor: (url) => createLpfr({ url, timeoutMs: 2_000 }),
    options: { pollMs: 100, baseDelayMs: 100, maxDelayMs: 500, pinCheckMs: 200 },
  });
  sender.start();
  await admin.api('PUT', '/business-settings/', { prepayment: 'none' });
  await admin.api('PUT', '/fiscal/settings', {
    fiscal_mode: 'lpfr',
    fiscal_pfr_url: pfr.url,
    fiscal_label_workshop: 'Ђ',
    fiscal_cashier: 'Ана Јовановић',
  });
  const w = await admin.api<{ id: number }>('POST', '/workshops/', { title: 'Хачапури по-аджарски', price: 4200 });
  const a = await admin.api<{ id: number }>('POST', '/address/', {
    title: 'Змај Јовина 12',
    map_link: 'https://maps.example/1',
  });
  const s = await admin.api<{ id: number }>('POST', '/schedule/', {
    date: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    capacity: 8,
    workshop_id: w.id,
    address_id: a.id,
  });
  booking.anna = await book(s.id, 7710001, 'Анна', 4200, 'cash');
  booking.boris = await book(s.id, 7710002, 'Борис', 2000, 'card');
  await until('two receipts issued', async () => pfr.invoices.length === 2);
  // The PFR locks: the next receipt waits for the PIN.
  pfr.pinRequired = true;
  booking.vera = await book(s.id, 7710003, 'Вера', 1500, 'cash');
  await until('the sender to meet the PIN', async () => {
    const st = await admin.api<{ health: { state: string } }>('GET', '/fiscal/status?probe=false');
    return st.health.state === 'pin_required';
  });
});
afterAll(async () => {
  await sender?.stop();
  await admin?.close();
  await pfr?.close();
});

async function open(url: string, width: number, height: number): Promise<Page> {
  const { page } = await admin.open(url, { width, height });
  await page.emulateMedia({ colorScheme: 'light' });
  return page;
}

/** No sideways scroll, a screenshot (of the viewport when a dialog is open over the page), axe clean. */
async function check(page: Page, name: string, opts: { dialog?: boolean } = {}) {
  expect(await sideways(page), `${name} scrolls sideways`).toBe(0);
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshotPath(`fiscal-${name}`), fullPage: !opts.dialog });
  expect(await axeProblems(page)).toEqual([]);
}

describe('Настройки → Фискализация', () => {
  for (const [name, width, height] of VIEWPORTS)
    it(`shows the mode, the PFR's state and labels, and asks for the PIN (${width} px)`, async () => {
      const page = await open('/settings?tab=fiscal', width, height);
      const state = page.getByTestId('fiscal-state');
      await state.getByText('PFR на связи', { exact: false }).waitFor();
      expect(await state.getByText('PFR ждёт PIN', { exact: true }).count()).toBe(1);
      expect((await state.getByTestId('fiscal-queue').innerText()).replace(/\s+/g, ' ')).toMatch(/Ожидают отправки: 1/);
      // The banner across the admin says it too.
      expect((await page.getByTestId('fiscal-trouble').innerText()).replace(/\s+/g, ' ')).toMatch(/PFR ждёт PIN/);
      expect(await page.getByLabel('L-PFR или V-PFR').isChecked()).toBe(true);
      expect(await page.getByLabel('Адрес PFR').inputValue()).toBe(pfr.url);
      // The labels are the PFR's, chosen, never typed.
      const workshopLabel = page.getByLabel('Мастер-классы').and(page.locator('input'));
      expect(await workshopLabel.inputValue()).toBe('Ђ — 20 % (ПДВ)');
      await page.getByRole('button', { name: 'Проверить связь' }).click();
      await page.getByTestId('pfr-probe').nth(1).waitFor();
      expect(await page.getByText('Закон о фискализации не решает однозначно', { exact: false }).count()).toBe(1);
      await check(page, `settings-${name}`);
      await page.context().close();
    });

  it('training shows its warning on the page and, once saved, across the admin', async () => {
    const page = await open('/settings?tab=fiscal', 1280, 860);
    await page.getByTestId('fiscal-state').waitFor();
    await page.getByRole('switch', { name: 'Учебный режим' }).check();
    await page.getByTestId('training-warning').waitFor();
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Настройки сохранены.').waitFor();
    await page.goto(`${admin.server.url}/schedule`);
    expect(await page.getByTestId('training-banner').innerText()).toBe('Учебный режим: чеки не имеют фискальной силы');
    await check(page, 'training-banner');
    await admin.api('PUT', '/fiscal/settings', { fiscal_training: false });
    await page.reload();
    await page.getByRole('heading', { name: 'Расписание' }).waitFor();
    expect(await page.getByTestId('training-banner').count()).toBe(0);
    await page.context().close();
  });
});

describe('receipts in the ledger and Касса, and the day’s report', () => {
  for (const [name, width, height] of VIEWPORTS)
    it(`Касса: each row's receipt, «Без чека», the report not agreeing while a receipt waits (${width} px)`, async () => {
      const page = await open('/cash', width, height);
      const list = page.getByTestId('cash-list');
      await list.getByTestId('receipt-cell').first().waitFor();
      const anna = (await ledgerOf(booking.anna.id)).payments[0].receipt!;
      expect(anna.state).toBe('issued');
      const annaCell = list.locator(`[data-receipt="${anna.id}"]`);
      expect((await annaCell.innerText()).replace(/\s+/g, ' ')).toContain(`Аванс Выдан ${anna.invoice_number}`);
      const vera = (await ledgerOf(booking.vera.id)).payments[0].receipt!;
      expect((await list.locator(`[data-receipt="${vera.id}"]`).innerText()).replace(/\s+/g, ' ')).toContain(
        'Аванс Ожидает',
      );

      const report = page.getByTestId('fiscal-report');
      await report.waitFor();
      expect(await report.getByTestId('fiscal-agrees').innerText()).toBe('Чеки и касса не сходятся');
      const cash = report.getByTestId('fiscal-totals').locator('[data-payment-type="Cash"]');
      expect((await cash.getByTestId('difference').innerText()).replace(/\s/g, ' ')).toBe('-1 500 RSD');
      expect(await cash.getByTestId('difference').evaluate((e) => getComputedStyle(e).color)).not.toBe('rgb(0, 0, 0)');
      expect(await report.getByTestId('fiscal-pending').locator(`[data-receipt="${vera.id}"]`).count()).toBe(1);
      await check(page, `cash-${name}`);

      await page.getByLabel('Без чека').check();
      await page.waitForFunction((id) => {
        const cells = [...document.querySelectorAll('[data-testid="cash-list"] [data-testid="receipt-cell"]')];
        return cells.length === 1 && cells[0].getAttribute('data-receipt') === String(id);
      }, vera.id);
      await check(page, `cash-missing-${name}`);
      await page.context().close();
    });

  for (const [name, width, height] of VIEWPORTS)
    it(`a booking's ledger shows the PFR's receipt number of each payment (${width} px)`, async () => {
      const page = await open('/cash', width, height);
      await page
        .getByTestId('cash-list')
        .getByRole('button', { name: `№${booking.anna.id}` })
        .click();
      const dialog = page.getByTestId('payment-dialog');
      await dialog.waitFor();
      const receipt = (await ledgerOf(booking.anna.id)).payments[0].receipt!;
      const link = dialog.getByRole('link', { name: receipt.invoice_number! });
      expect(await link.getAttribute('href')).toBe(`/receipts/${receipt.id}`);
      expect(await dialog.getByRole('columnheader', { name: 'Чек' }).count()).toBe(1);
      await link.scrollIntoViewIfNeeded();
      await check(page, `ledger-${name}`, { dialog: true });
      await page.context().close();
    });

  it('the owner enters the PIN: the waiting receipt is issued and the day agrees', async () => {
    const page = await open('/settings?tab=fiscal', 1280, 860);
    await page.getByLabel('PIN-код PFR').fill(PIN);
    await page.getByRole('button', { name: 'Ввести PIN' }).click();
    await page.getByText('PFR принял PIN').waitFor();
    await until(
      'Вера’s receipt',
      async () => (await ledgerOf(booking.vera.id)).payments[0].receipt?.state === 'issued',
    );
    const desk = await admin.api<CashDesk>('GET', '/payments/?receipt=missing');
    expect(desk.payments).toEqual([]);
    await page.goto(`${admin.server.url}/cash`);
    const report = page.getByTestId('fiscal-report');
    await report.getByText('Чеки и касса сходятся').waitFor();
    expect(await page.getByTestId('fiscal-trouble').count()).toBe(0);
    await check(page, 'report-agrees');
    await page.context().close();
  });
});

describe('the printable receipt', () => {
  for (const [name, width, height] of VIEWPORTS)
    it(`shows the PFR's journal, QR code and URL (${width} px)`, async () => {
      const receipt = (await ledgerOf(booking.boris.id)).payments[0].receipt!;
      const page = await open(`/receipts/${receipt.id}`, width, height);
      const journal = page.getByTestId('receipt-journal');
      await journal.waitFor();
      expect(await journal.innerText()).toContain('АВАНС ПРОДАЈА');
      expect(await journal.innerText()).toContain(receipt.invoice_number!);
      expect(
        await page.getByRole('img', { name: 'QR-код проверки чека' }).evaluate((i: HTMLImageElement) => i.naturalWidth),
      ).toBeGreaterThan(50);
      expect(await page.getByTestId('printable-receipt').innerText()).toMatch(/https?:\/\/\S+/);
      await check(page, `receipt-${name}`);
      await page.context().close();
    });

  it('prints the original once, then copies marked «ОВО НИЈЕ ФИСКАЛНИ РАЧУН», only the receipt on 80 mm paper', async () => {
    const receipt = (await ledgerOf(booking.anna.id)).payments[0].receipt!;
    const { page } = await admin.open(`/receipts/${receipt.id}`, { width: 1280, height: 860 });
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void (window as unknown as { printed: number }).printed++;
    });
    const printed = () => page.evaluate(() => (window as unknown as { printed: number }).printed);
    await page.getByTestId('receipt-journal').waitFor();
    expect(await page.getByTestId('print-kind').innerText()).toBe('Первая печать — оригинал чека');
    await page.getByRole('button', { name: 'Печать', exact: true }).click();
    await page.waitForFunction(() => (window as unknown as { printed: number }).printed === 1);
    expect(await page.getByTestId('printable-receipt').getAttribute('data-copy')).toBe('false');
    expect(await page.getByText('ОВО НИЈЕ ФИСКАЛНИ РАЧУН', { exact: true }).count()).toBe(0);

    await page.reload();
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void (window as unknown as { printed: number }).printed++;
    });
    await page.getByRole('button', { name: 'Печать копии' }).click();
    await page.waitForFunction(() => (window as unknown as { printed: number }).printed === 1);
    expect(await printed()).toBe(1);
    const sheet = page.getByTestId('printable-receipt');
    expect(await sheet.getAttribute('data-copy')).toBe('true');
    expect(await sheet.getByText('ОВО НИЈЕ ФИСКАЛНИ РАЧУН', { exact: true }).count()).toBe(2);
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll('style')].some((s) => s.textContent?.includes('size: 80mm')),
      ),
    ).toBe(true);

    // On paper only the receipt: the menu and the buttons are not printed. 80 mm ≈ 302 CSS px.
    await page.setViewportSize({ width: 302, height: 1100 });
    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    const visible = await page.evaluate(() => ({
      menu: getComputedStyle(document.querySelector('nav')!).visibility,
      button: getComputedStyle([...document.querySelectorAll('button')].find((b) => b.textContent === 'Печать копии')!)
        .visibility,
      receipt: getComputedStyle(document.querySelector('[data-testid="printable-receipt"]')!).visibility,
      wide: document.querySelector('[data-testid="receipt-journal"]')!.scrollWidth,
    }));
    expect(visible).toMatchObject({ menu: 'hidden', button: 'hidden', receipt: 'visible' });
    expect(visible.wide).toBeLessThanOrEqual(302);
    await page.screenshot({ path: screenshotPath('fiscal-receipt-print-80mm'), fullPage: true });
    await page.context().close();
  });

  it('a training receipt says it is one', async () => {
    await admin.api('PUT', '/fiscal/settings', { fiscal_training: true });
    const paid = await admin.api<RecordLedger>('POST', `/records/${booking.boris.id}/payments`, { method: 'cash' });
    const row = paid.payments.find((p) => p.amount === 2200)!;
    await until('the training receipt', async () =>
      (await ledgerOf(booking.boris.id)).payments.some((p) => p.id === row.id && p.receipt?.state === 'issued'),
    );
    const receipt = (await ledgerOf(booking.boris.id)).payments.find((p) => p.id === row.id)!.receipt!;
    expect(receipt.training).toBe(true);
    const page = await open(`/receipts/${receipt.id}`, 390, 844);
    await page.getByTestId('training-receipt').waitFor();
    expect(await page.getByTestId('printable-receipt').innerText()).toContain('Учебный чек — не имеет фискальной силы');
    expect(await page.getByTestId('training-banner').count()).toBe(1);
    await check(page, 'receipt-training-phone');
    await admin.api('PUT', '/fiscal/settings', { fiscal_training: false });
    await page.context().close();
  });
});
