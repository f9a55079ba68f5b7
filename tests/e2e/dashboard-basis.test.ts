/**
 * Главная tells one story, end to end (Chromium against the real server, at 1280 and 390 px): three
 * bookings taken today for a session next week read as three new bookings beside today's revenue, not
 * «Записей 0»; each group of tiles says its basis; money owed both ways is shown; no sideways
 * scrolling on a phone; axe-core clean. Screenshots: test-results/screenshots/dashboard-basis-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath, sideways, startAdminBrowser, type AdminBrowser, type Viewport } from '../helpers/browser';
import { axeProblems } from '../helpers/miniapp';
import { tma } from '../helpers/telegram';

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

let admin: AdminBrowser;

beforeAll(async () => {
  admin = await startAdminBrowser({ env: { BUSINESS_TIMEZONE: 'Europe/Belgrade' } });
  await admin.api('PUT', '/business-settings/', { prepayment: 'none', refund_to: 'refund' });
  const pasta = await admin.api<{ id: number }>('POST', '/workshops/', {
    title: 'Паста',
    description: 'Домашняя',
    price: 2000,
  });
  const address = await admin.api<{ id: number }>('POST', '/address/', {
    title: 'Кнеза Милоша 1',
    map_link: 'https://m/1',
  });
  const session = await admin.api<{ id: number }>('POST', '/schedule/', {
    date: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    capacity: 10,
    workshop_id: pasta.id,
    address_id: address.id,
  });
  const ids: number[] = [];
  for (const [i, name] of ['Ольга', 'Марко', 'Ана'].entries()) {
    const booked = await admin.api<{ record: { id: number } }>(
      'POST',
      '/records/',
      { schedule_id: session.id, name, people_count: 1, has_allergy: false, is_first_time: true, consent: true },
      tma({ id: 7_400_001 + i, username: `guest${i}`, first_name: name }),
    );
    ids.push(booked.record.id);
  }
  // Two paid in cash today; one of them then cancelled: its 2 000 RSD is owed back.
  await admin.api('POST', `/records/${ids[0]}/payments`, { method: 'cash' });
  await admin.api('POST', `/records/${ids[1]}/payments`, { method: 'cash' });
  await admin.api('PUT', `/records/cancel/${ids[1]}`, { cancel_reason: 'Заболел' });
}, 120_000);

afterAll(() => admin?.close());

/** An admin page as the superuser, the browser on UTC (the studio's dates come from the server's zone). */
const open = (url: string, viewport: Viewport) => admin.open(url, viewport, { timezoneId: 'UTC' });

/** A tile's label, value and hint as one line. */
const tile = async (page: Page, group: string, label: string) =>
  (
    await page
      .getByRole('region', { name: group })
      .getByTestId('figure')
      .filter({ has: page.getByText(label, { exact: true }) })
      .innerText()
  )
    .split(/\n+/)
    .join(' · ')
    .replace(/\u00a0/g, ' ');

describe('Главная', () => {
  for (const [width, viewport] of Object.entries(WIDTHS))
    it(`says what each figure counts: bookings made today apart from sessions held, and money owed (${width})`, async () => {
      const { page, errors, close } = await open('/', viewport);
      await page.getByTestId('dashboard-stats').getByRole('region', { name: 'Сделано за период' }).waitFor();
      await page.getByTestId('dashboard-stats').getByText('7 дней', { exact: true }).click();
      // The session is next week: none held in the period, yet three bookings were made in it.
      expect(await tile(page, 'Занятия периода', 'Записей на занятия')).toBe('Записей на занятия · 0 · впервые: 0');
      expect(await tile(page, 'Сделано за период', 'Новых записей')).toBe('Новых записей · 3 · человек: 3');
      expect(await tile(page, 'Сделано за период', 'Выручка')).toBe('Выручка · 4 000 RSD · получено минус возвраты');
      expect(await tile(page, 'Долги', 'Студия должна вернуть')).toBe('Студия должна вернуть · 2 000 RSD · на сегодня');
      expect(await tile(page, 'Долги', 'Должны студии')).toBe('Должны студии · 0 RSD · за занятия периода');
      const text = await page.getByTestId('dashboard-stats').innerText();
      expect(text).toContain('Занятия, прошедшие за период, и записи на них');
      expect(text).toContain('Записи и деньги по дате, когда их сделали');
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      expect(await axeProblems(page)).toEqual([]);
      await page.waitForTimeout(300); // transitions settle
      await page.screenshot({ path: screenshotPath(`dashboard-basis-${width}`), fullPage: true });
      expect(errors).toEqual([]);
      await close();
    });
});
