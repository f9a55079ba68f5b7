import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_REQUIRED, DEFAULT_PRIVACY_TEXT, ERASED_NAME, type PersonalDataExport } from '../../contract';
import { privacyVersion } from '../../core/booking/consent';
import { Notification, erasePersonalInPayload } from '../../core/notify/notifications';
import { personalPaths } from '../../core/notify/personal';
import { bookingsErasure, personErasure } from '../../core/privacy/erasure';
import { encodeCallbackData } from '../../bot/callback-data';
import { consumeLinkToken, createLinkToken } from '../../core/staff/telegram-link';
import type { Database } from '../../db/database';
import type { Stats } from '../../contract/stats';
import { buildTestApp, type TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, inDays, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { callbackUpdate, postUpdate, startFakeTelegram, textUpdate, tgUser } from '../helpers/fake-telegram';
import { botTestApp } from '../bot/setup';

let t: TestApp;
let staff: { authorization: string };
const DAY_MS = 86_400_000;

useTestApp((parts) => ({ t, staff } = parts));

const recordRow = (id: number) =>
  t.database.db.selectFrom('records').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const countRecords = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const moveToPast = async (scheduleId: number, daysAgo: number) => {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/schedule/${scheduleId}`,
    headers: staff,
    payload: { date: inDays(-daysAgo) },
  });
  expect(res.statusCode).toBe(200);
};

/** Every column of every table, as the database itself describes them (tables added later are searched too). */
async function columnsOf(database: Database): Promise<{ table: string; column: string; text: boolean }[]> {
  if (database.dialect === 'postgres') {
    const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(database.db);
    return rows.map((r) => ({
      table: r.table_name,
      column: r.column_name,
      text: /char|text|json/.test(r.data_type),
    }));
  }
  const { rows: tables } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
    database.db,
  );
  const out: { table: string; column: string; text: boolean }[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{
      name: string;
      type: string;
    }>`select name, type from pragma_table_info(${name})`.execute(database.db);
    for (const c of rows) out.push({ table: name, column: c.name, text: /char|text|clob|^$/i.test(c.type) });
  }
  return out;
}

/** Where in the whole database any of these values still appears: text columns by substring, any column by equality. */
async function findEverywhere(database: Database, needles: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const { table, column, text } of await columnsOf(database)) {
    for (const needle of needles) {
      const cond = text
        ? sql`cast(${sql.ref(column)} as text) like ${`%${needle}%`}`
        : sql`cast(${sql.ref(column)} as text) = ${needle}`;
      const { rows } = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(table)} where ${cond}`.execute(database.db);
      if (Number(rows[0].n) > 0) found.push(`${table}.${column} ∋ ${needle}`);
    }
  }
  return found;
}

describe('consent at booking', () => {
  it('refuses a mini-app booking without consent (422, nothing stored) and stores when and which text was accepted', async () => {
    const { schedule } = await createSession(t.app, staff);
    const user = telegramUser('consenting');
    const before = await countRecords();
    for (const consent of [undefined, false]) {
      const res = await book(t.app, user, bookingPayload(schedule.id, { consent }));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ detail: CONSENT_REQUIRED });
    }
    expect(await countRecords()).toBe(before);

    const privacy = await t.app.inject({ method: 'GET', url: '/api/v1/privacy' });
    expect(privacy.json()).toEqual({ text: DEFAULT_PRIVACY_TEXT, version: privacyVersion(DEFAULT_PRIVACY_TEXT) });
    const res = await book(t.app, user, bookingPayload(schedule.id));
    expect(res.statusCode).toBe(201);
    const row = await recordRow(res.json().record.id);
    expect(row.consent_version).toBe(privacyVersion(DEFAULT_PRIVACY_TEXT));
    expect(Date.now() - new Date(row.consent_at!).getTime()).toBeLessThan(60_000);
  });

  it('records the new version once the superuser changes the privacy text', async () => {
    const text = 'Новый текст о персональных данных студии.';
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { privacy_text: text },
    });
    expect(put.statusCode).toBe(200);
    const privacy = (await t.app.inject({ method: 'GET', url: '/api/v1/privacy' })).json();
    expect(privacy).toEqual({ text, version: privacyVersion(text) });
    expect(privacy.version).not.toBe(privacyVersion(DEFAULT_PRIVACY_TEXT));
    const { schedule } = await createSession(t.app, staff);
    const res = await book(t.app, telegramUser(), bookingPayload(schedule.id));
    expect((await recordRow(res.json().record.id)).consent_version).toBe(privacy.version);
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { privacy_text: DEFAULT_PRIVACY_TEXT },
    });
  });

  it('lets staff book on a customer’s behalf without it (stored as not given), or record that the customer agreed', async () => {
    const { schedule } = await createSession(t.app, staff);
    const phone = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: staff,
      payload: bookingPayload(schedule.id, { consent: undefined, telegram_id: 4_200_001 }),
    });
    expect(phone.statusCode).toBe(201);
    expect(await recordRow(phone.json().record.id)).toMatchObject({ consent_at: null, consent_version: null });
    const agreed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: staff,
      payload: bookingPayload(schedule.id, { consent: true, telegram_id: 4_200_002 }),
    });
    expect((await recordRow(agreed.json().record.id)).consent_version).toBe(privacyVersion(DEFAULT_PRIVACY_TEXT));
  });
});

