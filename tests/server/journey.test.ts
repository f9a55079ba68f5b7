import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { coordinatesFromMapLink } from '../../contract/map-coordinates';
import { getRecord } from '../../db/repositories/records';
import { listNotifications } from '../../db/repositories/notifications';

let t: TestApp;
let staff: { authorization: string };

useTestApp((parts) => ({ t, staff } = parts));

const HOUR = 3_600_000;
const hoursFromNow = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
const business = (payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });

describe('the change deadline', () => {
  it('within change_deadline_hours a customer cannot cancel, restore or change the people count (409 naming the deadline and contact); staff can', async () => {
    await business({ change_deadline_hours: 24, contact: 'Telegram @studio_admin' });
    try {
      const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(10) });
      const anna = telegramUser();
      const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
      const view = (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(anna) })).json();
      expect(view.change_until).toBe(new Date(Date.parse(schedule.date) - 24 * HOUR).toISOString());
      expect(view.contact).toBe('Telegram @studio_admin');

      const detail =
        'Изменить или отменить запись можно не позднее чем за 24 часа до начала мастер-класса. Свяжитесь со студией: Telegram @studio_admin';
      const cancel = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/records/cancel/${id}`,
        headers: tma(anna),
        payload: { cancel_reason: 'Заболела' },
      });
      expect(cancel.statusCode).toBe(409);
      expect(cancel.json()).toEqual({ detail });
      const people = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/records/${id}`,
        headers: tma(anna),
        payload: { people_count: 3 },
      });
      expect(people.statusCode).toBe(409);
      expect((await getRecord(t.database.db, id))!).toMatchObject({ state: 'ACTIVE', people_count: 1 });

      // Staff still can, and then the customer cannot restore.
      const byStaff = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/records/cancel/${id}`,
        headers: staff,
        payload: { cancel_reason: 'По телефону' },
      });
      expect(byStaff.statusCode).toBe(200);
      const restore = await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${id}`, headers: tma(anna) });
      expect(restore.statusCode).toBe(409);
      expect(restore.json().detail).toBe(detail);
      expect(
        (await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${id}`, headers: staff })).statusCode,
      ).toBe(200);
    } finally {
      await business({ change_deadline_hours: 0, contact: '' });
    }
  });

  it('outside the deadline, and with the default 0, customers change as before', async () => {
    await business({ change_deadline_hours: 2 });
    try {
      const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(10) });
      const anna = telegramUser();
      const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/records/${id}`,
        headers: tma(anna),
        payload: { people_count: 2 },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await business({ change_deadline_hours: 0 });
    }
    const view = await t.app.inject({ method: 'GET', url: '/api/v1/business-settings/', headers: staff });
    expect(view.json().change_deadline_hours).toBe(0);
  });
});

describe('add to calendar: GET /records/{id}/calendar.ics', () => {
  it('is a valid iCalendar event (title, start, the workshop duration, address, map link) behind a signed link', async () => {
    const { schedule, workshop } = await createSession(t.app, staff, { date: '2030-12-05T11:00:00.000Z' });
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workshops/${workshop.id}`,
      headers: staff,
      payload: { duration_minutes: 150 },
    });
    const anna = telegramUser();
    const created = (await book(t.app, anna, bookingPayload(schedule.id))).json();
    const url: string = created.calendar_url;
    expect(url).toMatch(new RegExp(`^/api/v1/records/${created.record.id}/calendar\\.ics\\?sig=[\\w-]{32}$`));

    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.body.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);

    const cal = new ICAL.Component(ICAL.parse(res.body));
    expect(cal.getFirstPropertyValue('version')).toBe('2.0');
    const event = new ICAL.Event(cal.getFirstSubcomponent('vevent')!);
    expect(event.summary).toBe('Паста — Кулинарная студия');
    expect(event.startDate.toJSDate().toISOString()).toBe('2030-12-05T11:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2030-12-05T13:30:00.000Z');
    expect(event.location).toBe('Улица Кнеза Милоша 1, Второй этаж');
    expect(event.description).toContain('Карта: https://maps.example/1');
    expect(event.uid).toBe(`record-${created.record.id}@localhost`);
    expect(cal.getFirstPropertyValue('x-wr-timezone')).toBe('Europe/Belgrade');
  });

  it("answers 404 without the right signature (another record's, a forged one, none)", async () => {
    const { schedule } = await createSession(t.app, staff);
    const a = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json();
    const b = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json();
    const sigOfB = new URL(b.calendar_url, 'http://x').searchParams.get('sig');
    for (const url of [
      `/api/v1/records/${a.record.id}/calendar.ics?sig=${sigOfB}`,
      `/api/v1/records/${a.record.id}/calendar.ics?sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      `/api/v1/records/${a.record.id}/calendar.ics`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toHaveProperty('detail');
    }
  });
});

