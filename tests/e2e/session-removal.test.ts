/**
 * Deleting vs cancelling a session with paid bookings, end to end (Chromium against the real server, its built
 * bundles and the fake Bot API), at 1280 and 390 px: «Удалить» of a session with bookings offers the cancel, naming
 * the bookings, what they paid and where each part goes (studio balances, gift certificates, owed back); the cancel
 * goes through, its Telegram customers are told where their money went, Касса names the workshop of every row (and
 * the API the customer); a past session with bookings says up front that it stays in История, instead of a
 * question the server refuses. axe-core clean, no sideways scrolling. Screenshots:
 * test-results/screenshots/session-removal-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath, sideways, startAdminBrowser, type AdminBrowser } from '../helpers/browser';
import { plain, startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { axeProblems } from '../helpers/miniapp';
import { tma } from '../helpers/telegram';

const WIDTHS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };
const PRICE = 3500;

let fake: FakeTelegram;
let admin: AdminBrowser;
let workshopId = 0;
let addressId = 0;
let nextCustomer = 7_950_001;
/** Per width: the session to cancel and its Telegram customers; the past session shared. */
const sessions: Record<string, { id: number; maria: number; vera: number }> = {};
let pastId = 0;

const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const session = async (date: string) =>
  (
    await admin.api<{ id: number }>('POST', '/schedule/', {
      date,
      capacity: 8,
      workshop_id: workshopId,
      address_id: addressId,
    })
  ).id;
/** A booking from the mini-app by a new Telegram customer; its id and the customer's. */
async function telegramBooking(scheduleId: number, name: string, lastName: string, extra: object = {}) {
  const user = { id: nextCustomer++, first_name: name };
  const { record } = await admin.api<{ record: { id: number } }>(
    'POST',
    '/records/',
    {
      schedule_id: scheduleId,
      name,
      last_name: lastName,
      people_count: 1,
      is_first_time: true,
      consent: true,
      ...extra,
    },
    tma(user),
  );
  return { id: record.id, telegramId: user.id };
}
const pay = (recordId: number, method: 'cash' | 'card', amount?: number) =>
  admin.api('POST', `/records/${recordId}/payments`, { method, amount });

/**
 * A session's three paid bookings: Мария paid cash (back to her studio balance), Вера paid 2 000 with a gift
 * certificate and the rest cash (the certificate's part back to it, the rest to her balance), Иван booked by phone
 * and paid by card (no Telegram, no balance: owed back).
 */
async function paidSession(date: string) {
  const id = await session(date);
  const maria = await telegramBooking(id, 'Мария', 'Ковач');
  await pay(maria.id, 'cash');
  const gift = await admin.api<{ code: string }>('POST', '/certificates/', {
    amount: 2000,
    method: 'cash',
    buyer_name: 'Ольга',
    recipient_name: 'Вера',
  });
  const vera = await telegramBooking(id, 'Вера', 'Йованович', { certificate_code: gift.code });
  await pay(vera.id, 'cash');
  const ivan = await admin.api<{ record: { id: number } }>('POST', '/records/', {
    schedule_id: id,
    name: 'Иван',
    last_name: 'Петров',
    people_count: 1,
    is_first_time: false,
    comment: 'Телефон: +381 64 1234567',
  });
  await pay(ivan.record.id, 'card');
  return { id, maria: maria.telegramId, vera: vera.telegramId };
}

beforeAll(async () => {
  fake = await startFakeTelegram();
  admin = await startAdminBrowser({ env: fake.env });
  await admin.api('PUT', '/business-settings/', { prepayment: 'none', refund_to: 'credit' });
  workshopId = (await admin.api<{ id: number }>('POST', '/workshops/', { title: 'Хинкали', price: PRICE })).id;
  addressId = (
    await admin.api<{ id: number }>('POST', '/address/', { title: 'Змај Јовина 12', map_link: 'https://m.example/1' })
  ).id;
  sessions.desktop = await paidSession(at(3));
  sessions.phone = await paidSession(at(4));
  // Held yesterday: booked and paid while it was ahead, then its date moved to the past.
  pastId = await session(at(2));
  await pay((await telegramBooking(pastId, 'Олег', 'Симић')).id, 'cash');
  await admin.api('PUT', `/schedule/${pastId}`, { date: at(-1) });
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await fake?.close();
});

