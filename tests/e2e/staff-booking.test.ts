/**
 * What staff do with a booking in the admin (Debian's Chromium against the real server and its built bundles):
 * a booking for a customer who phones in, from the session's card, at 1280 and 390 px; a party change from
 * the booking's row; the owner's studio credit adjustment and its absence for a manager; the staff view of a
 * booking a click on its name opens. axe-core on each; screenshots: test-results/screenshots/staff-booking-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath, startAdminBrowser, type AdminBrowser } from '../helpers/browser';
import { axeProblems, signedInitData } from '../helpers/miniapp';

let admin: AdminBrowser;
let owner: { authorization: string };
let manager: { authorization: string };
let scheduleId = 0;
let mariaId = 0;
const MARIA = { id: 7790001, first_name: 'Мария' };

beforeAll(async () => {
  admin = await startAdminBrowser();
  owner = admin.staff;
  await admin.api('PUT', '/business-settings/', { prepayment: 'none' });
  await admin.api('POST', '/users/', {
    email: 'manager@example.com',
    full_name: 'Ольга Менеджер',
    password: 'manager-password-1',
    role: 'manager',
    is_active: true,
  });
  manager = await admin.server.auth('manager@example.com', 'manager-password-1');
  const w = await admin.api<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: 3500 });
  const a = await admin.api<{ id: number }>('POST', '/address/', {
    title: 'Змај Јовина 12',
    map_link: 'https://m.example/1',
  });
  const date = new Date(Date.now() + 3 * 86_400_000).toISOString();
  scheduleId = (
    await admin.api<{ id: number }>('POST', '/schedule/', { date, capacity: 10, workshop_id: w.id, address_id: a.id })
  ).id;
  const booked = await admin.api<{ record: { id: number } }>(
    'POST',
    '/records/',
    { schedule_id: scheduleId, name: 'Мария', people_count: 2, is_first_time: true, consent: true },
    { authorization: `tma ${signedInitData(MARIA)}` },
  );
  mariaId = booked.record.id;
}, 120_000);
afterAll(() => admin?.close());

async function schedulePage(as: { authorization: string }, width: number, height: number): Promise<Page> {
  const { page } = await admin.open('/schedule', { width, height }, { as });
  await page.getByTestId('schedule-card').first().waitFor();
  return page;
}

const shot = async (page: Page, name: string) => {
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshotPath(`staff-booking-${name}`), fullPage: true });
};

type Booking = { id: number; name: string; people_count: number; comment: string | null; telegram_id: number | null };
const bookings = async () =>
  (await admin.api<{ records: Booking[] }>('GET', `/schedule/${scheduleId}`)).records.filter((r) => r.name !== 'Мария');

describe('staff booking for a customer who phones in', () => {
  for (const [name, width, height] of [
    ['desktop', 1280, 860],
    ['phone', 390, 844],
  ] as const)
    it(`books from the session's card with a phone number (${width} px)`, async () => {
      const page = await schedulePage(owner, width, height);
      const card = page.getByTestId('schedule-card').first();
      await card.getByRole('button', { name: 'Записать клиента' }).click();
      const dialog = page.getByRole('dialog', { name: 'Записать клиента' });
      await dialog.getByRole('textbox', { name: 'Имя' }).fill(`Иван ${width}`);
      await dialog.getByRole('textbox', { name: 'Телефон' }).fill('+381 64 1234567');
      await dialog.getByRole('textbox', { name: 'Количество человек' }).fill('2');
      await dialog.getByLabel('Комментарий').fill('Позвонил в студию');
      // A phone customer has no studio credit to spend.
      expect(await dialog.getByLabel('Клиент согласился оплатить с баланса в студии').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `${name}-dialog`);
      expect(await axeProblems(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      const toast = page.getByText(`Иван ${width} записан(а)`, { exact: false });
      await toast.waitFor();
      expect((await toast.innerText()).replace(/\s/g, ' ')).toBe(`Иван ${width} записан(а), 2 чел., цена 7 000 RSD`);
      await dialog.waitFor({ state: 'detached' });
      await card.getByText(`Иван ${width}`).first().waitFor();
      const made = (await bookings()).find((b) => b.name === `Иван ${width}`)!;
      expect(made).toMatchObject({
        people_count: 2,
        telegram_id: null,
        comment: 'Телефон: +381 64 1234567\nПозвонил в студию',
      });
      await shot(page, `${name}-booked`);
      await page.context().close();
    });
});

describe("a booking's row", () => {
  it('changes the party from the row menu (the customer’s command: the price follows)', async () => {
    const page = await schedulePage(owner, 1280, 860);
    await page.getByRole('button', { name: 'Действия с записью: Мария' }).click();
    await page.getByRole('menuitem', { name: 'Изменить количество' }).click();
    const dialog = page.getByRole('dialog', { name: 'Количество человек: Мария' });
    await dialog.getByRole('textbox', { name: 'Количество человек' }).fill('3');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    const toast = page.getByText('Мария: 3 чел.', { exact: false });
    await toast.waitFor();
    expect((await toast.innerText()).replace(/\s/g, ' ')).toBe('Мария: 3 чел., цена 10 500 RSD');
    const view = await admin.api<{ record: { people_count: number } }>('GET', `/records/${mariaId}`);
    expect(view.record.people_count).toBe(3);
    await page.context().close();
  });

  for (const [name, width, height] of [
    ['desktop', 1280, 860],
    ['phone', 390, 844],
  ] as const)
    it(`the owner adjusts the customer's studio credit with a reason (${width} px)`, async () => {
      const page = await schedulePage(owner, width, height);
      await page.getByRole('button', { name: 'Действия с записью: Мария' }).click();
      await page.getByRole('menuitem', { name: 'Баланс клиента в студии' }).click();
      const dialog = page.getByRole('dialog', { name: 'Баланс в студии: Мария' });
      await dialog.getByRole('textbox', { name: /Сумма/ }).fill('500');
      await dialog.getByRole('textbox', { name: /Причина/ }).fill('Извинение за задержку');
      await shot(page, `${name}-credit`);
      expect(await axeProblems(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      await page.getByText(`Баланс клиента в студии: ${width === 1280 ? '500' : '1 000'} RSD`).waitFor();
      await page.context().close();
    });

  it('a manager is not offered the credit adjustment', async () => {
    const page = await schedulePage(manager, 1280, 860);
    await page.getByRole('button', { name: 'Действия с записью: Мария' }).click();
    await page.getByRole('menuitem', { name: 'Изменить количество' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Баланс клиента в студии' }).count()).toBe(0);
    await page.context().close();
  });

  for (const [name, width, height] of [
    ['desktop', 1280, 860],
    ['phone', 390, 844],
  ] as const)
    it(`a click on the name opens the staff view of the booking, not the customer's page (${width} px)`, async () => {
      const page = await schedulePage(owner, width, height);
      await page.getByRole('button', { name: 'Мария', exact: true }).click();
      const drawer = page.getByRole('dialog', { name: `Запись №${mariaId}: Мария` });
      const view = drawer.getByTestId('booking-view');
      await view.waitFor();
      expect(page.url()).toBe(`${admin.server.url}/schedule`);
      await view.getByText('Хинкали', { exact: false }).first().waitFor();
      await view.getByTestId('booking-money').getByText('10 500 RSD').first().waitFor();
      // Its history names the party change made above.
      await view.getByText('История').waitFor();
      expect(await view.getByRole('button', { name: 'Оплата и цена' }).count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `${name}-view`);
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });
});
