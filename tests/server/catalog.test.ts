import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, inDays, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = staff,
) => t.app.inject({ method, url: `/api/v1${url}`, headers, payload: payload as InjectOptions['payload'] });

describe('workshops', () => {
  it('creates with the default price, lists newest first, updates and refuses a negative price', async () => {
    const a = (await api('POST', '/workshops/', { title: 'Хинкали' })).json();
    const b = (
      await api('POST', '/workshops/', { title: 'Пельмени', description: 'Лепим вместе', price: 4200 })
    ).json();
    expect(a).toMatchObject({ title: 'Хинкали', price: 3500, description: null });
    const list = (await api('GET', '/workshops/')).json();
    expect(list.data.slice(0, 2).map((w: { id: number }) => w.id)).toEqual([b.id, a.id]);
    expect(list.count).toBeGreaterThanOrEqual(2);
    expect((await api('PUT', `/workshops/${a.id}`, { price: 3900 })).json()).toMatchObject({
      title: 'Хинкали',
      price: 3900,
    });
    const negative = await api('POST', '/workshops/', { title: 'X', price: -1 });
    expect(negative.statusCode).toBe(422);
    expect(negative.json().detail).toContain('Цена не может быть отрицательной');
    const noTitle = await api('POST', '/workshops/', { title: '  ' });
    expect(noTitle.json().detail).toContain('Укажите название');
    expect((await api('GET', '/workshops/999999')).statusCode).toBe(404);
  });

  it('refuses to delete a workshop that sessions use (409) and deletes an unused one', async () => {
    const { workshop } = await createSession(t.app, staff);
    const used = await api('DELETE', `/workshops/${workshop.id}`);
    expect(used.statusCode).toBe(409);
    expect(used.json().detail).toMatch(/есть в расписании/);
    const lone = (await api('POST', '/workshops/', { title: 'Одинокий' })).json();
    expect((await api('DELETE', `/workshops/${lone.id}`)).statusCode).toBe(200);
    expect((await api('GET', `/workshops/${lone.id}`)).statusCode).toBe(404);
  });
});