describe('addresses as a pin', () => {
  it.each([
    [
      'https://www.google.com/maps/place/Kafe/@44.8125,20.4612,17z/data=!3m1!4b1!4m6!3m5!1s0x0:0x0!8m2!3d44.8131!4d20.4650',
      44.8131,
      20.465,
    ],
    ['https://www.google.com/maps/@44.8125,20.4612,15z', 44.8125, 20.4612],
    ['https://maps.google.com/?q=44.80,20.47', 44.8, 20.47],
    ['https://yandex.ru/maps/?ll=20.4612%2C44.8125&z=16&pt=20.4650,44.8131', 44.8131, 20.465],
    ['https://yandex.com/maps/10522/belgrade/?ll=20.4612%2C44.8125&z=16', 44.8125, 20.4612],
    ['https://www.openstreetmap.org/?mlat=44.8125&mlon=20.4612#map=17/44.8125/20.4612', 44.8125, 20.4612],
    ['https://www.openstreetmap.org/#map=17/44.81/20.46', 44.81, 20.46],
  ])('reads coordinates from %s', (link, latitude, longitude) => {
    expect(coordinatesFromMapLink(link)).toEqual({ latitude, longitude });
  });

  it.each([
    'https://maps.app.goo.gl/abc123',
    'https://example.com/?q=44.8,20.4',
    'не ссылка',
    'https://www.google.com/maps/@95,20,15z',
  ])('finds none in %s', (link) => expect(coordinatesFromMapLink(link)).toBeNull());

  it('fills latitude/longitude from the map link on save unless given; staff can edit them; bad ones are refused in Russian', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/address/',
      headers: staff,
      payload: { title: 'Студия', map_link: 'https://www.openstreetmap.org/?mlat=44.8125&mlon=20.4612' },
    });
    expect(created.json()).toMatchObject({ latitude: 44.8125, longitude: 20.4612 });
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${created.json().id}`,
      headers: staff,
      payload: { latitude: 45, longitude: 19.5 },
    });
    expect(edited.json()).toMatchObject({ latitude: 45, longitude: 19.5 });
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${created.json().id}`,
      headers: staff,
      payload: { latitude: 120 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toContain('Широта: от -90 до 90');
  });
});

