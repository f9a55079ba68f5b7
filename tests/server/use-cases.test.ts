import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { getRecord } from '../../db/repositories/records';
import { bool } from '../../db/database';
import type { RecordView } from '../../contract';

// The rules a command checks for itself, under the session's lock, whoever calls it (real concurrency
// on SQLite here and on PostgreSQL in the rerun): a booking given away is no longer the giver's, an
// erasure and a booking of the same person never interleave, a checked-in booking stays as staff marked
// it, and every view says what its caller may do.

let t: TestApp;
let staff: { authorization: string };

useTestApp((parts) => ({ t, staff } = parts));

const HOUR = 3_600_000;
const hoursFromNow = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
type Person = ReturnType<typeof telegramUser>;

const view = async (who: Person | { authorization: string }, id: number) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: 'id' in who ? tma(who) : who });
const cancel = (who: Person | { authorization: string }, id: number, reason = 'Не получится') =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v1/records/cancel/${id}`,
    headers: 'id' in who ? tma(who) : who,
    payload: { cancel_reason: reason },
  });
const people = (who: Person, id: number, n: number) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/records/${id}`, headers: tma(who), payload: { people_count: n } });
const giftToken = async (giver: Person, id: number) => {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/gift`, headers: tma(giver) });
  expect(res.statusCode).toBe(200);
  return /start=gift_([\w-]+)$/.exec(res.json().url)![1];
};
const accept = (friend: Person, token: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/gifts/${token}/accept`,
    headers: tma(friend),
    payload: { name: 'Друг', has_allergy: false, consent: true },
  });
/** The booking's log, oldest first, as actions. */
const history = async (id: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/history`, headers: staff }))
    .json<{ data: { action: string; at: string }[] }>()
    .data.map((h) => h.action);

describe('a booking given away is no longer the giver’s, checked under the lock', () => {
  it('the giver cancelling at the moment the friend accepts: one of them wins, never a cancel of the friend’s booking', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 40 });
    for (let i = 0; i < 12; i++) {
      const giver = telegramUser();
      const friend = telegramUser();
      const id = (await book(t.app, giver, bookingPayload(schedule.id))).json().record.id;
      const token = await giftToken(giver, id);
      const [c, a] = await Promise.all([cancel(giver, id), accept(friend, token)]);
      const r = (await getRecord(t.database.db, id))!;
      if (a.statusCode === 200) {
        // The friend got it: the giver's cancel found no booking of theirs, and the booking is the friend's, alive.
        expect(c.statusCode).toBe(404);
        expect(r).toMatchObject({ telegram_id: friend.id, state: 'ACTIVE' });
        expect(await history(id)).not.toContain('cancelled');
      } else {
        // The giver cancelled first: the link died with it.
        expect(c.statusCode).toBe(200);
        expect(a.statusCode).toBe(404);
        expect(r).toMatchObject({ telegram_id: giver.id, state: 'CANCELLED' });
      }
    }
  });

  it('the giver changing the party at the moment the friend accepts never changes the friend’s booking', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 80 });
    for (let i = 0; i < 12; i++) {
      const giver = telegramUser();
      const friend = telegramUser();
      const id = (await book(t.app, giver, bookingPayload(schedule.id))).json().record.id;
      const token = await giftToken(giver, id);
      const [p, a] = await Promise.all([people(giver, id, 3), accept(friend, token)]);
      expect(a.statusCode).toBe(200);
      const r = (await getRecord(t.database.db, id))!;
      expect(r.telegram_id).toBe(friend.id);
      // Either the giver changed it while it was still theirs (then the friend took 3), or was refused.
      if (p.statusCode === 200)
        expect([...(await history(id))].sort()).toEqual(['created', 'people_changed', 'transferred']);
      else {
        expect(p.statusCode).toBe(404);
        expect(r.people_count).toBe(1);
      }
    }
  });

  it('the friend’s booking does not keep the giver’s answers about themselves', async () => {
    const { schedule } = await createSession(t.app, staff);
    const giver = telegramUser();
    const id = (
      await book(t.app, giver, bookingPayload(schedule.id, { is_first_time: false, source: 'instagram' }))
    ).json().record.id;
    const friend = telegramUser();
    expect((await accept(friend, await giftToken(giver, id))).statusCode).toBe(200);
    const taken = (await getRecord(t.database.db, id))!;
    expect([taken.source, bool(taken.is_first_time)]).toEqual([null, true]);

    // A friend who booked before is not a first-timer.
    const regular = telegramUser();
    await book(t.app, regular, bookingPayload((await createSession(t.app, staff)).schedule.id));
    const id2 = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id;
    const giver2 = (await getRecord(t.database.db, id2))!;
    const token2 = await giftToken({ id: giver2.telegram_id!, username: 'x', first_name: 'x' }, id2);
    expect((await accept(regular, token2)).statusCode).toBe(200);
    expect(bool((await getRecord(t.database.db, id2))!.is_first_time)).toBe(false);
  });
});

describe('an erasure and a booking of the same person never interleave', () => {
  it('a booking made while /forget runs is either erased with the rest or a new booking of theirs, never an orphan holding seats', async () => {
    const { schedule: first } = await createSession(t.app, staff, { capacity: 50 });
    const { schedule: second } = await createSession(t.app, staff, { capacity: 50 });
    for (let i = 0; i < 10; i++) {
      const anna = telegramUser();
      await book(t.app, anna, bookingPayload(first.id));
      const [erase, booked] = await Promise.all([
        t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(anna) }),
        book(t.app, anna, bookingPayload(second.id, { name: 'Анна' })),
      ]);
      expect(erase.statusCode).toBe(200);
      expect(booked.statusCode).toBe(201);
      const r = (await getRecord(t.database.db, booked.json().record.id))!;
      if (r.state === 'CANCELLED') {
        // Booked first, then cancelled and anonymised by the erasure.
        expect(r).toMatchObject({ telegram_id: null, name: 'Удалено' });
        expect(erase.json().cancelled).toBe(2);
      } else {
        // Booked after the erasure: a booking of theirs, with their name and id.
        expect(r).toMatchObject({ telegram_id: anna.id, name: 'Анна', anonymised_at: null });
        expect(erase.json().cancelled).toBe(1);
      }
    }
    const orphans = await t.database.db
      .selectFrom('records')
      .select('id')
      .where('state', '!=', 'CANCELLED')
      .where('anonymised_at', 'is not', null)
      .execute();
    expect(orphans).toEqual([]);
  });
});

describe('a checked-in booking stays as staff marked it', () => {
  it('the customer can no longer cancel, restore or change it, and allowed says why; staff clear the mark first', async () => {
    const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(0.5), capacity: 3 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    const queued = telegramUser();
    await book(t.app, queued, bookingPayload(schedule.id, { people_count: 3 }));
    const mark = (attendance: string | null) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/records/${id}/attendance`, headers: staff, payload: { attendance } });
    expect((await mark('ATTENDED')).statusCode).toBe(200);

    const refused = 'Посещение уже отмечено: запись больше нельзя изменить';
    const v = (await view(anna, id)).json<RecordView>();
    expect(v.allowed.cancel).toEqual({ ok: false, reason: 'attended', detail: refused });
    expect(v.allowed.change_people).toMatchObject({ ok: false, reason: 'attended' });
    expect(v.allowed.gift).toMatchObject({ ok: false, reason: 'attended' });
    expect(await cancel(anna, id).then((r) => [r.statusCode, r.json().detail])).toEqual([409, refused]);
    expect((await people(anna, id, 2)).statusCode).toBe(409);
    expect((await getRecord(t.database.db, id))!).toMatchObject({ state: 'ACTIVE', attendance: 'ATTENDED' });

    // Staff are told to clear the mark; once cleared they may cancel, and the queue is served.
    const byStaff = await cancel(staff, id, 'Ушла до начала');
    expect([byStaff.statusCode, byStaff.json().detail]).toEqual([
      409,
      'Посещение уже отмечено: сначала снимите отметку',
    ]);
    expect((await mark(null)).statusCode).toBe(200);
    expect((await cancel(staff, id, 'Ушла до начала')).statusCode).toBe(200);
  });
});

