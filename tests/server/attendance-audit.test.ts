import { describe, expect, it } from 'vitest';
import type { AuditEntry, SchedulePublic } from '../../contract';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const mark = (id: number, attendance: string | null, headers: Record<string, string> = staff) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/records/${id}/attendance`, headers, payload: { attendance } });
const history = async (id: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/history`, headers: staff })).json<{
    data: AuditEntry[];
    count: number;
  }>();

describe('check-in', () => {
  it('marks an ACTIVE booking from one hour before the start, and the record carries it', async () => {
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(50) });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id as number;
    const res = await mark(id, 'ATTENDED');
    expect(res.statusCode).toBe(200);
    expect(res.json().record.attendance).toBe('ATTENDED');
    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${schedule.id}`, headers: staff })
    ).json();
    expect(detail.records[0].attendance).toBe('ATTENDED');
    expect((await mark(id, null)).json().record.attendance).toBeNull();
  });

  it('refuses before the hour, for queued or cancelled bookings, and for customers', async () => {
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(90), capacity: 1 });
    const a = telegramUser();
    const b = telegramUser();
    const active = (await book(t.app, a, bookingPayload(schedule.id))).json().record.id as number;
    const queued = (await book(t.app, b, bookingPayload(schedule.id))).json().record.id as number;
    const early = await mark(active, 'ATTENDED');
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toBe('Посещение можно отметить не раньше чем за час до начала');
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { date: inMinutes(30) },
    });
    const q = await mark(queued, 'NO_SHOW');
    expect(q.statusCode).toBe(409);
    expect(q.json().detail).toBe('Посещение отмечают только у активной записи');
    expect((await mark(active, 'ATTENDED', tma(a))).statusCode).toBe(401);
    expect((await mark(active, 'maybe')).statusCode).toBe(422);
    expect((await mark(999_999, 'ATTENDED')).statusCode).toBe(404);
    const rec = (await t.app.inject({ method: 'GET', url: `/api/v1/records/${active}`, headers: staff })).json();
    expect(rec.record.attendance).toBeNull();
  });

  it("counts a customer's no-shows at earlier sessions on each booking row", async () => {
    const c = telegramUser();
    const { schedule: first } = await createSession(t.app, staff, { date: inMinutes(30) });
    const r1 = (await book(t.app, c, bookingPayload(first.id))).json().record.id as number;
    expect((await mark(r1, 'NO_SHOW')).statusCode).toBe(200);
    const { schedule: second } = await createSession(t.app, staff, { date: inMinutes(60 * 24) });
    await book(t.app, c, bookingPayload(second.id));
    const later = (
      await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${second.id}`, headers: staff })
    ).json<SchedulePublic>();
    expect(later.records[0].earlier_no_shows).toBe(1);
    const same = (
      await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${first.id}`, headers: staff })
    ).json<SchedulePublic>();
    expect(same.records[0].earlier_no_shows).toBe(0);
  });
});

describe('audit log', () => {
  it("writes every change of a booking with who did it, and serves the booking's history", async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 2 });
    const a = telegramUser();
    const b = telegramUser();
    const ra = (await book(t.app, a, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id as number;
    const rb = (await book(t.app, b, bookingPayload(schedule.id))).json().record.id as number;
    await t.app.inject({ method: 'PUT', url: `/api/v1/records/${ra}`, headers: tma(a), payload: { people_count: 1 } });
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ra}`,
      headers: staff,
      payload: { cancel_reason: 'Заболел' },
    });
    await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${ra}`, headers: tma(a) });

    const h = await history(ra);
    expect(h.data.map((e) => e.action)).toEqual(['restored', 'cancelled', 'people_changed', 'created']);
    expect(h.count).toBe(4);
    const [restored, cancelled, changed, created] = h.data;
    expect(created.actor).toMatchObject({ kind: 'customer', telegram_id: a.id });
    expect(changed.before).toMatchObject({ people_count: 2 });
    expect(changed.after).toMatchObject({ people_count: 1 });
    expect(cancelled.actor).toMatchObject({ kind: 'staff', name: 'admin@example.com' });
    expect(cancelled.after).toMatchObject({ state: 'CANCELLED', cancel_reason: 'Заболел' });
    expect(restored.actor.kind).toBe('customer');

    // b was queued behind a's party of two; a smaller party promotes b: the system did it.
    const hb = await history(rb);
    expect(hb.data[0]).toMatchObject({ action: 'promoted', actor: { kind: 'system', name: 'Система' } });
    expect(hb.data[0].before).toMatchObject({ state: 'QUEUED' });
    expect(hb.data[0].after).toMatchObject({ state: 'ACTIVE' });
  });

  it('keeps a failed change out of the log (same transaction)', async () => {
    const { schedule } = await createSession(t.app, staff);
    const a = telegramUser();
    const id = (await book(t.app, a, bookingPayload(schedule.id))).json().record.id as number;
    const again = await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${id}`, headers: staff });
    expect(again.statusCode).toBe(409);
    expect((await history(id)).data.map((e) => e.action)).toEqual(['created']);
  });

  it('lists the whole log to superusers, filtered by entity and period, newest first', async () => {
    const { schedule } = await createSession(t.app, staff);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { capacity: 12 },
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audit/?entity=schedule&entity_id=${schedule.id}`,
      headers: staff,
    });
    expect(res.statusCode).toBe(200);
    const page = res.json<{ data: AuditEntry[]; count: number }>();
    expect(page.data.map((e) => e.action)).toEqual(['updated', 'created']);
    expect(page.data[0].before).toEqual({ capacity: 8 });
    expect(page.data[0].after).toEqual({ capacity: 12 });
    const future = await t.app.inject({ method: 'GET', url: '/api/v1/audit/?from=2999-01-01', headers: staff });
    expect(future.json().count).toBe(0);
    const paged = await t.app.inject({ method: 'GET', url: '/api/v1/audit/?limit=2', headers: staff });
    expect(paged.json().data).toHaveLength(2);
    expect(paged.json().count).toBeGreaterThan(2);
  });
});

describe('audit log of staff changes', () => {
  const log = async (entity: string, id: number) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/v1/audit/?entity=${entity}&entity_id=${id}`, headers: staff })
    ).json<{ data: AuditEntry[] }>().data;

  it('logs workshops, addresses, users and settings with before → after, and a refused delete not at all', async () => {
    const { workshop, address, schedule } = await createSession(t.app, staff);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workshops/${workshop.id}`,
      headers: staff,
      payload: { title: 'Паста карбонара', price: 4000 },
    });
    const w = await log('workshop', workshop.id);
    expect(w.map((e) => e.action)).toEqual(['updated', 'created']);
    expect(w[0].before).toEqual({ title: 'Паста', price: 3500 });
    expect(w[0].after).toEqual({ title: 'Паста карбонара', price: 4000 });

    // In use by a session: 409, and nothing logged.
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/v1/address/${address.id}`, headers: staff });
    expect(refused.statusCode).toBe(409);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/schedule/${schedule.id}`, headers: staff });
    await t.app.inject({ method: 'DELETE', url: `/api/v1/address/${address.id}`, headers: staff });
    expect((await log('address', address.id)).map((e) => e.action)).toEqual(['deleted', 'created']);
    expect((await log('schedule', schedule.id)).map((e) => e.action)).toEqual(['deleted', 'created']);

    await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/',
      headers: staff,
      payload: { notifications: { userApply: false, userCancel: true, scheduled1d: true } },
    });
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json<{ id: number }>();
    const settings = await log('settings', me.id);
    expect(settings[0].after).toMatchObject({ notifications: { userApply: false } });
  });

  it("names a deleted staff user's changes 'удалённый пользователь' and never logs a password", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: staff,
      payload: { email: 'temp-staff@example.com', password: 'password-123', full_name: 'Мария', is_active: true },
    });
    const userId = created.json<{ id: number }>().id;
    const temp = await t.auth('temp-staff@example.com', 'password-123');
    const { workshop } = await createSession(t.app, temp);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${userId}`,
      headers: staff,
      payload: { password: 'new-password-456' },
    });
    const userLog = await log('user', userId);
    expect(userLog[0].after).toEqual({ password: 'изменён' });
    expect(JSON.stringify(userLog)).not.toContain('password-123');
    expect((await log('workshop', workshop.id))[0].actor).toMatchObject({ kind: 'staff', name: 'Мария' });

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${userId}`, headers: staff })).statusCode).toBe(
      200,
    );
    expect((await log('workshop', workshop.id))[0].actor).toMatchObject({
      kind: 'staff',
      user_id: userId,
      name: 'удалённый пользователь',
    });
    expect((await log('user', userId))[0]).toMatchObject({
      action: 'deleted',
      before: { email: 'temp-staff@example.com' },
    });
  });
});

describe('audit log of the studio settings', () => {
  it("logs a superuser's change of the business settings with the fields that changed", async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/v1/business-settings/', headers: staff })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { contact: '+381 60 123 4567' },
    });
    expect(res.statusCode).toBe(200);
    const log = (
      await t.app.inject({ method: 'GET', url: '/api/v1/audit/?entity=business_settings', headers: staff })
    ).json<{ data: AuditEntry[] }>().data;
    expect(log[0]).toMatchObject({
      action: 'updated',
      actor: { kind: 'staff' },
      before: { contact: before.contact },
      after: { contact: '+381 60 123 4567' },
    });
  });
});
