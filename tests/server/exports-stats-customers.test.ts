import { toZonedInput } from '../../contract/format';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { CustomerDetail, CustomersPage, Stats } from '../../contract';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const get = (url: string, headers: Record<string, string> = staff) => t.app.inject({ method: 'GET', url, headers });
const mark = (id: number, attendance: string) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/records/${id}/attendance`, headers: staff, payload: { attendance } });
/** Parses CSV as Excel would: BOM stripped, ';' separated, quoted fields with quotes and line breaks. */
const parseCsv = (body: string): string[][] => parse(body, { delimiter: ';', bom: true, relax_column_count: false });

describe("the chef's list", () => {
  it('exports ACTIVE then QUEUED participants as UTF-8 CSV with BOM and ";", surviving ; quotes and newlines', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 2 });
    const tricky = telegramUser('tricky');
    await book(
      t.app,
      tricky,
      bookingPayload(schedule.id, {
        name: 'Анна; "Аня"',
        last_name: 'Петрова\nСмирнова',
        people_count: 2,
        has_allergy: true,
        allergy_type: 'орехи; мёд',
        comment: '=1+1',
        source: 'friends',
      }),
    );
    const queued = telegramUser('queued');
    await book(t.app, queued, bookingPayload(schedule.id, { name: 'Борис', is_first_time: false }));
    const cancelled = telegramUser('gone');
    const gone = (await book(t.app, cancelled, bookingPayload(schedule.id, { name: 'Отменивший' }))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${gone}`,
      headers: tma(cancelled),
      payload: { cancel_reason: 'x' },
    });

    const res = await get(`/api/v1/schedule/${schedule.id}/participants.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual([
      'Имя',
      'Фамилия',
      'Telegram',
      'Количество',
      'Статус',
      'Аллергия',
      'Комментарий',
      'Впервые',
      'Источник',
      'Подтверждение',
      'Посещение',
      'Заметка',
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual([
      'Анна; "Аня"',
      'Петрова\nСмирнова',
      'https://t.me/tricky',
      '2',
      'Участник',
      'орехи; мёд',
      "'=1+1",
      'Да',
      'От друзей и знакомых',
      '',
      '',
      '',
    ]);
    expect(rows[2].slice(0, 5)).toEqual(['Борис', 'Петрова', 'https://t.me/queued', '1', 'В очереди']);
    expect(rows[2][7]).toBe('Нет');
  });

  it('exports every booking of a date range with its session, and marks attendance', async () => {
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(30) });
    const c = telegramUser();
    const id = (await book(t.app, c, bookingPayload(schedule.id, { name: 'Вера' }))).json().record.id;
    await mark(id, 'ATTENDED');
    // The studio's date of the session (a bare day in a filter is a day in BUSINESS_TIMEZONE).
    const day = toZonedInput(inMinutes(30), t.config.businessTimezone).slice(0, 10);
    const res = await get(`/api/v1/records/export.csv?from=${day}&to=${day}`);
    expect(res.statusCode).toBe(200);
    const rows = parseCsv(res.body);
    expect(rows[0].slice(0, 3)).toEqual(['Дата', 'Мастер-класс', 'Имя']);
    const vera = rows.find((r) => r[2] === 'Вера');
    expect(vera?.[1]).toBe('Паста');
    expect(vera?.at(-2)).toBe('Пришёл');
    const none = parseCsv((await get('/api/v1/records/export.csv?from=2001-01-01&to=2001-01-02')).body);
    expect(none).toHaveLength(1);
    expect((await get('/api/v1/records/export.csv?from=вчера')).statusCode).toBe(422);
    expect((await get('/api/v1/schedule/999999/participants.csv')).statusCode).toBe(404);
  });
});

describe('dashboard figures', () => {
  it('adds up a period: fill, bookings, cancellations by reason, no-shows, sources, revenue, queue, next 7 days', async () => {
    const from = inMinutes(40);
    const { schedule, workshop } = await createSession(t.app, staff, { date: inMinutes(45), capacity: 3, price: 1000 });
    const a = telegramUser();
    const b = telegramUser();
    const c = telegramUser();
    const d = telegramUser();
    const ra = (await book(t.app, a, bookingPayload(schedule.id, { people_count: 2, source: 'instagram' }))).json()
      .record.id;
    const rb = (await book(t.app, b, bookingPayload(schedule.id, { source: 'friends', is_first_time: false }))).json()
      .record.id;
    await book(t.app, c, bookingPayload(schedule.id, { people_count: 3 })); // queued
    const rd = (await book(t.app, d, bookingPayload(schedule.id, { people_count: 3 }))).json().record.id; // queued
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${rd}`,
      headers: tma(d),
      payload: { cancel_reason: 'Заболел' },
    });
    await mark(ra, 'ATTENDED');
    await mark(rb, 'NO_SHOW');

    const res = await get(`/api/v1/stats/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(inMinutes(50))}`);
    expect(res.statusCode).toBe(200);
    const s = res.json<Stats>();
    expect(s).toMatchObject({
      schedules: 1,
      capacity: 3,
      seats_sold: 3,
      fill_rate: 1,
      bookings: 4,
      cancellations: 1,
      cancel_reasons: [{ reason: 'Заболел', count: 1 }],
      attended: 1,
      no_shows: 1,
      no_show_rate: 0.5,
      first_timers: 2,
      revenue_estimate: 2000,
      queue_demand: [{ workshop_id: workshop.id, title: 'Паста', bookings: 1, people: 3 }],
    });
    expect(s.sources).toEqual(
      expect.arrayContaining([
        { source: 'instagram', bookings: 2, attended: 1 },
        { source: 'friends', bookings: 1, attended: 0 },
      ]),
    );
    expect(s.next_days.find((n) => n.schedule_id === schedule.id)).toMatchObject({ capacity: 3, taken: 3, queued: 3 });
    const empty = (await get('/api/v1/stats/?from=2001-01-01&to=2001-01-31')).json<Stats>();
    expect(empty).toMatchObject({ schedules: 0, bookings: 0, fill_rate: null, no_show_rate: null });
  });
  it('says bookings made in the period apart from bookings of its sessions, and the refunds owed now', async () => {
    const stats = async (from: string, to: string) =>
      (await get(`/api/v1/stats/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).json<Stats>();
    const from = inMinutes(-60);
    const before = await stats(from, inMinutes(1));
    // Three bookings taken today for a session next week: made today, but no session of today holds them.
    const date = inMinutes(6 * 24 * 60 + 7);
    const { schedule } = await createSession(t.app, staff, { date, capacity: 10, price: 1000 });
    const ids: number[] = [];
    for (const people of [1, 2, 3])
      ids.push(
        (await book(t.app, telegramUser(), bookingPayload(schedule.id, { people_count: people }))).json().record.id,
      );
    // One paid in cash, then cancelled while cancelled money is given back by staff: the studio owes it.
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { prepayment: 'none', refund_to: 'refund' },
    });
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${ids[0]}/payments`,
      headers: staff,
      payload: { method: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const cancelled = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ids[0]}`,
      headers: staff,
      payload: { cancel_reason: 'Заболел' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    const today = await stats(from, inMinutes(1));
    expect({
      bookings_made: today.bookings_made - before.bookings_made,
      people_made: today.people_made - before.people_made,
      bookings: today.bookings - before.bookings,
      schedules: today.schedules - before.schedules,
      revenue: today.revenue - before.revenue,
      refunds_owed: today.refunds_owed - before.refunds_owed,
    }).toEqual({ bookings_made: 3, people_made: 6, bookings: 0, schedules: 0, revenue: 1000, refunds_owed: 1000 });
    // The session's own period counts its bookings, made whenever; none was made in it.
    const held = await stats(
      new Date(Date.parse(date) - 60_000).toISOString(),
      new Date(Date.parse(date) + 60_000).toISOString(),
    );
    expect(held).toMatchObject({ bookings: 3, bookings_made: 0, schedules: 1 });
    // What is owed back is as of now, whatever the period.
    const past = await stats('2001-01-01', '2001-01-31');
    expect(past).toMatchObject({ bookings_made: 0, people_made: 0, refunds_owed: today.refunds_owed });
  });
});

describe('customers', () => {
  it('lists one row per Telegram user with their counts, searchable by Cyrillic name or login in any case', async () => {
    const ivan = telegramUser('ivan_the_cook');
    const { schedule: s1 } = await createSession(t.app, staff, { date: inMinutes(30) });
    const { schedule: s2 } = await createSession(t.app, staff);
    const r1 = (
      await book(
        t.app,
        ivan,
        bookingPayload(s1.id, { name: 'Иван', last_name: 'Грозный', has_allergy: true, allergy_type: 'глютен' }),
      )
    ).json().record.id;
    await mark(r1, 'NO_SHOW');
    const r2 = (await book(t.app, ivan, bookingPayload(s2.id, { name: 'Иван', last_name: 'Грозный' }))).json().record
      .id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${r2}`,
      headers: tma(ivan),
      payload: { cancel_reason: 'Дела' },
    });

    for (const q of ['иван', 'ГРОЗН', 'THE_COOK']) {
      const page = (await get(`/api/v1/customers/?q=${encodeURIComponent(q)}`)).json<CustomersPage>();
      expect(page.count).toBe(1);
      expect(page.data[0]).toMatchObject({
        telegram_id: ivan.id,
        telegram_login: 'ivan_the_cook',
        name: 'Иван',
        bookings: 2,
        no_shows: 1,
        attended: 0,
        cancellations: 1,
        allergies: ['глютен'],
      });
    }
    expect((await get('/api/v1/customers/?q=%25')).json<CustomersPage>().count).toBe(0);
    const all = (await get('/api/v1/customers/?limit=1')).json<CustomersPage>();
    expect(all.data).toHaveLength(1);
    expect(all.count).toBeGreaterThan(1);

    const detail = (await get(`/api/v1/customers/${ivan.id}`)).json<CustomerDetail>();
    expect(detail.records.map((r) => [r.state, r.attendance])).toEqual([
      ['CANCELLED', null],
      ['ACTIVE', 'NO_SHOW'],
    ]);
    expect((await get('/api/v1/customers/1')).statusCode).toBe(404);
  });
});