const text = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).innerText()).replace(/\s+/g, ' ').trim();
const moneyRows = async (page: Page) =>
  (await page.getByTestId('money-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300); // the dialog's transition settles
  await page.screenshot({ path: screenshotPath(`session-removal-${name}`), fullPage: true });
}

/** The cancel dialog shows the count and where the money goes; the same at either width. */
async function expectCancelDialog(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Отменить мастер-класс?' });
  await dialog.getByTestId('cancel-money').waitFor();
  expect(await text(page, 'cancel-bookings')).toBe(
    'Все записи (3) будут отменены. Клиенты получат в Telegram сообщение с причиной, другими датами и тем, куда пойдут их деньги. Клиентам без Telegram (1) сообщите об отмене сами.',
  );
  expect(await moneyRows(page)).toEqual([
    'Оплачено по этим записям 10 500 RSD',
    'на баланс клиентов в студии 5 000 RSD',
    'обратно на подарочные сертификаты 2 000 RSD',
    'к возврату клиентам 3 500 RSD',
  ]);
  return dialog;
}

describe('a session with paid bookings', () => {
  for (const [width, viewport] of Object.entries(WIDTHS))
    it(`«Удалить» offers the cancel with the money; the cancel tells the customers; Касса names every row (${width})`, async () => {
      const { id, maria, vera } = sessions[width];
      const { page, errors, close } = await admin.open('/schedule', viewport);
      const card = page.locator(`[data-schedule-id="${id}"]`);
      await card.waitFor();

      // «Удалить»: not the plain question but the cancel, saying why.
      await card.getByRole('button', { name: 'Удалить' }).click();
      let dialog = await expectCancelDialog(page);
      expect(await text(page, 'not-deleted')).toBe(
        'Мастер-класс с записями или оплатами не удаляют, а отменяют: он останется в Истории как отменённый.',
      );
      expect(await page.getByText(DELETE_QUESTION).count()).toBe(0);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await shot(page, `${width}-delete`);
      expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
      await dialog.getByRole('button', { name: 'Назад' }).click();
      await dialog.waitFor({ state: 'detached' });

      // «Отменить мастер-класс» on the card: the same figures, then the cancel goes through.
      await card.getByRole('button', { name: 'Отменить мастер-класс' }).click();
      dialog = await expectCancelDialog(page);
      expect(await dialog.getByTestId('not-deleted').count()).toBe(0);
      await dialog.getByRole('button', { name: 'Отменить мастер-класс' }).click();
      await dialog.getByText('Укажите причину отмены').waitFor();
      await dialog.getByLabel('Причина (её увидят клиенты)').fill('Шеф заболел');
      await shot(page, `${width}-cancel`);
      const done = page.waitForResponse((r) => r.url().endsWith(`/schedule/${id}/cancel`) && r.ok());
      await dialog.getByRole('button', { name: 'Отменить мастер-класс' }).click();
      await done;
      await page.getByText('Мастер-класс отменён', { exact: true }).first().waitFor();
      await card.waitFor({ state: 'detached' });

      // Each Telegram customer is told the reason and where their money went.
      await admin.server.telegram!.outbox.drain();
      const told = (chat: number) =>
        plain(fake.messages(chat).at(-1)?.params.text as string | undefined).replace(/\s+/g, ' ');
      expect(told(maria)).toContain('Шеф заболел');
      expect(told(maria)).toContain('Оплаченные 3 500 RSD зачислены на ваш баланс в студии');
      expect(told(vera)).toContain('Оплаченные 1 500 RSD зачислены на ваш баланс в студии');

      // Касса: every row of the session's money keeps its customer, workshop and date.
      await page.goto(`${admin.server.url}/cash`);
      const list = page.getByTestId('cash-list');
      await list.locator('tbody tr').first().waitFor();
      const rows = await list.locator('tbody tr').all();
      let booked = 0;
      const named = new Set<string>();
      for (const row of rows) {
        const booking = (await row.locator('td[data-label="Запись, клиент"]').innerText()).trim();
        if (booking === '—') continue; // a certificate's sale: no booking
        booked++;
        named.add(booking.split('\n').slice(1).join(' ').trim());
        const workshop = (await row.locator('td[data-label="Мастер-класс"]').innerText()).replace(/\s+/g, ' ');
        expect(workshop).toMatch(/^Хинкали \d{1,2} [а-я]+ \d{4} \d{1,2}:\d\d$/);
      }
      expect(booked).toBeGreaterThanOrEqual(6);
      expect(named).toEqual(new Set(['Мария Ковач', 'Вера Йованович', 'Иван Петров', 'Олег Симић']));
      const desk = await admin.api<{
        payments: { record_id: number | null; customer_name: string | null; workshop_title: string | null }[];
      }>('GET', '/payments/?limit=100');
      const bookingRows = desk.payments.filter((p) => p.record_id !== null);
      expect(bookingRows.filter((p) => !p.customer_name || p.workshop_title !== 'Хинкали')).toEqual([]);
      expect(new Set(bookingRows.map((p) => p.customer_name))).toEqual(
        new Set(['Мария Ковач', 'Вера Йованович', 'Иван Петров', 'Олег Симић']),
      );
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await shot(page, `${width}-cash`);
      expect(await axeProblems(page)).toEqual([]);
      expect(errors).toEqual([]);
      await close();
    });

  for (const [width, viewport] of Object.entries(WIDTHS))
    it(`a past one says up front that it stays in История, no dead end (${width})`, async () => {
      const { page, errors, close } = await admin.open('/past', viewport);
      const card = page.locator(`[data-schedule-id="${pastId}"]`);
      await card.waitFor();
      await card.getByRole('button', { name: 'Удалить' }).click();
      const dialog = page.getByRole('dialog', { name: 'Удаление' });
      const kept = dialog.getByTestId('session-kept');
      await kept.waitFor();
      const said = (await kept.innerText()).replace(/\s+/g, ' ');
      expect(said).toContain(
        'На этом занятии есть записи (1) или деньги по ним: удалить его нельзя. Оно остаётся в Истории вместе с записями и оплатами; вернуть деньги клиенту можно в меню его записи: «Оплата и цена».',
      );
      expect(said).toContain('Записей: 1, оплачено по ним: 3 500 RSD.');
      expect(await dialog.getByRole('button', { name: 'Удалить' }).count()).toBe(0);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await shot(page, `${width}-past`);
      expect(await axeProblems(page, '[role="dialog"]')).toEqual([]);
      await dialog.getByRole('button', { name: 'Понятно' }).click();
      await dialog.waitFor({ state: 'detached' });
      await card.waitFor();
      expect(errors).toEqual([]);
      await close();
    });
});

const DELETE_QUESTION = 'Вы действительно хотите удалить?';
