import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, SchedulePublic } from '../../contract';
import { buildTestApp, type TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

let t: TestApp;
let staff: { authorization: string };
beforeAll(async () => {
  t = await buildTestApp();
  staff = await t.auth();
});
afterAll(() => t.close());

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
