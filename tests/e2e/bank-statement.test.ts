/**
 * Касса's «Выписка банка» in the browser (Debian's Chromium against the real server and its built bundles):
 * a statement uploaded as a file records the transfer whose IPS reference and amount match, lists the line
 * that does not, and staff attach it to a booking by number. Screenshots: test-results/screenshots/bank-statement-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath, startAdminBrowser, type AdminBrowser } from '../helpers/browser';
import { axeProblems, signedInitData } from '../helpers/miniapp';
import { bookingReference } from '../../core/payments/ips-qr';

let admin: AdminBrowser;
const ids: number[] = [];

beforeAll(async () => {
  admin = await startAdminBrowser();
  await admin.api('PUT', '/business-settings/', { prepayment: 'none' });
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
  for (const [id, name] of [
    [7790001, 'Ана'],
    [7790002, 'Марко'],
  ] as const) {
    const tma = { authorization: `tma ${signedInitData({ id, first_name: name })}` };
    const { record } = await admin.api<{ record: { id: number } }>(
      'POST',
      '/records/',
      { schedule_id: s.id, name, people_count: 1, is_first_time: true, consent: true },
      tma,
    );
    ids.push(record.id);
  }
});
afterAll(() => admin?.close());

/** The sample export's format: a title line, the header, the lines (one a debit), in Windows-1250 as banks send it. */
const statementFile = () =>
  [
    'Izvod broj 231 za račun 160-0000000123456-78',
    'Datum;Naziv;Mesto;Svrha;Šifra;Duguje;Potražuje;Poziv na broj',
    `26.11.2026;Ana Petrović;Beograd;Master-klas;289;;3.500,00;${bookingReference(ids[0])}`,
    '26.11.2026;Dobavljač d.o.o.;Novi Sad;Namirnice;221;12.400,00;;',
    '27.11.2026;Marko Jovanović;Zemun;Uplata za radionicu;289;;3.500,00;',
  ].join('\r\n');

/** The Serbian Latin letters in Windows-1250, the rest ASCII. */
const CP1250: Record<string, number> = { č: 0xe8, ć: 0xe6, š: 0x9a, Š: 0x8a, ž: 0x9e, Ž: 0x8e, đ: 0xf0, Đ: 0xd0 };
const windows1250 = (text: string) => Buffer.from([...text].map((ch) => CP1250[ch] ?? ch.charCodeAt(0)));

describe('Касса: «Выписка банка»', () => {
  it('uploads a statement: the matched transfer is recorded, the other waits and is attached by number', async () => {
    const { page, close } = await admin.open('/cash', { width: 1280, height: 900 });
    const card = page.getByTestId('bank-statement');
    await card.getByRole('button', { name: 'Загрузить выписку' }).click();
    const dialog = page.getByRole('dialog', { name: 'Выписка банка' });
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Выбрать файл CSV' }).click();
    await (
      await chooser
    ).setFiles({ name: 'izvod-231.csv', mimeType: 'text/csv', buffer: windows1250(statementFile()) });
    await expect.poll(() => dialog.getByRole('textbox').first().inputValue()).toContain('Marko Jovanović');
    await dialog.getByRole('button', { name: 'Загрузить', exact: true }).click();
    await page.getByText('Строк с поступлениями: 2. Сверено: 1, ждут разбора: 1, загружены раньше: 0').waitFor();
    // The lines left to sort out wait on «Несверенные деньги», with the rest of the money to decide.
    const waiting = page.getByTestId('unreconciled-money');
    const line = waiting.getByTestId('bank-line');
    await expect.poll(() => line.count()).toBe(1);
    const text = (await line.innerText()).replace(/\s+/g, ' ');
    expect(text).toMatch(/27\.11\.2026 · Marko Jovanović/);
    expect(text).toMatch(/3 500 RSD/);
    expect(text).toMatch(/Uplata za radionicu/);
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshotPath('bank-statement-unmatched'), fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    // The first booking is paid by its transfer; the second by the line staff attach.
    const paid = await admin.api<{ money: { status: string } }>('GET', `/records/${ids[0]}/payments`);
    expect(paid.money.status).toBe('paid');
    await line.getByLabel('№ записи').fill(String(ids[1]));
    await line.getByRole('button', { name: 'Привязать' }).click();
    await page.getByText(`Перевод записан на запись №${ids[1]}`).waitFor();
    await page.getByTestId('bank-lines').waitFor({ state: 'detached' });
    const attached = await admin.api<{ money: { status: string }; payments: { method: string }[] }>(
      'GET',
      `/records/${ids[1]}/payments`,
    );
    expect(attached.money.status).toBe('paid');
    expect(attached.payments.map((p) => p.method)).toEqual(['bank_transfer']);
    await page.screenshot({ path: screenshotPath('bank-statement-done'), fullPage: true });
    await close();
  });
});
