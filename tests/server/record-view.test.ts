import { expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

// The booking page reads the same complete view whichever command returned it: its money, the ways
// to pay, the promo code, the calendar link and what the caller may do.

let t: TestApp;
let staff: { authorization: string };

useTestApp((parts) => ({ t, staff } = parts));

const get = (id: number, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers });

it('the view a booking, a mark of attendance and an accepted gift return is the one its page reads', async () => {
  const promo = await t.app.inject({
    method: 'POST',
    url: '/api/v1/promo-codes/',
    headers: staff,
    payload: { code: 'VIEW10', kind: 'percent', value: 10 },
  });
  expect(promo.statusCode, promo.body).toBe(201);
  // Check-in opens an hour before the start.
  const soon = new Date(Date.now() + 30 * 60_000).toISOString();
  const { schedule } = await createSession(t.app, staff, { price: 2000, date: soon });
  const anna = telegramUser('anna');
  const booked = await book(t.app, anna, bookingPayload(schedule.id, { promo_code: 'VIEW10' }));
  expect(booked.statusCode).toBe(201);
  const id: number = booked.json().record.id;

  const page = (await get(id, tma(anna))).json();
  expect(booked.json()).toEqual(page);
  expect(page.record.promo_code).toBe('VIEW10');
  expect(page.money).toMatchObject({ price: 1800 });
  expect(page.pay).toMatchObject({ ips_qr: false });
  expect(page.calendar_url).toMatch(new RegExp(`^/api/v1/records/${id}/calendar\\.ics\\?sig=`));
  expect(page.allowed.cancel.ok).toBe(true);

  // Staff marking attendance read the booking as staff read it on its own.
  const marked = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/records/${id}/attendance`,
    headers: staff,
    payload: { attendance: 'ATTENDED' },
  });
  expect(marked.statusCode).toBe(200);
  expect(marked.json()).toEqual((await get(id, staff)).json());
  expect(marked.json().money).toMatchObject({ price: 1800 });

  // A friend accepting a seat reads their new booking as its page shows it to them.
  const { schedule: other } = await createSession(t.app, staff, { price: 2000 });
  const giver = telegramUser();
  const given: number = (await book(t.app, giver, bookingPayload(other.id))).json().record.id;
  const link = await t.app.inject({ method: 'POST', url: `/api/v1/records/${given}/gift`, headers: tma(giver) });
  expect(link.statusCode, link.body).toBe(200);
  const token = /start=gift_([\w-]+)$/.exec(link.json().url)![1];
  const friend = telegramUser('friend');
  const accepted = await t.app.inject({
    method: 'POST',
    url: `/api/v1/gifts/${token}/accept`,
    headers: tma(friend),
    payload: { name: 'Мария', consent: true },
  });
  expect(accepted.statusCode).toBe(200);
  expect(accepted.json()).toEqual((await get(given, tma(friend))).json());
  expect(accepted.json().money).toMatchObject({ price: 2000 });
  expect(accepted.json().calendar_url).toMatch(/calendar\.ics\?sig=/);
});
