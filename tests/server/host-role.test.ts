import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostWindow } from '../../contract/host-window';
import { staffActor } from '../../core/kernel/actor';
import { Forbidden } from '../../core/kernel/errors';
import { recordDeskPayment } from '../../core/payments/desk';
import { setAttendance } from '../../core/booking/attendance';
import { getUserById } from '../../db/repositories/users';
import { createLinkToken, consumeLinkToken } from '../../core/staff/telegram-link';
import { enqueueDueDigests } from '../../core/jobs/digest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';

/*
 * The host at the door, on the server: today's and tomorrow's sessions (on the studio's clock) with
 * their bookings, check-in and desk payments; the week before in History; «Нет доступа» for anything
 * else, which changes nothing. On SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
 */

const HOUR = 3_600_000;
let t: TestApp;
let owner: { authorization: string };
let host: { authorization: string };
let hostId = 0;
/** Sessions at the edges of the host's days, each with one booking. */
const at: Record<
  'today' | 'soon' | 'tomorrow' | 'dayAfter' | 'yesterday' | 'weekAgo' | 'older',
  { id: number; record: number }
> = {} as never;

const get = (url: string, headers = host) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object, headers = host) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers, payload });
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((s) => s.id);
const ledgerSize = async (record: number) =>
  (await t.database.db.selectFrom('payments').select('id').where('record_id', '=', record).execute()).length;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await t.auth();
  hostId = (
    await send(
      'POST',
      '/users/',
      { email: 'door-host@example.com', password: 'host-password-1', is_active: true, role: 'host' },
      owner,
    )
  ).json().id;
  host = await t.auth('door-host@example.com', 'host-password-1');
  const w = hostWindow(t.config.businessTimezone);
  const ms = (iso: string) => Date.parse(iso);
  const dates = {
    // Started earlier today: halfway between the studio's midnight and now (past at any hour of the day).
    today: new Date((ms(w.from) + Date.now()) / 2).toISOString(),
    // Check-in opens an hour before the start: this one is open now.
    soon: new Date(Date.now() + 20 * 60_000).toISOString(),
    tomorrow: new Date(ms(w.to) - HOUR).toISOString(),
    dayAfter: new Date(ms(w.to) + HOUR).toISOString(),
    yesterday: new Date(ms(w.from) - HOUR).toISOString(),
    weekAgo: new Date(ms(w.historyFrom) + HOUR).toISOString(),
    older: new Date(ms(w.historyFrom) - HOUR).toISOString(),
  };
  for (const [name, date] of Object.entries(dates)) {
    // Booked while upcoming, then moved to its day (a customer cannot book a past session).
    const { schedule } = await createSession(t.app, owner, {
      date: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    });
    const record = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id as number;
    await t.database.db.updateTable('schedules').set({ date }).where('id', '=', schedule.id).execute();
    at[name as keyof typeof at] = { id: schedule.id, record };
  }
});
afterAll(() => t.close());

