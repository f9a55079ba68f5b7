import { describe, expect, it } from 'vitest';
import { seedStudioWeek } from '../../core/demo/studio-week';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';

// `npm run db:seed-demo` gives a newcomer a studio week to look at: the admin's Главная, Касса and Журнал are not
// empty, a session is full with someone waiting, a promo code and a gift certificate have been used.

let app: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t: app, staff } = parts));
const t = () => app;

describe('the demo studio week', () => {
  it('fills Касса, Журнал and the dashboard through the ordinary commands, once', async () => {
    const result = await seedStudioWeek(t().database);
    expect(result).toEqual({ seeded: true, sessions: 7, bookings: 8 });
    expect(await seedStudioWeek(t().database)).toEqual({ seeded: false, sessions: 0 });

    const get = async (url: string) => {
      const res = await t().app.inject({ url: `/api/v1${url}`, headers: staff });
      expect(res.statusCode, url).toBe(200);
      return res.json();
    };
    // Касса: money in cash, by card, by transfer and from a gift certificate, each row with its customer.
    const desk = await get('/payments/');
    expect(desk.totals).toMatchObject({ cash: 7000, card: 6000, bank_transfer: 12600, certificate: 3500 });
    expect(desk.certificates).toMatchObject({ sold: 5000, redeemed: 3500 });
    const bookingRows = desk.payments.filter((p: { record_id: number | null }) => p.record_id !== null);
    expect(bookingRows).toHaveLength(4);
    expect(bookingRows.every((p: { customer_name: string | null }) => p.customer_name)).toBe(true);
    // Журнал: who booked what.
    const audit = await get('/audit/');
    expect(audit.data.length).toBeGreaterThan(8);
    expect(audit.data.some((e: { subject: string }) => e.subject.startsWith('Ана Петровић · '))).toBe(true);
    // Главная: bookings made, revenue, and a full session with two people waiting.
    const stats = await get('/stats/');
    expect(stats).toMatchObject({ bookings_made: 8, revenue: 25600 });
    expect(stats.next_days).toContainEqual(expect.objectContaining({ capacity: 8, taken: 8, queued: 2 }));
    const rows = await t()
      .database.db.selectFrom('records')
      .select(['state', 'promo_code_id', 'certificate_id'])
      .execute();
    expect(rows.filter((r) => r.state === 'QUEUED')).toHaveLength(1);
    expect(rows.filter((r) => r.promo_code_id !== null)).toHaveLength(1);
    expect(rows.filter((r) => r.certificate_id !== null)).toHaveLength(1);
  });
});
