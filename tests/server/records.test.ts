import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, inDays, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const get = (id: number, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers });

describe('booking from the mini-app', () => {
  it('books a free seat as ACTIVE, with identity from the init data and not the body', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 8 });
    const anna = telegramUser('anna');
    const res = await book(
      t.app,
      anna,
      bookingPayload(schedule.id, { people_count: 3, telegram_id: 42, telegram_login: 'mallory' }),
    );
    expect(res.statusCode).toBe(201);
    const view = res.json();
    expect(view.record).toMatchObject({
      state: 'ACTIVE',
      people_count: 3,
      telegram_id: anna.id,
      telegram_login: 'anna',
      is_cancelled: false,
    });
    expect(view.record.schedule).toMatchObject({
      id: schedule.id,
      workshop: { title: 'Паста' },
      address: { map_link: 'https://maps.example/1' },
    });
    expect(view.places_available).toBe(5);
    expect(view.queue_position).toBeNull();
  });

  it('queues a booking that does not fit and reports its place in the queue', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 2 });
    expect(
      (await book(t.app, telegramUser(), bookingPayload(schedule.id, { people_count: 2 }))).json().record.state,
    ).toBe('ACTIVE');
    const second = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json();
    const third = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json();
    expect(second).toMatchObject({ record: { state: 'QUEUED' }, queue_position: 1, places_available: 0 });
    expect(third).toMatchObject({ record: { state: 'QUEUED' }, queue_position: 2 });
  });

  it('refuses a second open booking by the same Telegram user for one session (409)', async () => {
    const { schedule } = await createSession(t.app, staff);
    const u = telegramUser();
    expect((await book(t.app, u, bookingPayload(schedule.id))).statusCode).toBe(201);
    const again = await book(t.app, u, bookingPayload(schedule.id));
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Вы уже записаны на этот мастер-класс');
  });

  it('refuses a past session and an unknown one', async () => {
    const { schedule } = await createSession(t.app, staff, { date: inDays(-1) });
    const past = await book(t.app, telegramUser(), bookingPayload(schedule.id));
    expect(past.statusCode).toBe(409);
    expect(past.json().detail).toMatch(/прошедший/);
    const gone = await book(t.app, telegramUser(), bookingPayload(999_999));
    expect(gone.statusCode).toBe(404);
  });

  it('rejects forged, stale and missing init data', async () => {
    const { schedule } = await createSession(t.app, staff);
    const payload = bookingPayload(schedule.id);
    const anon = await t.app.inject({ method: 'POST', url: '/api/v1/records/', payload });
    expect(anon.statusCode).toBe(401);
    const stale = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      payload,
      headers: tma(telegramUser(), Math.floor(Date.now() / 1000) - 25 * 3600),
    });
    expect(stale.statusCode).toBe(401);
    const good = tma(telegramUser()).authorization;
    const forged = good.replace(
      /user=[^&]+/,
      `user=${encodeURIComponent(JSON.stringify({ id: 1, username: 'evil' }))}`,
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      payload,
      headers: { authorization: forged },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toMatch(/Telegram/);
  });
});

describe('the booking page', () => {
  it('is readable by its owner and staff only', async () => {
    const { schedule } = await createSession(t.app, staff);
    const owner = telegramUser();
    const id = (await book(t.app, owner, bookingPayload(schedule.id))).json().record.id;
    expect((await get(id, tma(owner))).statusCode).toBe(200);
    expect((await get(id, staff)).statusCode).toBe(200);
    // Another customer cannot tell someone else's booking from a missing one.
    const other = await get(id, tma(telegramUser()));
    expect(other.statusCode).toBe(404);
    expect((await get(id, {})).statusCode).toBe(401);
  });

  it('changes the people count, queueing an increase that does not fit and promoting the queue when seats free up', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 4 });
    const a = telegramUser();
    const b = telegramUser();
    const ra = (await book(t.app, a, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
    const rb = (await book(t.app, b, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
    const grow = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/${ra}`,
      headers: tma(a),
      payload: { people_count: 3 },
    });
    expect(grow.json()).toMatchObject({
      record: { state: 'QUEUED', people_count: 3 },
      queue_position: 1,
      places_available: 2,
    });
    const shrinkB = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/${rb}`,
      headers: tma(b),
      payload: { people_count: 1 },
    });
    expect(shrinkB.json().record.state).toBe('ACTIVE');
    // 3 seats free after B shrank: A (3 people) is promoted.
    expect((await get(ra, tma(a))).json()).toMatchObject({
      record: { state: 'ACTIVE', people_count: 3 },
      places_available: 0,
    });
  });

  it('cancels with a reason, promotes the queue, and restores to the queue when full', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 1 });
    const a = telegramUser();
    const b = telegramUser();
    const ra = (await book(t.app, a, bookingPayload(schedule.id))).json().record.id;
    const rb = (await book(t.app, b, bookingPayload(schedule.id))).json().record.id;
    const empty = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ra}`,
      headers: tma(a),
      payload: { cancel_reason: '   ' },
    });
    expect(empty.statusCode).toBe(422);
    const cancel = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ra}`,
      headers: tma(a),
      payload: { cancel_reason: 'Заболела' },
    });
    expect(cancel.json().record).toMatchObject({ state: 'CANCELLED', is_cancelled: true, cancel_reason: 'Заболела' });
    expect((await get(rb, tma(b))).json().record.state).toBe('ACTIVE');
    const again = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ra}`,
      headers: tma(a),
      payload: { cancel_reason: 'x' },
    });
    expect(again.statusCode).toBe(409);
    const restore = await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${ra}`, headers: tma(a) });
    expect(restore.json()).toMatchObject({ record: { state: 'QUEUED', cancel_reason: null }, queue_position: 1 });
  });

  it('refuses changes to a past session (409) but still shows it', async () => {
    const { schedule } = await createSession(t.app, staff);
    const a = telegramUser();
    const id = (await book(t.app, a, bookingPayload(schedule.id))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { date: inDays(-2) },
    });
    expect((await get(id, tma(a))).statusCode).toBe(200);
    for (const [url, payload] of [
      [`/api/v1/records/${id}`, { people_count: 2 }],
      [`/api/v1/records/cancel/${id}`, { cancel_reason: 'x' }],
    ] as const) {
      const res = await t.app.inject({ method: 'PUT', url, headers: tma(a), payload });
      expect(res.statusCode).toBe(409);
    }
  });
});