describe('addresses', () => {
  it('requires a title and a map link, and refuses to delete a used address', async () => {
    const missing = await api('POST', '/address/', { title: '', map_link: '' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail).toContain('Укажите адрес');
    expect(missing.json().detail).toContain('Укажите ссылку');
    const { address } = await createSession(t.app, staff);
    expect((await api('PUT', `/address/${address.id}`, { description: 'Код домофона 12' })).json().description).toBe(
      'Код домофона 12',
    );
    expect((await api('DELETE', `/address/${address.id}`)).statusCode).toBe(409);
    const list = (await api('GET', '/address/')).json();
    expect(list.data.some((a: { id: number }) => a.id === address.id)).toBe(true);
  });
});

describe('schedule', () => {
  it('lists upcoming sessions soonest first and past ones latest first, with bookings and seats', async () => {
    const later = (await createSession(t.app, staff, { date: inDays(10) })).schedule;
    const sooner = (await createSession(t.app, staff, { date: inDays(1), capacity: 3 })).schedule;
    const old = (await createSession(t.app, staff, { date: inDays(-5) })).schedule;
    const older = (await createSession(t.app, staff, { date: inDays(-9) })).schedule;
    await book(
      t.app,
      telegramUser('olga'),
      bookingPayload(sooner.id, { people_count: 2, has_allergy: true, allergy_type: 'Орехи' }),
    );

    const upcoming = (await api('GET', '/schedule/')).json();
    const ids = upcoming.data.map((s: { id: number }) => s.id);
    expect(ids.indexOf(sooner.id)).toBeLessThan(ids.indexOf(later.id));
    expect(ids).not.toContain(old.id);
    const s = upcoming.data.find((x: { id: number }) => x.id === sooner.id);
    expect(s).toMatchObject({
      capacity: 3,
      places_available: 1,
      is_notified: false,
      workshop: { title: 'Паста', price: 3500 },
      address: { description: 'Второй этаж' },
    });
    expect(s.records[0]).toMatchObject({
      name: 'Анна',
      people_count: 2,
      has_allergy: true,
      allergy_type: 'Орехи',
      telegram_login: 'olga',
      state: 'ACTIVE',
    });

    const past = (await api('GET', '/schedule/past')).json().data.map((x: { id: number }) => x.id);
    expect(past.indexOf(old.id)).toBeLessThan(past.indexOf(older.id));
    expect(past).not.toContain(sooner.id);
  });

  it('publishes upcoming sessions anonymously without anything personal', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 5 });
    await book(
      t.app,
      telegramUser('secret_handle'),
      bookingPayload(schedule.id, { name: 'Тайное Имя', comment: 'Секрет', people_count: 2 }),
    );
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/schedule/public' });
    expect(res.statusCode).toBe(200);
    const item = res.json().data.find((x: { id: number }) => x.id === schedule.id);
    expect(item).toMatchObject({
      places_available: 3,
      capacity: 5,
      workshop: { title: 'Паста', price: 3500 },
      address: { title: 'Улица Кнеза Милоша 1' },
    });
    expect(item).not.toHaveProperty('records');
    expect(res.body).not.toMatch(/Тайное Имя|secret_handle|Секрет/);
  });

  it('shows a booking in the public seats count at once', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 4 });
    const seats = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/schedule/public' }))
        .json()
        .data.find((x: { id: number }) => x.id === schedule.id).places_available;
    expect(await seats()).toBe(4);
    await book(t.app, telegramUser(), bookingPayload(schedule.id, { people_count: 3 }));
    expect(await seats()).toBe(1);
  });

  it('validates the session: workshop and address must exist, capacity >= 0, date required', async () => {
    const { workshop, address } = await createSession(t.app, staff);
    const noDate = await api('POST', '/schedule/', { workshop_id: workshop.id, address_id: address.id });
    expect(noDate.statusCode).toBe(422);
    const negative = await api('POST', '/schedule/', {
      date: inDays(2),
      capacity: -1,
      workshop_id: workshop.id,
      address_id: address.id,
    });
    expect(negative.statusCode).toBe(422);
    const ghost = await api('POST', '/schedule/', { date: inDays(2), workshop_id: 999_999, address_id: address.id });
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json().detail).toMatch(/не найден/);
    const created = await api('POST', '/schedule/', {
      date: '2030-01-15T12:00:00+01:00',
      workshop_id: workshop.id,
      address_id: address.id,
    });
    expect(created.json()).toMatchObject({ date: '2030-01-15T11:00:00.000Z', capacity: 8 });
  });

  it('deletes a session with its bookings once none is open (an open one is cancelled with the session instead)', async () => {
    const { schedule } = await createSession(t.app, staff);
    const anna = telegramUser();
    const rec = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    expect((await api('DELETE', `/schedule/${schedule.id}`)).statusCode).toBe(409);
    const cancel = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${rec}`,
      headers: tma(anna),
      payload: { cancel_reason: 'Не смогу' },
    });
    expect(cancel.statusCode).toBe(200);
    expect((await api('DELETE', `/schedule/${schedule.id}`)).statusCode).toBe(200);
    expect((await api('GET', `/schedule/${schedule.id}`)).statusCode).toBe(404);
    expect((await api('GET', `/records/${rec}`)).statusCode).toBe(404);
  });
});

describe('settings', () => {
  it("defaults every notification on and keeps each staff member's choice", async () => {
    expect((await api('GET', '/settings/')).json()).toEqual({
      notifications: { userApply: true, userCancel: true, scheduled1d: true },
    });
    const saved = await api('POST', '/settings/', {
      notifications: { userApply: false, userCancel: true, scheduled1d: false },
    });
    expect(saved.json()).toEqual({ notifications: { userApply: false, userCancel: true, scheduled1d: false } });
    expect((await api('GET', '/settings/')).json().notifications.userApply).toBe(false);
    expect((await api('POST', '/settings/', { notifications: { userApply: 'yes' } })).statusCode).toBe(422);
  });
});

describe('the server', () => {
  it('accepts paths with and without the trailing slash', async () => {
    expect((await api('GET', '/workshops')).statusCode).toBe(200);
    expect((await api('GET', '/workshops/')).statusCode).toBe(200);
    expect((await api('GET', '/schedule/past/')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/utils/health-check' })).json()).toBe(true);
  });

  it('publishes the OpenAPI document and Swagger UI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/records', '/api/v1/schedule/public', '/api/v1/records/cancel/{id}']),
    );
    const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toMatch(/swagger/i);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
  });
});
