import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderNotification } from '../../bot/messages';
import { jobs } from '../../core/jobs/scheduler';
import { readNotification } from '../../core/notify/notifications';
import { MIN_PEOPLE_REASON, decideMinPeople, runMinPeopleRule } from '../../core/schedules/min-people';
import { staffActor } from '../../core/kernel/actor';
import { consumeLinkToken, createLinkToken } from '../../core/staff/telegram-link';
import { createDb, type Database } from '../../db/database';
import { upsertChosenLanguage } from '../../db/repositories/customer-languages';
import { buildTestApp, type TestApp } from '../helpers/app';
import { book, bookingPayload, inDays, telegramUser } from '../helpers/factories';

let t: TestApp;
let owner: { authorization: string };
let ownerId: number;
const ownerChat = 880_301;
const managerChat = 880_302;
const hostChat = 880_303;
let managerId: number;
let addressId: number;

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = owner) =>
  t.app.inject({ method, url, headers, ...(payload !== undefined && { payload: payload as object }) });

async function staffUser(email: string, role: 'manager' | 'host', chat: number) {
  const res = await inject('POST', '/api/v1/users/', { email, password: 'password-123', is_active: true, role });
  expect(res.statusCode, res.body).toBe(201);
  const { token } = await createLinkToken(t.database, res.json().id);
  await consumeLinkToken(t.database, token, { id: chat });
  return res.json().id as number;
}

beforeAll(async () => {
  t = await buildTestApp();
  owner = await t.auth();
  const me = (await inject('GET', '/api/v1/users/me')).json();
  ownerId = me.id;
  const { token } = await createLinkToken(t.database, me.id);
  await consumeLinkToken(t.database, token, { id: ownerChat });
  managerId = await staffUser('manager-mp@example.com', 'manager', managerChat);
  await staffUser('host-mp@example.com', 'host', hostChat);
  addressId = (await inject('POST', '/api/v1/address/', { title: 'Студия', map_link: 'https://maps.example/1' })).json()
    .id;
});
afterAll(() => t.close());

const settings = (payload: Record<string, unknown>) => inject('PUT', '/api/v1/business-settings/', payload);

async function workshop(minPeople: number) {
  const res = await inject('POST', '/api/v1/workshops/', { title: 'Паста', price: 3000, min_people: minPeople });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; min_people: number };
}