describe('give your seat to a friend', () => {
  async function gift(owner: { id: number; username?: string }, recordId: number) {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/records/${recordId}/gift`, headers: tma(owner) });
    return res;
  }
  const tokenOf = (url: string) => /start=gift_([\w-]+)$/.exec(url)![1];

  it('the friend sees the session and accepts: same seats, state and queue place, now theirs; giver and staff are told; the link dies', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 2 });
    const first = telegramUser();
    await book(t.app, first, bookingPayload(schedule.id, { people_count: 2 }));
    const giver = telegramUser('giver');
    const behind = telegramUser();
    const id = (
      await book(
        t.app,
        giver,
        bookingPayload(schedule.id, { people_count: 2, has_allergy: true, allergy_type: 'орехи' }),
      )
    ).json().record.id;
    await book(t.app, behind, bookingPayload(schedule.id));

    const link = await gift(giver, id);
    expect(link.statusCode).toBe(200);
    expect(link.json().url).toMatch(/^https:\/\/t\.me\/studio_test_bot\?start=gift_[\w-]{22}$/);
    expect(link.json().expires_at).toBe(schedule.date);
    const token = tokenOf(link.json().url);

    const friend = telegramUser('friend');
    const seen = await t.app.inject({ method: 'GET', url: `/api/v1/gifts/${token}`, headers: tma(friend) });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ people_count: 2, state: 'QUEUED', queue_position: 1, giver_name: 'Анна' });
    expect(seen.json().schedule.workshop.title).toBe('Паста');

    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/gifts/${token}/accept`,
      headers: tma(friend),
      payload: { name: 'Мария', last_name: 'Иванова', has_allergy: false, consent: true },
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().record).toMatchObject({
      id,
      name: 'Мария',
      last_name: 'Иванова',
      telegram_id: friend.id,
      telegram_login: 'friend',
      people_count: 2,
      state: 'QUEUED',
      has_allergy: false,
      allergy_type: null,
    });
    expect(accepted.json().queue_position).toBe(1);
    const kinds = (await listNotifications(t.database.db)).slice(-2).map((n) => [n.chat_id, n.kind]);
    expect(kinds).toEqual([
      [giver.id, 'record.given_away'],
      [friend.id, 'record.received'],
    ]);
    // The giver no longer sees it; the link is dead.
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(giver) })).statusCode).toBe(
      404,
    );
    const again = await t.app.inject({ method: 'GET', url: `/api/v1/gifts/${token}`, headers: tma(telegramUser()) });
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe(
      'Ссылка недействительна: место уже передано, запись отменена или мастер-класс начался',
    );
  });

  it('refuses a friend who already has a booking on the session, the giver themselves, and needs consent; nothing changes', async () => {
    const { schedule } = await createSession(t.app, staff);
    const giver = telegramUser();
    const id = (await book(t.app, giver, bookingPayload(schedule.id))).json().record.id;
    const token = tokenOf((await gift(giver, id)).json().url);
    const booked = telegramUser();
    await book(t.app, booked, bookingPayload(schedule.id));
    const accept = (u: { id: number }, payload: object = { name: 'Мария', consent: true }) =>
      t.app.inject({ method: 'POST', url: `/api/v1/gifts/${token}/accept`, headers: tma(u), payload });

    const dup = await accept(booked);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe('У вас уже есть запись на этот мастер-класс, поэтому принять место нельзя');
    const own = await accept(giver);
    expect(own.statusCode).toBe(409);
    const noConsent = await accept(telegramUser(), { name: 'Мария' });
    expect(noConsent.statusCode).toBe(422);
    const noName = await accept(telegramUser(), { name: ' ', consent: true });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().detail).toContain('Укажите имя');
    expect((await getRecord(t.database.db, id))!.telegram_id).toBe(giver.id);
    // Staff cannot accept on anyone's behalf, and a stranger cannot create a link for someone else's booking.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/gifts/${token}/accept`,
          headers: staff,
          payload: { name: 'X', consent: true },
        })
      ).statusCode,
    ).toBe(403);
    expect((await gift(telegramUser(), id)).statusCode).toBe(404);
  });

  it('two friends accepting at once: exactly one gets the booking', async () => {
    const { schedule } = await createSession(t.app, staff);
    const giver = telegramUser();
    const id = (await book(t.app, giver, bookingPayload(schedule.id))).json().record.id;
    const token = tokenOf((await gift(giver, id)).json().url);
    const friends = [telegramUser(), telegramUser(), telegramUser()];
    const results = await Promise.all(
      friends.map((f) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/gifts/${token}/accept`,
          headers: tma(f),
          payload: { name: 'Друг', consent: true },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404, 404]);
    const owner = (await getRecord(t.database.db, id))!.telegram_id;
    expect(friends.map((f) => f.id)).toContain(owner);
  });

  it('the link dies when the booking is cancelled (even if restored) and when the session starts', async () => {
    const { schedule } = await createSession(t.app, staff);
    const giver = telegramUser();
    const id = (await book(t.app, giver, bookingPayload(schedule.id))).json().record.id;
    const token = tokenOf((await gift(giver, id)).json().url);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${id}`,
      headers: tma(giver),
      payload: { cancel_reason: 'x' },
    });
    await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${id}`, headers: tma(giver) });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/gifts/${token}`, headers: tma(telegramUser()) })).statusCode,
    ).toBe(404);

    const token2 = tokenOf((await gift(giver, id)).json().url);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { date: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/gifts/${token2}`, headers: tma(telegramUser()) })).statusCode,
    ).toBe(404);
  });
});

describe('tell me about new dates (API)', () => {
  it('lists workshops without free upcoming dates, subscribes and unsubscribes the Telegram customer', async () => {
    const { workshop, address } = await createSession(t.app, staff, { capacity: 0 });
    const anna = telegramUser();
    const list = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/date-subscriptions/', headers: tma(anna) })).json().data as {
        workshop_id: number;
        subscribed: boolean;
      }[];
    expect((await list()).find((o) => o.workshop_id === workshop.id)).toMatchObject({ subscribed: false });
    const sub = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/date-subscriptions/${workshop.id}`,
      headers: tma(anna),
    });
    expect(sub.json()).toEqual({ subscribed: true });
    expect((await list()).find((o) => o.workshop_id === workshop.id)).toMatchObject({ subscribed: true });
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/v1/date-subscriptions/999999', headers: tma(anna) })).statusCode,
    ).toBe(404);

    // A session with free seats takes it off the list (and tells the subscriber).
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/schedule/',
      headers: staff,
      payload: { date: hoursFromNow(100), capacity: 4, workshop_id: workshop.id, address_id: address.id },
    });
    expect((await list()).find((o) => o.workshop_id === workshop.id)).toBeUndefined();
    expect((await listNotifications(t.database.db, { chat_id: anna.id, kind: 'workshop.new_dates' })).length).toBe(1);
  });
});