describe('a host works today’s and tomorrow’s sessions only', () => {
  it('the schedule lists today’s and tomorrow’s sessions (those started today too), whatever dates are asked', async () => {
    const mine = [at.today.id, at.soon.id, at.tomorrow.id];
    expect(ids(await get('/schedule/?limit=100')).sort()).toEqual(mine.sort());
    expect(ids(await get('/schedule/?limit=100&from=2020-01-01&to=2099-12-31')).sort()).toEqual(mine.sort());
    // A manager sees everything ahead.
    expect(ids(await get('/schedule/?limit=100', owner))).toContain(at.dayAfter.id);
  });

  it('History goes back a week and no further, whatever dates are asked', async () => {
    for (const url of ['/schedule/past?limit=100', '/schedule/past?limit=100&from=2020-01-01']) {
      const seen = ids(await get(url));
      expect(seen).toEqual(expect.arrayContaining([at.yesterday.id, at.weekAgo.id, at.today.id]));
      expect(seen).not.toContain(at.older.id);
    }
    expect(ids(await get('/schedule/past?limit=100', owner))).toContain(at.older.id);
  });

  it('a session and its bookings are refused outside the two days with 403 «Нет доступа»', async () => {
    for (const s of [at.today, at.tomorrow]) {
      expect((await get(`/schedule/${s.id}`)).statusCode).toBe(200);
      expect((await get(`/records/${s.record}`)).statusCode).toBe(200);
      expect((await get(`/records/${s.record}/payments`)).statusCode).toBe(200);
    }
    for (const s of [at.dayAfter, at.yesterday, at.weekAgo]) {
      for (const url of [`/schedule/${s.id}`, `/records/${s.record}`, `/records/${s.record}/payments`]) {
        const res = await get(url);
        expect([url, res.statusCode, res.json().detail]).toEqual([url, 403, 'Нет доступа']);
        expect((await get(url, owner)).statusCode).toBe(200);
      }
    }
  });

  it('check-in: today’s session is marked; another day’s is refused and stays unmarked', async () => {
    const ok = await send('PUT', `/records/${at.soon.record}/attendance`, { attendance: 'ATTENDED' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().record.attendance).toBe('ATTENDED');
    for (const s of [at.yesterday, at.dayAfter]) {
      const res = await send('PUT', `/records/${s.record}/attendance`, { attendance: 'NO_SHOW' });
      expect([res.statusCode, res.json().detail]).toEqual([403, 'Нет доступа']);
      expect((await get(`/records/${s.record}`, owner)).json().record.attendance).toBeNull();
    }
  });

  it('payments at the desk: tomorrow’s booking is paid in cash or by card; another day’s is refused and nothing is recorded', async () => {
    const cash = await send('POST', `/records/${at.tomorrow.record}/payments`, { method: 'cash', amount: 1000 });
    expect(cash.statusCode).toBe(201);
    const card = await send('POST', `/records/${at.tomorrow.record}/payments`, { method: 'card' });
    expect(card.statusCode).toBe(201);
    expect(card.json().money.status).toBe('paid');
    for (const s of [at.yesterday, at.dayAfter]) {
      const res = await send('POST', `/records/${s.record}/payments`, { method: 'cash' });
      expect([res.statusCode, res.json().detail]).toEqual([403, 'Нет доступа']);
      expect(await ledgerSize(s.record)).toBe(0);
    }
    // Cash or card at the door: a bank transfer is a manager's to record.
    const transfer = await send('POST', `/records/${at.today.record}/payments`, { method: 'bank_transfer' });
    expect([transfer.statusCode, transfer.json().detail]).toEqual([
      403,
      'Ведущий принимает оплату наличными или картой',
    ]);
    expect(await ledgerSize(at.today.record)).toBe(0);
    expect(
      (await send('POST', `/records/${at.today.record}/payments`, { method: 'bank_transfer' }, owner)).statusCode,
    ).toBe(201);
    // Refunds and price changes stay with the manager, also on today's bookings.
    const refund = await send('POST', `/records/${at.tomorrow.record}/refunds`, { method: 'cash', amount: 100 });
    expect([refund.statusCode, refund.json().detail]).toEqual([403, 'Нет доступа']);
  });

  it('the bot’s buttons follow the same rule: a press on another day’s booking is refused in the domain', async () => {
    const user = (await getUserById(t.database.db, hostId))!;
    const actor = staffActor(user, t.config.businessTimezone);
    await expect(recordDeskPayment(t.database, actor, at.dayAfter.record, { method: 'cash' })).rejects.toThrow(
      Forbidden,
    );
    await expect(setAttendance(t.database, actor, at.yesterday.record, 'ATTENDED')).rejects.toThrow(Forbidden);
    expect(await ledgerSize(at.dayAfter.record)).toBe(0);
    // The days are the studio's, counted when the host acts: half an hour before today's midnight, yesterday's
    // session was still theirs.
    const lateYesterday = Date.parse(hostWindow(t.config.businessTimezone).from) - 30 * 60_000;
    const then = staffActor(user, t.config.businessTimezone, lateYesterday);
    await recordDeskPayment(t.database, then, at.yesterday.record, { method: 'cash' });
    expect(await ledgerSize(at.yesterday.record)).toBe(1);
  });

  it('a host changes their own profile and alerts, never their role', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: host,
      payload: { full_name: 'Ведущий Иван', role: 'owner', is_superuser: true },
    });
    expect(res.statusCode).toBe(200);
    expect((await get('/users/me')).json()).toMatchObject({
      full_name: 'Ведущий Иван',
      role: 'host',
      is_superuser: false,
    });
    const alerts = { notifications: { userApply: false, userCancel: false, scheduled1d: true } };
    expect((await send('POST', '/settings/', alerts)).statusCode).toBe(200);
    const other = await send('PATCH', `/users/${hostId}`, { role: 'owner' });
    expect([other.statusCode, other.json().detail]).toEqual([403, 'Нет доступа']);
  });

  it('no revenue, stats, exports, customers or audit', async () => {
    for (const url of [
      '/stats/',
      '/payments/',
      '/payments/export.csv',
      '/records/export.csv',
      `/schedule/${at.today.id}/participants.csv`,
      '/customers/',
      '/audit/',
      `/records/${at.today.record}/history`,
    ]) {
      const res = await get(url);
      expect([url, res.statusCode, res.json().detail]).toEqual([url, 403, 'Нет доступа']);
    }
  });

  it('Telegram alerts: a host gets the day-before summary only, never alerts about bookings on other days', async () => {
    const chat = { owner: 880_101, host: 880_102 };
    const me = (await get('/users/me', owner)).json();
    for (const [userId, id] of [
      [me.id, chat.owner],
      [hostId, chat.host],
    ] as const)
      await consumeLinkToken(t.database, (await createLinkToken(t.database, userId)).token, { id, username: `u${id}` });
    const kinds = async (chatId: number) =>
      (await t.database.db.selectFrom('notifications').select('kind').where('chat_id', '=', chatId).execute()).map(
        (n) => n.kind,
      );
    // A booking in five days, then cancelled: the owner hears of both, the host of neither.
    const { schedule } = await createSession(t.app, owner, {
      date: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    });
    const customer = telegramUser();
    const record = (await book(t.app, customer, bookingPayload(schedule.id))).json().record.id as number;
    await send('PUT', `/records/cancel/${record}`, { cancel_reason: 'Не смогу' }, owner);
    expect(await kinds(chat.owner)).toEqual(expect.arrayContaining(['staff.new_record', 'staff.cancelled']));
    expect(await kinds(chat.host)).toEqual([]);
    // The summary of a session within a day is the host's too.
    await enqueueDueDigests(t.database);
    expect(await kinds(chat.host)).toContain('staff.digest');
  });
});