/** A session ten days ahead (created long before its decision time), with these parties booked. */
async function session(workshopId: number, parties: number[], extra: Record<string, unknown> = {}) {
  const res = await inject('POST', '/api/v1/schedule/', {
    date: inDays(10),
    capacity: 8,
    workshop_id: workshopId,
    address_id: addressId,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  const s = res.json() as { id: number; date: string; min_people: number | null };
  const people = [];
  for (const n of parties) {
    const user = telegramUser();
    const r = await book(t.app, user, bookingPayload(s.id, { people_count: n }));
    expect(r.statusCode, r.body).toBe(201);
    people.push({ user, record: r.json().record as { id: number; state: string } });
  }
  return { ...s, people };
}

/** The decision time of a session (48 hours before it by default), plus some minutes. */
const at = (s: { date: string }, hoursBefore = 48, plusMinutes = 1) =>
  new Date(Date.parse(s.date) - hoursBefore * 3_600_000 + plusMinutes * 60_000);

const outbox = (chatId: number, kind?: string) =>
  t.database.db
    .selectFrom('notifications')
    .select(['kind', 'payload', 'dedupe_key'])
    .where('chat_id', '=', chatId)
    .$if(kind !== undefined, (q) => q.where('kind', '=', kind!))
    .orderBy('id')
    .execute();
const cardsOf = async (chatId: number, scheduleId: number) =>
  (await outbox(chatId, 'staff.min_people')).filter((n) => JSON.parse(n.payload).schedule.schedule_id === scheduleId);
const sessionAlerts = async (chatId: number, scheduleId: number) =>
  (await outbox(chatId, 'staff.session_cancelled')).filter(
    (n) => JSON.parse(n.payload).schedule.schedule_id === scheduleId,
  );
const scheduleRow = (id: number) =>
  t.database.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const checkOf = (id: number) =>
  t.database.db.selectFrom('min_people_checks').selectAll().where('schedule_id', '=', id).executeTakeFirst();
const rc = {
  publicUrl: 'https://studio.example',
  timezone: 'Europe/Belgrade',
  businessName: 'Студия',
  calendarPath: (id: number) => `/cal/${id}`,
};

describe('minimum participants', () => {
  it('is a job of the scheduler', () => {
    expect(jobs(t.database).map((j) => j.name)).toContain('min-people');
  });

  it('asks owners and managers with a card at the decision time; a session at its minimum is untouched; a press decides once', async () => {
    expect(
      (await settings({ min_people_action: 'ask', min_people_grace_hours: 12, min_people_default: 'cancel' }))
        .statusCode,
    ).toBe(200);
    const w = await workshop(3);
    const under = await session(w.id, [1, 1]);
    const enough = await session(w.id, [2, 1]);

    // Before the decision time nothing happens.
    await runMinPeopleRule(t.database, at(under, 48, -5));
    expect(await checkOf(under.id)).toBeUndefined();

    await runMinPeopleRule(t.database, at(under));
    const [card] = await cardsOf(ownerChat, under.id);
    expect(card.dedupe_key).toBe(`min_people:${under.id}:${ownerId}`);
    expect(await cardsOf(managerChat, under.id)).toHaveLength(1);
    expect(await cardsOf(hostChat, under.id)).toHaveLength(0);
    const msg = renderNotification(readNotification(card.kind, card.payload), rc) as {
      text: string;
      reply_markup: { inline_keyboard: { text: string; callback_data: string }[][] };
    };
    expect(msg.text).toContain('Набралось 2 из 3: отменить или провести?');
    expect(msg.text).toMatch(/Если никто не ответит до .+, мастер-класс будет отменён автоматически/);
    expect(msg.reply_markup.inline_keyboard).toEqual([
      [
        { text: 'Отменить', callback_data: `minp:cancel:${under.id}` },
        { text: 'Провести', callback_data: `minp:run:${under.id}` },
      ],
    ]);
    expect(await checkOf(under.id)).toMatchObject({ status: 'asked', people: 2, min_people: 3 });

    // At its minimum: no card, not cancelled, nobody told.
    expect(await cardsOf(ownerChat, enough.id)).toHaveLength(0);
    expect((await scheduleRow(enough.id)).cancelled_at).toBeNull();
    expect((await checkOf(enough.id))?.status).toBe('enough');
    for (const p of enough.people) expect((await outbox(p.user.id)).map((n) => n.kind)).toEqual(['record.booked']);

    // Run again (the next tick, a restart): nothing twice.
    await runMinPeopleRule(t.database, at(under, 48, 2));
    expect(await cardsOf(ownerChat, under.id)).toHaveLength(1);

    // The manager keeps it; the owner's later press is told it was decided, by whom.
    const keep = await decideMinPeople(
      t.database,
      staffActor({ id: managerId, is_superuser: false, role: 'manager' }, 'Europe/Belgrade'),
      under.id,
      'run',
    );
    expect(keep.decided).toBe(true);
    expect(keep.check).toMatchObject({ status: 'kept', decided_by_name: 'manager-mp@example.com' });
    const late = await decideMinPeople(
      t.database,
      staffActor({ id: ownerId, is_superuser: true }, 'Europe/Belgrade'),
      under.id,
      'cancel',
    );
    expect(late).toMatchObject({
      decided: false,
      check: { status: 'kept', decided_by_name: 'manager-mp@example.com' },
    });
    expect((await scheduleRow(under.id)).cancelled_at).toBeNull();
    // And the grace passing later changes nothing.
    await runMinPeopleRule(t.database, at(under, 48 - 13));
    expect((await scheduleRow(under.id)).cancelled_at).toBeNull();
    for (const p of under.people) expect((await outbox(p.user.id)).map((n) => n.kind)).toEqual(['record.booked']);
  });

  it('applies the default after the grace when nobody pressed: cancelled, customers told in their language, staff alerted once', async () => {
    await settings({ min_people_action: 'ask', min_people_grace_hours: 6, min_people_default: 'cancel' });
    const w = await workshop(4);
    const s = await session(w.id, [1, 2]);
    await upsertChosenLanguage(t.database.db, s.people[0].user.id, 'en');
    await runMinPeopleRule(t.database, at(s));
    expect((await checkOf(s.id))?.status).toBe('asked');
    // Not yet: five hours later.
    await runMinPeopleRule(t.database, at(s, 48 - 5));
    expect((await scheduleRow(s.id)).cancelled_at).toBeNull();

    await runMinPeopleRule(t.database, at(s, 48 - 6, 2));
    const row = await scheduleRow(s.id);
    expect(row.cancelled_at).not.toBeNull();
    expect(row.cancel_reason).toBe(MIN_PEOPLE_REASON);
    expect(await checkOf(s.id)).toMatchObject({ status: 'cancelled', decided_by_user_id: null });
    const told = (await outbox(s.people[0].user.id)).at(-1)!;
    expect(told.kind).toBe('schedule.cancelled');
    const en = renderNotification(readNotification(told.kind, told.payload), { ...rc, language: 'en' }) as {
      text: string;
      reply_markup: unknown;
    };
    expect(en.text).toContain('Reason: not enough people signed up for it to take place.');
    expect(en.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Other dates', web_app: { url: `https://studio.example/apply?workshop=${w.id}` } }]],
    });
    const ru = (await outbox(s.people[1].user.id)).at(-1)!;
    const ruText = (renderNotification(readNotification(ru.kind, ru.payload), rc) as { text: string }).text;
    expect(ruText).toContain('Причина: не набралось минимальное число участников.');

    // Staff: one alert for the session, none per booking.
    const alerts = await sessionAlerts(ownerChat, s.id);
    expect(alerts).toHaveLength(1);
    const alert = renderNotification(readNotification(alerts[0].kind, alerts[0].payload), rc) as { text: string };
    expect(alert.text).toContain('Мастер-класс отменён');
    expect(alert.text).toContain('Отменён автоматически: не набрался минимум участников');
    expect(alert.text).toContain('Снято записей: 2 (человек: 3)');
    const perBooking = (await outbox(ownerChat, 'staff.cancelled')).filter(
      (n) => JSON.parse(n.payload).schedule.schedule_id === s.id,
    );
    expect(perBooking).toHaveLength(0);

    // The job again: nothing more.
    await runMinPeopleRule(t.database, at(s, 48 - 7));
    expect(await sessionAlerts(ownerChat, s.id)).toHaveLength(1);
  });

  it('with «провести» as the default, a session nobody answered about runs', async () => {
    await settings({ min_people_action: 'ask', min_people_grace_hours: 1, min_people_default: 'run' });
    const w = await workshop(5);
    const s = await session(w.id, [1]);
    await runMinPeopleRule(t.database, at(s));
    const [card] = await cardsOf(ownerChat, s.id);
    const text = (renderNotification(readNotification(card.kind, card.payload), rc) as { text: string }).text;
    expect(text).toMatch(/мастер-класс пройдёт как запланирован/);
    await runMinPeopleRule(t.database, at(s, 47, 2));
    expect((await checkOf(s.id))?.status).toBe('kept');
    expect((await scheduleRow(s.id)).cancelled_at).toBeNull();
  });

  it('cancels automatically when set so: the queue is emptied with the same message, staff alerted once', async () => {
    await settings({ min_people_action: 'cancel' });
    const w = await workshop(0);
    // The session's own minimum overrides the workshop's "none"; capacity 2 so the third person queues.
    const s = await session(w.id, [2, 1], { min_people: 4, capacity: 2 });
    expect(s.min_people).toBe(4);
    expect(s.people.map((p) => p.record.state)).toEqual(['ACTIVE', 'QUEUED']);
    await runMinPeopleRule(t.database, at(s));
    expect((await scheduleRow(s.id)).cancel_reason).toBe(MIN_PEOPLE_REASON);
    expect(await cardsOf(ownerChat, s.id)).toHaveLength(0);
    for (const p of s.people) expect((await outbox(p.user.id)).at(-1)!.kind).toBe('schedule.cancelled');
    const alerts = await sessionAlerts(ownerChat, s.id);
    expect(alerts).toHaveLength(1);
    expect(JSON.parse(alerts[0].payload)).toMatchObject({ by: null, by_rule: true, bookings: 1, people: 2, queued: 1 });
    // The public schedule no longer offers it.
    const open = (await inject('GET', '/api/v1/schedule/public', undefined, {} as never)).json();
    expect(open.data.map((x: { id: number }) => x.id)).not.toContain(s.id);
  });

  it('leaves alone a session whose own minimum is 0 (off) and one created after its decision time', async () => {
    await settings({ min_people_action: 'cancel' });
    const w = await workshop(3);
    const off = await session(w.id, [1], { min_people: 0 });
    await runMinPeopleRule(t.database, at(off));
    expect((await scheduleRow(off.id)).cancelled_at).toBeNull();
    expect(await checkOf(off.id)).toBeUndefined();
    // Scheduled a day ahead: inside its decision time from the start.
    const late = await inject('POST', '/api/v1/schedule/', {
      date: inDays(1),
      capacity: 8,
      workshop_id: w.id,
      address_id: addressId,
    });
    await runMinPeopleRule(t.database, new Date());
    expect((await scheduleRow(late.json().id)).cancelled_at).toBeNull();
  });

  it('decides at the decision time the business set: 24 hours before, not 48', async () => {
    await settings({ min_people_action: 'cancel', min_people_decision_hours: 24 });
    try {
      const w = await workshop(3);
      const s = await session(w.id, [1]);
      // The default's time passes with nothing done.
      await runMinPeopleRule(t.database, at(s, 48));
      await runMinPeopleRule(t.database, at(s, 24, -5));
      expect(await checkOf(s.id)).toBeUndefined();
      expect((await scheduleRow(s.id)).cancelled_at).toBeNull();
      await runMinPeopleRule(t.database, at(s, 24));
      expect(await checkOf(s.id)).toMatchObject({ status: 'cancelled', people: 1, min_people: 3 });
      expect((await scheduleRow(s.id)).cancel_reason).toBe(MIN_PEOPLE_REASON);
    } finally {
      await settings({ min_people_decision_hours: 48 });
    }
  });

  it('concurrent runs (two instances on PostgreSQL) and a restart decide a session once', async () => {
    await settings({ min_people_action: 'ask', min_people_grace_hours: 12, min_people_default: 'cancel' });
    const w = await workshop(3);
    const sessions = [await session(w.id, [1]), await session(w.id, [1]), await session(w.id, [])];
    // PostgreSQL: a second pool, as another instance has. SQLite serves one instance: its runs share the connection.
    const pg = t.database.dialect === 'postgres';
    const other: Database = pg ? createDb(t.config.databaseUrl) : t.database;
    try {
      const now = at(sessions[0]);
      await Promise.all([
        runMinPeopleRule(t.database, now),
        runMinPeopleRule(other, now),
        runMinPeopleRule(other, now),
      ]);
      // A restart: a new connection runs the same tick again.
      const restarted = createDb(t.config.databaseUrl);
      await runMinPeopleRule(restarted, now);
      await restarted.close();
      for (const s of sessions) {
        expect(await cardsOf(ownerChat, s.id)).toHaveLength(1);
        expect(await cardsOf(managerChat, s.id)).toHaveLength(1);
      }
      // The default, concurrently: one cancel and one alert each.
      const later = at(sessions[0], 48 - 12, 2);
      await Promise.all([runMinPeopleRule(t.database, later), runMinPeopleRule(other, later)]);
      for (const s of sessions) {
        expect((await scheduleRow(s.id)).cancelled_at).not.toBeNull();
        expect(await sessionAlerts(ownerChat, s.id)).toHaveLength(1);
        for (const p of s.people)
          expect((await outbox(p.user.id)).filter((n) => n.kind === 'schedule.cancelled')).toHaveLength(1);
      }
    } finally {
      if (pg) await other.close();
    }
  });

  it('a staff cancel alerts staff once for the session, naming who', async () => {
    const w = await workshop(0);
    const s = await session(w.id, [1, 2, 1]);
    const res = await inject('POST', `/api/v1/schedule/${s.id}/cancel`, { reason: 'Шеф заболел' });
    expect(res.statusCode, res.body).toBe(200);
    const alerts = await sessionAlerts(ownerChat, s.id);
    expect(alerts).toHaveLength(1);
    const text = (renderNotification(readNotification(alerts[0].kind, alerts[0].payload), rc) as { text: string }).text;
    expect(text).toContain('Отменил(а): admin@example.com');
    expect(text).toContain('Причина: Шеф заболел');
    expect(text).toContain('Снято записей: 3 (человек: 4)');
    expect(
      (await outbox(ownerChat, 'staff.cancelled')).filter((n) => JSON.parse(n.payload).schedule.schedule_id === s.id),
    ).toHaveLength(0);
  });
});

describe('the mini-app and the API', () => {
  it('the public schedule says how many people a session still needs, and nothing personal', async () => {
    const w = await workshop(3);
    const one = await session(w.id, [1]);
    const full = await session(w.id, [3]);
    const own = await session(w.id, [1], { min_people: 6 });
    const none = await session((await workshop(0)).id, []);
    const open = (await t.app.inject({ method: 'GET', url: '/api/v1/schedule/public' })).json();
    const of = (id: number) => open.data.find((x: { id: number }) => x.id === id);
    expect(of(one.id).people_needed).toBe(2);
    expect(of(full.id).people_needed).toBe(0);
    expect(of(own.id).people_needed).toBe(5);
    expect(of(none.id).people_needed).toBe(0);
    expect(JSON.stringify(of(one.id))).not.toMatch(/Петрова|records/);
  });

  it('workshop and session minimums are edited through the API; bad values are refused in Russian and change nothing', async () => {
    const w = await workshop(2);
    expect(w.min_people).toBe(2);
    const put = await inject('PUT', `/api/v1/workshops/${w.id}`, { min_people: 4 });
    expect(put.json().min_people).toBe(4);
    const bad = await inject('PUT', `/api/v1/workshops/${w.id}`, { min_people: -1 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toContain('Минимум участников: от 0 до 1000');
    expect((await inject('GET', `/api/v1/workshops/${w.id}`)).json().min_people).toBe(4);

    const s = await session(w.id, []);
    expect(s.min_people).toBeNull();
    const set = await inject('PUT', `/api/v1/schedule/${s.id}`, { min_people: 2 });
    expect(set.json().min_people).toBe(2);
    const back = await inject('PUT', `/api/v1/schedule/${s.id}`, { min_people: null });
    expect(back.json().min_people).toBeNull();
    expect((await inject('PUT', `/api/v1/schedule/${s.id}`, { min_people: 1.5 })).statusCode).toBe(422);

    const grace = await settings({ min_people_grace_hours: 0 });
    expect(grace.statusCode).toBe(422);
    expect(grace.json().detail).toContain('Время на ответ: не меньше 1 часа');
    const action = await settings({ min_people_action: 'maybe' });
    expect(action.statusCode).toBe(422);
    const got = (await inject('GET', '/api/v1/business-settings/')).json();
    expect(got).toMatchObject({ min_people_decision_hours: 48 });
    expect(got.min_people_grace_hours).toBeGreaterThanOrEqual(1);
  });
});