describe('export and forget (GET and DELETE /me/data)', () => {
  // Values nobody else in this file uses, so finding them anywhere means they were not erased.
  const zina = { id: 777_000_123, username: 'zinovia_kv', first_name: 'Зиновия' };
  const NAME = 'Зиновия';
  const LAST = 'Квасникова';
  const COMMENT = 'Принесу свой фартук';
  const ALLERGY = 'кешью и фисташки';
  const ids: { upcoming: number; past: number; cancelled: number; byPhone: number; other: number } = {
    upcoming: 0,
    past: 0,
    cancelled: 0,
    byPhone: 0,
    other: 0,
  };
  let full: { schedule: { id: number } };
  let pastSchedule: number;
  let queued: number;
  const staffChat = 880_001;

  beforeAll(async () => {
    // Staff linked to Telegram, so cancellations reach them.
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json();
    const { token } = await createLinkToken(t.database, me.id);
    await consumeLinkToken(t.database, token, { id: staffChat, username: 'chef' });

    const mine = { last_name: LAST, name: NAME, comment: COMMENT, has_allergy: true, allergy_type: ALLERGY };
    // A past session she attended, with allergy and comment, and someone else's booking beside hers.
    const past = await createSession(t.app, staff);
    pastSchedule = past.schedule.id;
    ids.past = (await book(t.app, zina, bookingPayload(pastSchedule, { ...mine, people_count: 2 }))).json().record.id;
    ids.other = (
      await book(t.app, telegramUser('neighbour'), bookingPayload(pastSchedule, { name: 'Борислав' }))
    ).json().record.id;
    // A booking she cancelled herself.
    const cancelledSession = await createSession(t.app, staff);
    ids.cancelled = (await book(t.app, zina, bookingPayload(cancelledSession.schedule.id, mine))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ids.cancelled}`,
      headers: tma(zina),
      payload: { cancel_reason: 'Заболела' },
    });
    // An upcoming full session: her 2 seats, and a queued party of 2 waiting for them.
    full = await createSession(t.app, staff, { capacity: 2 });
    ids.upcoming = (
      await book(t.app, zina, bookingPayload(full.schedule.id, { ...mine, people_count: 2 }))
    ).json().record.id;
    queued = (await book(t.app, telegramUser('waiting'), bookingPayload(full.schedule.id, { people_count: 2 }))).json()
      .record.id;
    // A booking staff took by phone with only her @login.
    const phone = await createSession(t.app, staff);
    ids.byPhone = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/records/',
        headers: staff,
        payload: bookingPayload(phone.schedule.id, { name: NAME, last_name: LAST, telegram_login: zina.username }),
      })
    ).json().record.id;
    await moveToPast(pastSchedule, 3);
    // The day before: the staff digest lists her with her allergy and comment (and reminders go out).
    const upcomingDate = (await recordRow(ids.upcoming)).schedule_id;
    const { date } = await t.database.db
      .selectFrom('schedules')
      .select('date')
      .where('id', '=', upcomingDate)
      .executeTakeFirstOrThrow();
    await t.scheduler.runOnce(new Date(Date.parse(date) - 20 * 3_600_000));
    // A subscription, a half-finished conversation, and a delivered message.
    const db = t.database.db;
    await db
      .insertInto('date_subscriptions')
      .values({ workshop_id: past.workshop.id, telegram_id: zina.id, created_at: new Date().toISOString() })
      .execute();
    await db
      .insertInto('bot_sessions')
      .values({ key: `conversation:${zina.id}`, value: JSON.stringify({ user: zina.username }) })
      .execute();
    await db
      .updateTable('notifications')
      .set({ status: 'sent', sent_at: new Date().toISOString() })
      .where('chat_id', '=', zina.id)
      .where('kind', '=', 'record.booked')
      .execute();
  });

  it('GET shows everything stored about the caller, and only theirs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me/data', headers: tma(zina) });
    expect(res.statusCode).toBe(200);
    const data: PersonalDataExport = res.json();
    expect(data.telegram_id).toBe(zina.id);
    expect(data.bookings.map((b) => b.id).sort((a, b) => a - b)).toEqual(
      [ids.past, ids.cancelled, ids.upcoming, ids.byPhone].sort((a, b) => a - b),
    );
    expect(data.bookings.find((b) => b.id === ids.past)).toMatchObject({
      workshop: 'Паста',
      address: 'Улица Кнеза Милоша 1',
      name: NAME,
      last_name: LAST,
      telegram_login: zina.username,
      comment: COMMENT,
      has_allergy: true,
      allergy_type: ALLERGY,
      people_count: 2,
      consent_version: privacyVersion(DEFAULT_PRIVACY_TEXT),
    });
    expect(data.bookings.find((b) => b.id === ids.cancelled)).toMatchObject({
      state: 'CANCELLED',
      cancel_reason: 'Заболела',
    });
    expect(data.subscriptions).toEqual([expect.objectContaining({ workshop: 'Паста' })]);
    expect(data.history.filter((h) => h.record_id === ids.cancelled).map((h) => h.action)).toEqual([
      'created',
      'cancelled',
    ]);
    expect(data.messages).toBeGreaterThan(0);
    expect(JSON.stringify(data)).not.toContain('Борислав');

    const asStaff = await t.app.inject({ method: 'GET', url: '/api/v1/me/data', headers: staff });
    expect(asStaff.statusCode).toBe(403);
    expect(asStaff.json().detail).toMatch(/Telegram/);
  });

  it('DELETE cancels upcoming bookings through the engine (queue fills, staff told), then no value of hers is left anywhere', async () => {
    const db = t.database.db;
    const totalBefore = await countRecords();
    const pastBefore = (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${pastSchedule}`, headers: staff }))
      .json()
      .records.map(
        (r: { id: number; state: string; people_count: number; source: string; is_first_time: boolean }) => ({
          id: r.id,
          state: r.state,
          people_count: r.people_count,
          source: r.source,
          is_first_time: r.is_first_time,
        }),
      );
    const statsUrl = `/api/v1/stats/?from=${encodeURIComponent(inDays(-30))}&to=${encodeURIComponent(inDays(-1))}`;
    const stats = async () => {
      const r = await t.app.inject({ method: 'GET', url: statsUrl, headers: staff });
      expect(r.statusCode).toBe(200);
      // The coming week (next_days) changes: her upcoming bookings are cancelled and the queue moves up.
      const { next_days: _coming, ...past } = r.json<Stats>();
      return past;
    };
    // The dashboard's statistics of the past, where her attended booking counts.
    const statsBefore = await stats();
    const digests = await db.selectFrom('notifications').select('payload').where('kind', '=', 'staff.digest').execute();
    expect(digests.some((d) => d.payload.includes(ALLERGY))).toBe(true);
    // Before: her values are there (the search finds what it looks for).
    expect((await findEverywhere(t.database, [NAME, zina.username, String(zina.id)])).length).toBeGreaterThan(3);

    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(zina) });
    expect(res.statusCode).toBe(200);
    // The upcoming one and the one staff took by phone; the past and the cancelled ones are only anonymised.
    expect(res.json()).toEqual({ cancelled: 2, anonymised: 4, owed: 0 });

    // The queue filled, and staff were told of the cancellation (without her name).
    expect((await recordRow(queued)).state).toBe('ACTIVE');
    const alerts = await db
      .selectFrom('notifications')
      .selectAll()
      .where('chat_id', '=', staffChat)
      .where('kind', '=', 'staff.cancelled')
      .execute();
    expect(alerts).toHaveLength(3);
    const told = alerts.map((a) => JSON.parse(a.payload).record);
    expect(told.find((r: { record_id: number }) => r.record_id === ids.upcoming)).toMatchObject({
      state: 'CANCELLED',
      name: ERASED_NAME,
      cancel_reason: 'Клиент удалил свои персональные данные',
    });
    // The waiting customer got their promotion message.
    expect(
      await db.selectFrom('notifications').select('kind').where('kind', '=', 'record.promoted').execute(),
    ).toHaveLength(1);

    // Nothing of hers anywhere: every text column of every table, and every column for her id.
    expect(await findEverywhere(t.database, [NAME, LAST, zina.username, String(zina.id), COMMENT, ALLERGY])).toEqual(
      [],
    );

    // Rows stay for counts and statistics: the same rows, party sizes, states and sources; staff see "Удалено".
    expect(await countRecords()).toBe(totalBefore);
    const pastAfter = (
      await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${pastSchedule}`, headers: staff })
    ).json().records;
    expect(
      pastAfter.map(
        (r: { id: number; state: string; people_count: number; source: string; is_first_time: boolean }) => ({
          id: r.id,
          state: r.state,
          people_count: r.people_count,
          source: r.source,
          is_first_time: r.is_first_time,
        }),
      ),
    ).toEqual(pastBefore);
    expect(pastAfter.find((r: { id: number }) => r.id === ids.past)).toMatchObject({
      name: ERASED_NAME,
      last_name: null,
      telegram_id: null,
      telegram_login: null,
      comment: null,
      has_allergy: false,
      allergy_type: null,
    });
    expect(pastAfter.find((r: { id: number }) => r.id === ids.other).name).toBe('Борислав');
    expect(await stats()).toEqual(statsBefore);

    // Asked again: nothing left to show, nothing to do.
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/me/data', headers: tma(zina) });
    expect(again.json()).toMatchObject({ bookings: [], subscriptions: [], history: [], messages: 0 });
    const twice = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(zina) });
    expect(twice.json()).toEqual({ cancelled: 0, anonymised: 0, owed: 0 });
  });

  it('refuses staff: erasure is the Telegram user’s own request', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: staff });
    expect(res.statusCode).toBe(403);
  });
});

describe('a request that reached the studio another way', () => {
  it('a superuser exports and erases a Telegram user’s data; the log says who did it, not whose', async () => {
    const { schedule } = await createSession(t.app, staff);
    const who = telegramUser('by_email');
    const id = (await book(t.app, who, bookingPayload(schedule.id, { name: 'Радмила', last_name: 'Писала' }))).json()
      .record.id;
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: staff,
      payload: { email: 'not-super@example.com', password: 'password-123', is_active: true },
    });
    expect(plain.statusCode).toBe(201);
    const notSuper = await t.auth('not-super@example.com', 'password-123');
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/customers/${who.id}/data`, headers: notSuper })).statusCode,
    ).toBe(403);

    const data = await t.app.inject({ method: 'GET', url: `/api/v1/customers/${who.id}/data`, headers: staff });
    expect(data.json().bookings.map((b: { id: number; last_name: string }) => [b.id, b.last_name])).toEqual([
      [id, 'Писала'],
    ]);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/customers/${who.id}/data`, headers: staff });
    expect(res.json()).toEqual({ cancelled: 1, anonymised: 1, owed: 0 });
    expect(await findEverywhere(t.database, ['Писала', who.username, String(who.id)])).toEqual([]);
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json();
    const log = await t.app.inject({ method: 'GET', url: '/api/v1/audit/?entity=personal_data', headers: staff });
    expect(log.json().data[0]).toMatchObject({
      action: 'erased',
      actor: { kind: 'staff', user_id: me.id },
      after: { cancelled: 1, anonymised: 1, owed: 0 },
    });
  });
});

describe('the personal fields each kind declares', () => {
  // A digest written the day before, listing her (booking 7) and someone else (booking 8).
  const her = { record_id: 7, telegram_id: 777_000_123, name: 'Зиновия', last_name: 'Квасникова' };
  const digest = {
    schedule: {
      schedule_id: 3,
      date: '2030-12-05T11:00:00.000Z',
      workshop_title: 'Паста',
      address_title: 'Улица',
      address_description: null,
      map_link: 'x',
    },
    capacity: 8,
    participants: [
      {
        ...her,
        telegram_login: 'zinovia_kv',
        people_count: 2,
        has_allergy: true,
        allergy_type: 'кешью',
        comment: 'Окно',
        is_first_time: true,
      },
      {
        record_id: 8,
        telegram_id: 5,
        name: 'Борислав',
        last_name: null,
        telegram_login: null,
        people_count: 1,
        has_allergy: true,
        allergy_type: 'мёд',
        comment: null,
        is_first_time: false,
      },
    ],
    total_people: 3,
    allergies: [
      { record_id: 7, telegram_id: her.telegram_id, name: 'Зиновия Квасникова', allergy: 'кешью' },
      { record_id: 8, telegram_id: 5, name: 'Борислав', allergy: 'мёд' },
    ],
    // A line written before lines named their booking: found by her name among the participants.
    comments: [{ name: 'Зиновия Квасникова', comment: 'Окно' }],
    queue: [],
  };

  it('every personal field of every notification kind has an owner, and names, logins, allergies and comments are among them', () => {
    const paths = personalPaths(Notification);
    expect(paths.filter((p) => !p.owned)).toEqual([]);
    const names = new Set(paths.map((p) => p.path));
    for (const p of [
      'payload.record.name',
      'payload.record.last_name',
      'payload.record.telegram_id',
      'payload.record.telegram_login',
      'payload.record.comment',
      'payload.record.has_allergy',
      'payload.record.allergy_type',
      'payload.giver_name',
      'payload.giver_telegram_id',
      'payload.receiver_name',
      'payload.participants[].name',
      'payload.allergies[].allergy',
      'payload.comments[].name',
      'payload.queue[].last_name',
    ])
      expect(names).toContain(p);
  });

  it('erases her values by the schema, wherever they are her booking’s, and nobody else’s', () => {
    expect(erasePersonalInPayload('staff.digest', digest, personErasure(her.telegram_id, [7], []))).toEqual({
      ...digest,
      participants: [
        {
          record_id: 7,
          telegram_id: null,
          name: ERASED_NAME,
          last_name: null,
          telegram_login: null,
          people_count: 2,
          has_allergy: false,
          allergy_type: null,
          comment: null,
          is_first_time: true,
        },
        digest.participants[1],
      ],
      allergies: [{ record_id: 7, telegram_id: null, name: ERASED_NAME, allergy: ERASED_NAME }, digest.allergies[1]],
      comments: [{ name: ERASED_NAME, comment: ERASED_NAME }],
    });
    // A seat she gave away: her name as the giver goes, the friend's booking stays the friend's.
    const gift = {
      schedule: digest.schedule,
      record: { ...digest.participants[1], state: 'ACTIVE', source: null, cancel_reason: null, queue_position: null },
      giver_name: 'Зиновия Квасникова',
      giver_telegram_id: her.telegram_id,
      receiver_name: 'Борислав',
    };
    expect(erasePersonalInPayload('staff.transferred', gift, personErasure(her.telegram_id, [], [8]))).toEqual({
      ...gift,
      giver_name: ERASED_NAME,
      giver_telegram_id: null,
    });
    // The friend's erasure leaves the giver's name to the giver.
    expect(erasePersonalInPayload('staff.transferred', gift, personErasure(5, [8], []))).toMatchObject({
      giver_name: 'Зиновия Квасникова',
      receiver_name: ERASED_NAME,
      record: { name: ERASED_NAME, telegram_id: null },
    });
  });

  it('at the first retention step only allergies and comments go, of every owner of the booking', () => {
    const erased = erasePersonalInPayload('staff.digest', digest, bookingsErasure([7], 'health')) as typeof digest;
    expect(erased.participants[0]).toMatchObject({
      name: 'Зиновия',
      has_allergy: false,
      allergy_type: null,
      comment: null,
    });
    expect(erased.allergies[0]).toEqual({ ...digest.allergies[0], allergy: ERASED_NAME });
    expect(erased.participants[1]).toEqual(digest.participants[1]);
  });
});

describe('erasure of a customer who gave their seat to a friend', () => {
  // Values nobody else in this file uses.
  const GIVER = {
    name: 'Евпраксия',
    last_name: 'Гостомыслова',
    comment: 'Сяду поближе к плите',
    allergy: 'фундук и кунжут',
  };
  const FRIEND = { name: 'Ярослава', last_name: 'Подаренная' };
  const giverValues = (u: { id: number; username: string }) => [
    GIVER.name,
    GIVER.last_name,
    GIVER.comment,
    GIVER.allergy,
    u.username,
    String(u.id),
  ];

  /** The giver books (staff get a new-booking alert, still waiting to be sent), gives the seat, the friend accepts. */
  async function giveSeat(
    app: TestApp,
    giver: { id: number; username: string },
    friend: { id: number; username: string },
  ) {
    const admin = await app.auth();
    const me = (await app.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: admin })).json();
    const { token } = await createLinkToken(app.database, me.id);
    await consumeLinkToken(app.database, token, { id: 880_077, username: 'chef_gift' });
    const { schedule } = await createSession(app.app, admin);
    const booked = await book(
      app.app,
      giver,
      bookingPayload(schedule.id, {
        name: GIVER.name,
        last_name: GIVER.last_name,
        comment: GIVER.comment,
        has_allergy: true,
        allergy_type: GIVER.allergy,
        people_count: 2,
      }),
    );
    const id: number = booked.json().record.id;
    const link = await app.app.inject({ method: 'POST', url: `/api/v1/records/${id}/gift`, headers: tma(giver) });
    expect(link.statusCode).toBe(200);
    const accepted = await app.app.inject({
      method: 'POST',
      url: `/api/v1/gifts/${/start=gift_([\w-]+)$/.exec(link.json().url)![1]}/accept`,
      headers: tma(friend),
      payload: { ...FRIEND, has_allergy: false, consent: true },
    });
    expect(accepted.statusCode).toBe(200);
    const pending = await app.database.db
      .selectFrom('notifications')
      .select(['kind', 'status', 'payload'])
      .where('chat_id', '=', 880_077)
      .execute();
    expect(pending.map((n) => [n.kind, n.status])).toEqual([
      ['staff.new_record', 'pending'],
      ['staff.transferred', 'pending'],
    ]);
    // Before: the search finds the giver's values (it finds what it looks for).
    expect((await findEverywhere(app.database, giverValues(giver))).length).toBeGreaterThanOrEqual(6);
    return id;
  }

  /** Nothing of the giver anywhere; the friend's booking, messages and history intact; the staff alert waits without the giver. */
  async function expectOnlyTheFriendLeft(
    app: TestApp,
    id: number,
    giver: { id: number; username: string },
    friend: { id: number; username: string },
  ) {
    expect(await findEverywhere(app.database, giverValues(giver))).toEqual([]);
    const admin = await app.auth();
    const view = await app.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: admin });
    expect(view.json().record).toMatchObject({
      ...FRIEND,
      telegram_id: friend.id,
      telegram_login: friend.username,
      people_count: 2,
    });
    const rows = await app.database.db
      .selectFrom('notifications')
      .select(['kind', 'status', 'payload', 'chat_id'])
      .where('chat_id', 'in', [880_077, friend.id])
      .orderBy('id')
      .execute();
    const staffNew = JSON.parse(rows.find((n) => n.kind === 'staff.new_record')!.payload);
    expect(rows.find((n) => n.kind === 'staff.new_record')!.status).toBe('pending');
    expect(staffNew.record).toMatchObject({
      record_id: id,
      name: ERASED_NAME,
      last_name: null,
      telegram_login: null,
      comment: null,
      has_allergy: false,
      allergy_type: null,
      people_count: 2,
    });
    for (const kind of ['staff.transferred', 'record.received']) {
      const p = JSON.parse(rows.find((n) => n.kind === kind)!.payload);
      expect(p).toMatchObject({ giver_name: ERASED_NAME, receiver_name: `${FRIEND.name} ${FRIEND.last_name}` });
      expect(p.record).toMatchObject({
        name: FRIEND.name,
        last_name: FRIEND.last_name,
        telegram_login: friend.username,
      });
    }
    const history = await app.app.inject({ method: 'GET', url: `/api/v1/records/${id}/history`, headers: admin });
    const entries: { action: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }[] =
      history.json().data;
    expect(entries.find((h) => h.action === 'created')!.after).toMatchObject({ name: ERASED_NAME, people_count: 2 });
    expect(entries.find((h) => h.action === 'transferred')).toMatchObject({
      before: { telegram_id: null, name: ERASED_NAME },
      after: { telegram_id: friend.id, name: FRIEND.name },
    });
  }

  it('DELETE /me/data: the giver’s name, last name, allergy and comment leave the staff alert, the friend’s messages and the history', async () => {
    const giver = { id: 778_100_201, username: 'evpraksia_api', first_name: 'Евпраксия' };
    const friend = { id: 778_200_301, username: 'yaroslava_api', first_name: 'Ярослава' };
    const id = await giveSeat(t, giver, friend);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(giver) });
    expect(res.statusCode).toBe(200);
    // Nothing to cancel (the booking is the friend's); one booking whose values of hers were erased.
    expect(res.json()).toEqual({ cancelled: 0, anonymised: 1, owed: 0 });
    await expectOnlyTheFriendLeft(t, id, giver, friend);
    const again = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(giver) });
    expect(again.json()).toEqual({ cancelled: 0, anonymised: 0, owed: 0 });
  });

  it('/forget in the bot does the same', async () => {
    const fake = await startFakeTelegram();
    const app = await botTestApp(fake);
    try {
      const giver = { id: 778_100_202, username: 'evpraksia_bot', first_name: 'Евпраксия' };
      const friend = { id: 778_200_302, username: 'yaroslava_bot', first_name: 'Ярослава' };
      const id = await giveSeat(app, giver, friend);
      const u = tgUser(giver.id, giver.username);
      for (const update of [
        textUpdate(u, '/forget'),
        callbackUpdate(u, encodeCallbackData({ kind: 'forget', yes: true })),
      ])
        expect((await postUpdate(app.app, app.config.webhookSecret, update)).statusCode).toBe(200);
      expect(fake.ok('answerCallbackQuery').at(-1)!.params.text).toBe('Данные удалены');
      await expectOnlyTheFriendLeft(app, id, giver, friend);
    } finally {
      await app.close();
      await fake.close();
    }
  });
});

describe('deleting a staff user', () => {
  it('keeps what they did, attributed to "удалённый пользователь", and the bookings they took', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: staff,
      payload: { email: 'leaving@example.com', password: 'password-123', full_name: 'Уходящий', is_active: true },
    });
    const userId: number = created.json().id;
    const leaving = await t.auth('leaving@example.com', 'password-123');
    const { schedule } = await createSession(t.app, leaving);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: leaving,
      payload: bookingPayload(schedule.id, { name: 'Звонила по телефону', consent: undefined }),
    });
    const recordId: number = booked.json().record.id;

    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${userId}`, headers: staff });
    expect(del.statusCode).toBe(200);
    const history = await t.app.inject({ method: 'GET', url: `/api/v1/records/${recordId}/history`, headers: staff });
    expect(history.statusCode).toBe(200);
    expect(history.json().data).toEqual([
      expect.objectContaining({
        action: 'created',
        actor: expect.objectContaining({ kind: 'staff', user_id: userId, name: 'удалённый пользователь' }),
      }),
    ]);
    const view = (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${schedule.id}`, headers: staff })).json();
    expect(view.records.map((r: { name: string }) => r.name)).toEqual(['Звонила по телефону']);
  });
});

describe('retention', () => {
  // Its own database: the schedules above would be due too.
  let main: TestApp;
  beforeAll(async () => {
    main = t;
    t = await buildTestApp();
    staff = await t.auth();
  });
  afterAll(async () => {
    await t.close();
    t = main;
  });

  it('erases allergy and comment after allergy_retention_days, the rest after retention_days, on schedule and once', async () => {
    const { schedule } = await createSession(t.app, staff, { date: inDays(2) });
    const who = telegramUser('retained');
    const id = (
      await book(
        t.app,
        who,
        bookingPayload(schedule.id, {
          name: 'Ольга',
          last_name: 'Старожилова',
          comment: 'Окно у плиты',
          has_allergy: true,
          allergy_type: 'глютен',
          people_count: 3,
          source: 'friends',
        }),
      )
    ).json().record.id;
    const start = Date.now() + 2 * DAY_MS;
    const at = (days: number) => new Date(start + days * DAY_MS);

    // Not yet due: nothing changes.
    expect((await t.scheduler.runOnce(at(29))).retention).toBe(0);
    expect(await recordRow(id)).toMatchObject({ comment: 'Окно у плиты', allergy_type: 'глютен' });

    // 30 days after the session: health data and comment go, the name stays.
    expect((await t.scheduler.runOnce(at(31))).retention).toBeGreaterThanOrEqual(1);
    expect(await recordRow(id)).toMatchObject({
      name: 'Ольга',
      last_name: 'Старожилова',
      telegram_id: who.id,
      comment: null,
      allergy_type: null,
      people_count: 3,
      source: 'friends',
    });
    expect(Boolean((await recordRow(id)).has_allergy)).toBe(false);
    expect(await findEverywhere(t.database, ['Окно у плиты', 'глютен'])).toEqual([]);
    expect((await t.scheduler.runOnce(at(31))).retention).toBe(0);

    // A year on: everything personal; staff see "Удалено"; the row and its statistics stay.
    const totalBefore = await countRecords();
    const n = (await t.scheduler.runOnce(at(366))).retention;
    expect(n).toBeGreaterThanOrEqual(1);
    expect(await recordRow(id)).toMatchObject({
      name: ERASED_NAME,
      last_name: null,
      telegram_id: null,
      telegram_login: null,
      people_count: 3,
      state: 'ACTIVE',
      source: 'friends',
    });
    const view = (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${schedule.id}`, headers: staff })).json();
    expect(view.records.find((r: { id: number }) => r.id === id).name).toBe(ERASED_NAME);
    expect(await countRecords()).toBe(totalBefore);
    expect(await findEverywhere(t.database, ['Старожилова', who.username])).toEqual([]);
    expect((await t.scheduler.runOnce(at(366))).retention).toBe(0);
  });

  it('deletes delivered messages older than 30 days and keeps pending ones', async () => {
    const db = t.database.db;
    const old = new Date(Date.now() - 31 * DAY_MS).toISOString();
    const row = (status: 'sent' | 'pending', created_at: string) => ({
      chat_id: 990_001,
      kind: 'record.booked',
      payload: '{}',
      status,
      attempts: status === 'sent' ? 1 : 0,
      next_attempt_at: created_at,
      locked_until: null,
      last_error: null,
      dedupe_key: null,
      created_at,
      sent_at: status === 'sent' ? created_at : null,
    });
    await db
      .insertInto('notifications')
      .values([row('sent', old), row('pending', old), row('sent', new Date().toISOString())])
      .execute();
    expect((await t.scheduler.runOnce()).retention).toBe(1);
    const left = await db.selectFrom('notifications').select('status').where('chat_id', '=', 990_001).execute();
    expect(left.map((r) => r.status).sort()).toEqual(['pending', 'sent']);
    expect((await t.scheduler.runOnce()).retention).toBe(0);
  });
});
