import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { DEFAULT_BUSINESS_SETTINGS } from '../../contract/business-settings';
import { loadConfig } from '../../server/config';

let t: TestApp;
let superuser: { authorization: string };
let user: { authorization: string };

beforeAll(async () => {
  t = await buildTestApp();
  superuser = await t.auth();
  await t.app.inject({
    method: 'POST',
    url: '/api/v1/users/',
    headers: superuser,
    payload: { email: 'staff@example.com', password: 'staff-password', is_active: true },
  });
  user = await t.auth('staff@example.com', 'staff-password');
});
afterAll(() => t.close());

const get = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/v1/business-settings/', headers });
const put = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers, payload: payload as object });

describe('business settings', () => {
  it('start with the defaults: reminders 24 h and 3 h before, no change deadline, a Russian privacy text', async () => {
    const res = await get(user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_BUSINESS_SETTINGS);
    expect(res.json()).toMatchObject({
      reminder_hours: [24, 3],
      change_deadline_hours: 0,
      contact: '',
      retention_days: 365,
      allergy_retention_days: 30,
    });
    expect(res.json().privacy_text).toMatch(/персональн|данные/);
  });

  it('a superuser changes some fields; the others keep their values; every staff member reads them', async () => {
    const res = await put(superuser, { reminder_hours: [3, 48], change_deadline_hours: 12, contact: '@studio_admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      reminder_hours: [48, 3],
      change_deadline_hours: 12,
      contact: '@studio_admin',
      retention_days: 365,
    });
    expect((await get(user)).json()).toEqual(res.json());
  });

  it('an ordinary staff member cannot change them (403) and nothing changes', async () => {
    const before = (await get(user)).json();
    const res = await put(user, { contact: 'чужой контакт' });
    expect(res.statusCode).toBe(403);
    expect((await get(user)).json()).toEqual(before);
  });

  it.each([
    [{ reminder_hours: [0] }, 'Напоминание: не раньше чем за 1 час'],
    [{ reminder_hours: [24, 24] }, 'Часы напоминаний не должны повторяться'],
    [{ change_deadline_hours: -1 }, 'Срок изменений: не меньше 0 часов'],
    [{ retention_days: 5 }, 'Срок хранения: не меньше 30 дней'],
    [{ privacy_text: '   ' }, 'Укажите текст о персональных данных'],
  ])('refuses %j with a Russian 422 and changes nothing', async (payload, message) => {
    const before = (await get(user)).json();
    const res = await put(superuser, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain(message);
    expect((await get(user)).json()).toEqual(before);
  });
});

describe('SCHEDULER_TICK_S', () => {
  it('defaults to a minute and is read in seconds', () => {
    expect(loadConfig({ SECRET_KEY: 'x'.repeat(32) }, { dotenv: false }).schedulerTickMs).toBe(60_000);
    expect(loadConfig({ SECRET_KEY: 'x'.repeat(32), SCHEDULER_TICK_S: '5' }, { dotenv: false }).schedulerTickMs).toBe(
      5000,
    );
  });
  it('refuses a value that is not a number of seconds', () => {
    expect(() => loadConfig({ SECRET_KEY: 'x'.repeat(32), SCHEDULER_TICK_S: 'soon' }, { dotenv: false })).toThrow(
      /SCHEDULER_TICK_S=soon: expected a whole number of seconds/,
    );
  });
});