describe('views say what the caller may do', () => {
  it('an upcoming booking: the owner may cancel, change and give it, not restore or confirm it twice; staff may not give it', async () => {
    const { schedule } = await createSession(t.app, staff);
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    const mine = (await view(anna, id)).json<RecordView>().allowed;
    expect(Object.fromEntries(Object.entries(mine).map(([k, p]) => [k, p.ok]))).toEqual({
      cancel: true,
      restore: false,
      change_people: true,
      gift: true,
      leave_queue: false,
      confirm: true,
      rate: false,
    });
    expect(mine.restore).toEqual({ ok: false, reason: 'not_cancelled', detail: 'Запись не отменена' });
    expect(mine.rate.reason).toBe('not_started');
    const staffs = (await view(staff, id)).json<RecordView>().allowed;
    expect(staffs.gift.reason).toBe('telegram_only');
    expect(staffs.cancel.ok).toBe(true);
    // Someone else's booking is not theirs to see at all.
    expect((await view(telegramUser(), id)).statusCode).toBe(404);
  });

  it('past the change deadline the customer may not change it (reason deadline) while staff still may; a started one allows nothing', async () => {
    const business = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });
    await business({ change_deadline_hours: 24, contact: '@studio' });
    try {
      const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(5) });
      const anna = telegramUser();
      const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
      const mine = (await view(anna, id)).json<RecordView>().allowed;
      expect(mine.cancel).toMatchObject({ ok: false, reason: 'deadline' });
      expect(mine.cancel.detail).toContain('не позднее чем за 24 часа');
      expect(mine.change_people.reason).toBe('deadline');
      expect(mine.gift.ok).toBe(true);
      expect((await view(staff, id)).json<RecordView>().allowed.cancel.ok).toBe(true);

      // A session that has started (moved into the past by staff) allows nothing.
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/schedule/${schedule.id}`,
        headers: staff,
        payload: { date: hoursFromNow(-1) },
      });
      const started = (await view(anna, id)).json<RecordView>().allowed;
      for (const action of ['cancel', 'restore', 'change_people', 'gift', 'leave_queue', 'confirm'] as const)
        expect(started[action]).toMatchObject({ ok: false, reason: 'past' });
      expect(started.rate.ok).toBe(true);
    } finally {
      await business({ change_deadline_hours: 0, contact: '' });
    }
  });
});
