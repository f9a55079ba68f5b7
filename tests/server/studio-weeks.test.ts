import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { renderNotification } from '../../bot/messages';
import { formatWeekday, toZonedInput } from '../../contract/format';
import { readNotification } from '../../core/notify/notifications';
import { consumeLinkToken, createLinkToken } from '../../core/staff/telegram-link';
import { buildTestApp, type TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

let t: TestApp;
let staff: { authorization: string };
const staffChat = 880_021;
beforeAll(async () => {
  t = await buildTestApp();
  staff = await t.auth();
  // Staff linked to Telegram, so cancellations reach them.
  const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json();
  const { token } = await createLinkToken(t.database, me.id);
  await consumeLinkToken(t.database, token, { id: staffChat, username: 'chef' });
});
afterAll(() => t.close());

type User = ReturnType<typeof telegramUser>;
const outbox = (chatId: number) =>
  t.database.db
    .selectFrom('notifications')
    .select(['kind', 'payload'])
    .where('chat_id', '=', chatId)
    .orderBy('id')
    .execute();
const rc = {
  publicUrl: 'https://studio.example',
  timezone: 'Europe/Belgrade',
  businessName: 'Студия',
  calendarPath: (id: number) => `/cal/${id}`,
};
const cancelSession = (id: number, payload: unknown, headers: Record<string, string> = staff) =>
  t.app.inject({ method: 'POST', url: `/api/v1/schedule/${id}/cancel`, headers, payload: payload as object });

describe('staff cancel a session', () => {
  it('cancels every booking (queue first: nobody promoted), refunds to credit, tells customers the reason with other dates, alerts staff', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { prepayment: 'none', refund_to: 'credit' },
    });
    const { schedule, workshop } = await createSession(t.app, staff, { capacity: 2, price: 2000 });
    const [anna, boris, vera]: User[] = [telegramUser(), telegramUser(), telegramUser()];
    const a = (await book(t.app, anna, bookingPayload(schedule.id, { people_count: 2 }))).json().record;
    const b = (await book(t.app, boris, bookingPayload(schedule.id))).json().record;
    expect(b.state).toBe('QUEUED');
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${a.id}/payments`,
      headers: staff,
      payload: { method: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(201);

    const res = await cancelSession(schedule.id, { reason: 'Шеф заболел' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ cancel_reason: 'Шеф заболел', places_available: 2 });
    expect(res.json().cancelled_at).toEqual(expect.any(String));
    expect(res.json().records.map((r: { state: string; cancel_reason: string }) => [r.state, r.cancel_reason])).toEqual(
      [
        ['CANCELLED', 'Шеф заболел'],
        ['CANCELLED', 'Шеф заболел'],
      ],
    );
    // Nobody was promoted on the way (the queue was emptied first).
    expect((await outbox(boris.id)).map((n) => n.kind)).toEqual(['record.queued', 'schedule.cancelled']);
    const told = (await outbox(anna.id)).at(-1)!;
    expect(told.kind).toBe('schedule.cancelled');
    const n = readNotification(told.kind, told.payload);
    expect(n.kind === 'schedule.cancelled' && n.payload.money).toMatchObject({ to_credit: 4000 });
    const msg = renderNotification(n, rc) as { text: string; reply_markup: { inline_keyboard: unknown[][] } };
    expect(msg.text).toContain('Причина: Шеф заболел');
    expect(msg.text).toContain('Оплаченные 4\u00a0000\u00a0RSD зачислены на ваш баланс в студии');
    expect(msg.reply_markup.inline_keyboard).toEqual([
      [{ text: 'Другие даты', web_app: { url: `https://studio.example/apply?workshop=${workshop.id}` } }],
    ]);
    const credit = await t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(anna) });
    expect(credit.json().balance).toBe(4000);
    // Staff hear of the session once, not once per booking.
    expect((await outbox(staffChat)).filter((x) => x.kind === 'staff.cancelled')).toHaveLength(0);
    expect((await outbox(staffChat)).filter((x) => x.kind === 'staff.session_cancelled')).toHaveLength(1);
    expect((await outbox(vera.id)).length).toBe(0);

    // Offered to nobody, not bookable, not restorable, not editable, in History with its reason.
    const open = (await t.app.inject({ method: 'GET', url: '/api/v1/schedule/public' })).json();
    expect(open.data.map((s: { id: number }) => s.id)).not.toContain(schedule.id);
    const again = await book(t.app, vera, bookingPayload(schedule.id));
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Мастер-класс отменён');
    const restore = await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${a.id}`, headers: tma(anna) });
    expect(restore.statusCode).toBe(409);
    expect(restore.json().detail).toBe('Мастер-класс отменён');
    const view = (await t.app.inject({ method: 'GET', url: `/api/v1/records/${a.id}`, headers: tma(anna) })).json();
    expect(view.allowed.restore).toMatchObject({ ok: false, reason: 'session_cancelled' });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { capacity: 10 },
    });
    expect(edit.statusCode).toBe(409);
    const upcoming = (await t.app.inject({ method: 'GET', url: '/api/v1/schedule/', headers: staff })).json();
    expect(upcoming.data.map((s: { id: number }) => s.id)).not.toContain(schedule.id);
    const past = (await t.app.inject({ method: 'GET', url: '/api/v1/schedule/past', headers: staff })).json();
    expect(past.data.find((s: { id: number }) => s.id === schedule.id)).toMatchObject({ cancel_reason: 'Шеф заболел' });

    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'schedule')
      .where('entity_id', '=', schedule.id)
      .where('action', '=', 'cancelled')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].after!)).toEqual({ reason: 'Шеф заболел' });

    // Twice is refused and changes nothing.
    const twice = await cancelSession(schedule.id, { reason: 'Ещё раз' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe('Мастер-класс уже отменён');
    expect((await outbox(anna.id)).filter((x) => x.kind === 'schedule.cancelled')).toHaveLength(1);
  });

  it('is not counted in the fill rates of the dashboard', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/v1/stats/', headers: staff })).json();
    const { schedule } = await createSession(t.app, staff, { capacity: 5 });
    const withIt = (await t.app.inject({ method: 'GET', url: '/api/v1/stats/', headers: staff })).json();
    const ids = (s: { next_days: { schedule_id: number }[] }) => s.next_days.map((u) => u.schedule_id);
    expect(ids(withIt)).toContain(schedule.id);
    expect((await cancelSession(schedule.id, { reason: 'Ремонт кухни' })).statusCode).toBe(200);
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/stats/', headers: staff })).json();
    expect(ids(after)).not.toContain(schedule.id);
    expect(after.next_days.length).toBe(before.next_days.length);
  });

  it('leaves the period’s sessions, places and fill rate as they were without it', async () => {
    const range = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 30 * 86_400_000).toISOString()}`;
    const period = async () => {
      const s = (await t.app.inject({ method: 'GET', url: `/api/v1/stats/?${range}`, headers: staff })).json();
      return { schedules: s.schedules, capacity: s.capacity, seats_sold: s.seats_sold, fill_rate: s.fill_rate };
    };
    const before = await period();
    const { schedule } = await createSession(t.app, staff, { capacity: 5 });
    expect((await book(t.app, telegramUser(), bookingPayload(schedule.id, { people_count: 2 }))).statusCode).toBe(201);
    const withIt = await period();
    expect(withIt).toMatchObject({
      schedules: before.schedules + 1,
      capacity: before.capacity + 5,
      seats_sold: before.seats_sold + 2,
    });
    expect((await cancelSession(schedule.id, { reason: 'Ремонт кухни' })).statusCode).toBe(200);
    expect(await period()).toEqual(before);
  });

  it('refuses an empty reason, a past or missing session, and anyone but staff, changing nothing', async () => {
    const { schedule } = await createSession(t.app, staff);
    const empty = await cancelSession(schedule.id, { reason: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toContain('Укажите причину отмены');
    expect((await cancelSession(2_000_000, { reason: 'x' })).statusCode).toBe(404);
    expect((await cancelSession(schedule.id, { reason: 'x' }, {})).statusCode).toBe(401);
    expect((await cancelSession(schedule.id, { reason: 'x' }, tma(telegramUser()))).statusCode).toBe(401);
    const past = await createSession(t.app, staff, { date: new Date(Date.now() - 3_600_000).toISOString() });
    const old = await cancelSession(past.schedule.id, { reason: 'x' });
    expect(old.statusCode).toBe(409);
    const row = await t.database.db
      .selectFrom('schedules')
      .select('cancelled_at')
      .where('id', 'in', [schedule.id, past.schedule.id])
      .execute();
    expect(row.every((r) => r.cancelled_at === null)).toBe(true);
  });
});

describe('client notes', () => {
  const putNote = (telegramId: number, note: unknown, headers: Record<string, string> = staff) =>
    t.app.inject({ method: 'PUT', url: `/api/v1/customers/${telegramId}/note`, headers, payload: { note } });

  it('staff keep one note per customer: shown on every booking row, in the chef’s CSV and on Клиенты; audited without its text', async () => {
    const vera = telegramUser('vera_notes');
    const one = (await createSession(t.app, staff)).schedule;
    const two = (await createSession(t.app, staff)).schedule;
    await book(t.app, vera, bookingPayload(one.id, { name: 'Вера' }));
    await book(t.app, vera, bookingPayload(two.id, { name: 'Вера' }));
    await book(t.app, telegramUser(), bookingPayload(one.id, { name: 'Глеб' }));

    const res = await putNote(vera.id, '  Вегетарианка; всегда приносит вино  ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ telegram_id: vera.id, note: 'Вегетарианка; всегда приносит вино' });

    for (const id of [one.id, two.id]) {
      const s = (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${id}`, headers: staff })).json();
      const rows = s.records.map((r: { name: string; customer_note: string | null }) => [r.name, r.customer_note]);
      expect(rows).toContainEqual(['Вера', 'Вегетарианка; всегда приносит вино']);
      if (id === one.id) expect(rows).toContainEqual(['Глеб', null]);
    }
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/schedule/${one.id}/participants.csv`,
      headers: staff,
    });
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0].split(';').at(-1)).toBe('Заметка');
    // The note holds the field separator, so the cell is quoted.
    expect(lines.find((l) => l.startsWith('Вера;'))).toMatch(/;"Вегетарианка; всегда приносит вино"$/);
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/customers/?q=vera_notes', headers: staff })).json();
    expect(list.data[0]).toMatchObject({ telegram_id: vera.id, note: 'Вегетарианка; всегда приносит вино' });
    const card = (await t.app.inject({ method: 'GET', url: `/api/v1/customers/${vera.id}`, headers: staff })).json();
    expect(card.note).toBe('Вегетарианка; всегда приносит вино');

    const changed = await putNote(vera.id, 'Вегетарианка');
    expect(changed.statusCode).toBe(200);
    const removed = await putNote(vera.id, '');
    expect(removed.json()).toEqual({ telegram_id: vera.id, note: null });
    const log = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'customer_note')
      .orderBy('id')
      .execute();
    expect(log.map((l) => [l.action, l.before, l.after]).slice(-3)).toEqual([
      ['created', null, JSON.stringify({ chars: 34 })],
      ['updated', JSON.stringify({ chars: 34 }), JSON.stringify({ chars: 12 })],
      ['deleted', JSON.stringify({ chars: 12 }), null],
    ]);
    expect(JSON.stringify(log)).not.toContain('Вегетарианка');
  });

  it('refuses a note over 500 characters, an unknown customer and anyone but staff, changing nothing', async () => {
    const ivan = telegramUser();
    await book(t.app, ivan, bookingPayload((await createSession(t.app, staff)).schedule.id));
    const long = await putNote(ivan.id, 'а'.repeat(501));
    expect(long.statusCode).toBe(422);
    expect(long.json().detail).toContain('Заметка: не больше 500 символов');
    const unknown = await putNote(1_999_999_999, 'x');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('Клиент не найден');
    expect((await putNote(ivan.id, 'x', {})).statusCode).toBe(401);
    expect((await putNote(ivan.id, 'x', tma(ivan))).statusCode).toBe(401);
    expect((await putNote(ivan.id, 'а'.repeat(500))).statusCode).toBe(200);
    const rows = await t.database.db
      .selectFrom('customer_notes')
      .select('note')
      .where('telegram_id', '=', ivan.id)
      .execute();
    expect(rows.map((r) => r.note.length)).toEqual([500]);
  });

  it('is personal data: exported by /mydata, erased by /forget and by retention', async () => {
    const zoe = telegramUser();
    const old = telegramUser();
    await book(t.app, zoe, bookingPayload((await createSession(t.app, staff)).schedule.id));
    await book(t.app, old, bookingPayload((await createSession(t.app, staff)).schedule.id));
    await putNote(zoe.id, 'Аллергия на кошек');
    await putNote(old.id, 'Был давно');
    const data = (await t.app.inject({ method: 'GET', url: '/api/v1/me/data', headers: tma(zoe) })).json();
    expect(data.staff_note).toBe('Аллергия на кошек');
    const forget = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(zoe) });
    expect(forget.statusCode, forget.body).toBe(200);
    const left = async (id: number) =>
      (await t.database.db.selectFrom('customer_notes').select('note').where('telegram_id', '=', id).execute()).length;
    expect(await left(zoe.id)).toBe(0);

    // Retention: a customer whose last session is older than the retention period loses the note with the rest.
    const { runRetention } = await import('../../core/privacy/personal-data');
    const settings = (await t.app.inject({ method: 'GET', url: '/api/v1/business-settings/', headers: staff })).json();
    expect(await left(old.id)).toBe(1);
    await runRetention(t.database, new Date(Date.now() + 10 * 86_400_000));
    expect(await left(old.id)).toBe(1);
    await runRetention(t.database, new Date(Date.now() + (settings.retention_days + 10) * 86_400_000));
    expect(await left(old.id)).toBe(0);
  });
});

describe('recurring sessions', () => {
  const tz = 'Europe/Belgrade';
  const series = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/schedule/series', headers: staff, payload });
  const countSchedules = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('schedules')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const nextMonday = () => {
    const d = new Date(Date.now() + 7 * 86_400_000);
    d.setUTCDate(d.getUTCDate() + ((8 - (d.getUTCDay() || 7)) % 7));
    return d.toISOString().slice(0, 10);
  };

  it('a 12-week series on Monday and Thursday at 18:30: 24 sessions in one request, each remembering its series and its minimum; subscribers told once', async () => {
    const { workshop, address } = await createSession(t.app, staff, { capacity: 0 });
    const fan = telegramUser();
    const sub = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/date-subscriptions/${workshop.id}`,
      headers: tma(fan),
    });
    expect(sub.statusCode, sub.body).toBeLessThan(300);
    const before = await countSchedules();
    const start = nextMonday();
    const res = await series({
      workshop_id: workshop.id,
      address_id: address.id,
      capacity: 6,
      start,
      weekdays: [1, 4],
      time: '18:30',
      weeks: 12,
      min_people: 3,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { data, count } = res.json();
    expect(count).toBe(24);
    expect(await countSchedules()).toBe(before + 24);
    const seriesIds = new Set(data.map((s: { series_id: number }) => s.series_id));
    expect(seriesIds.size).toBe(1);
    expect([...seriesIds][0]).toEqual(expect.any(Number));
    for (const s of data) {
      expect(toZonedInput(s.date, tz).slice(11, 16)).toBe('18:30');
      expect(formatWeekday(s.date, tz)).toMatch(/понедельник|четверг/);
      expect(s.capacity).toBe(6);
      // The dialog's «Минимум участников» holds for every session of the series.
      expect(s.min_people).toBe(3);
    }
    expect(toZonedInput(data[0].date, tz).slice(0, 10)).toBe(start);
    const told = (await outbox(fan.id)).filter((n) => n.kind === 'workshop.new_dates');
    expect(told).toHaveLength(1);
  });

  it('until a date: the last day is included, and a series may reach six months from its first date', async () => {
    const { workshop, address } = await createSession(t.app, staff);
    const start = nextMonday();
    const plusDays = (n: number) => {
      const d = new Date(`${start}T12:00:00Z`);
      d.setUTCDate(d.getUTCDate() + n);
      return d.toISOString().slice(0, 10);
    };
    const base = { workshop_id: workshop.id, address_id: address.id, start, weekdays: [1], time: '11:00' };
    const dates = (res: { json(): { data: { date: string }[] } }) =>
      res.json().data.map((s) => toZonedInput(s.date, tz).slice(0, 10));
    const three = await series({ ...base, until: plusDays(14) });
    expect(three.statusCode, three.body).toBe(201);
    expect(dates(three)).toEqual([start, plusDays(7), plusDays(14)]);
    expect(dates(await series({ ...base, until: plusDays(13) }))).toEqual([start, plusDays(7)]);
    const sixMonths = new Date(`${start}T12:00:00Z`);
    sixMonths.setUTCMonth(sixMonths.getUTCMonth() + 6);
    const longest = await series({ ...base, until: sixMonths.toISOString().slice(0, 10) });
    expect(longest.statusCode, longest.body).toBe(201);
    expect(longest.json().count).toBeGreaterThanOrEqual(26);
    const dayMore = new Date(sixMonths.getTime() + 86_400_000).toISOString().slice(0, 10);
    expect((await series({ ...base, start: plusDays(1), until: plusDays(1) })).statusCode).toBe(422);
    expect((await series({ ...base, until: dayMore })).statusCode).toBe(422);
  });

  it('is all or nothing: a missing workshop, more than six months, no future date or a bad rule write nothing', async () => {
    const { workshop, address } = await createSession(t.app, staff);
    const before = await countSchedules();
    const base = {
      workshop_id: workshop.id,
      address_id: address.id,
      start: nextMonday(),
      weekdays: [2],
      time: '10:00',
    };
    const missing = await series({ ...base, workshop_id: 2_000_000, weeks: 4 });
    expect(missing.statusCode).toBe(404);
    const long = await series({ ...base, weeks: 27 });
    expect(long.statusCode).toBe(422);
    const untilFar = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
    const far = await series({ ...base, until: untilFar });
    expect(far.statusCode).toBe(422);
    expect(far.json().detail).toBe('Серия — не дальше чем на 6 месяцев от первой даты');
    const both = await series({ ...base, weeks: 2, until: untilFar });
    expect(both.statusCode).toBe(422);
    expect(both.json().detail).toContain('Укажите число недель или дату окончания');
    const noDays = await series({ ...base, weekdays: [], weeks: 2 });
    expect(noDays.statusCode).toBe(422);
    const past = await series({ ...base, start: '2020-01-06', weeks: 2 });
    expect(past.statusCode).toBe(422);
    // Dates that do not exist are refused, not moved (2027-02-30 is not 2 March).
    for (const [field, day] of [
      ['start', '2026-13-01'],
      ['start', '2027-02-30'],
      ['until', '2027-04-31'],
    ] as const) {
      const res = await series({ ...base, ...(field === 'start' ? { weeks: 2 } : {}), [field]: day });
      expect(res.statusCode, `${field} ${day}`).toBe(422);
      expect(res.json().detail).toBe(`${field}: Укажите дату в формате ГГГГ-ММ-ДД`);
    }
    expect(await countSchedules()).toBe(before);
  });

  it('is one transaction: a 12-week series whose 13th session fails to be written leaves no session, no series and no message', async () => {
    const { workshop, address } = await createSession(t.app, staff);
    const fan = telegramUser();
    const seriesRows = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('schedule_series')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // The database refuses a series' 13th session, after twelve were written in the same transaction.
    const pg = t.database.dialect === 'postgres';
    const failing = pg
      ? [
          sql`create function fail_13th() returns trigger language plpgsql as $$ begin
                if (select count(*) from schedules where series_id = new.series_id) >= 12 then
                  raise exception 'the 13th session fails';
                end if;
                return new;
              end $$`,
          sql`create trigger fail_13th before insert on schedules for each row when (new.series_id is not null)
                execute function fail_13th()`,
        ]
      : [
          sql`create trigger fail_13th before insert on schedules
                when new.series_id is not null and (select count(*) from schedules where series_id = new.series_id) >= 12
                begin select raise(abort, 'the 13th session fails'); end`,
        ];
    for (const q of failing) await q.execute(t.database.db);
    const rule = { workshop_id: workshop.id, address_id: address.id, start: nextMonday(), weekdays: [1, 4] };
    try {
      // Twelve sessions pass the trigger.
      const six = await series({ ...rule, time: '10:00', weeks: 6 });
      expect([six.statusCode, six.json().count]).toEqual([201, 12]);
      await t.app.inject({ method: 'PUT', url: `/api/v1/date-subscriptions/${workshop.id}`, headers: tma(fan) });
      const before = { schedules: await countSchedules(), series: await seriesRows() };
      const res = await series({ ...rule, time: '18:30', weeks: 12 });
      expect(res.statusCode).toBe(500);
      expect({ schedules: await countSchedules(), series: await seriesRows() }).toEqual(before);
    } finally {
      await sql`drop trigger fail_13th${sql.raw(pg ? ' on schedules' : '')}`.execute(t.database.db);
      if (pg) await sql`drop function fail_13th()`.execute(t.database.db);
    }
    expect((await outbox(fan.id)).filter((n) => n.kind === 'workshop.new_dates')).toHaveLength(0);
  });

  it('"this and following": an edit and a deletion cover this session and the later ones of its series only', async () => {
    const { workshop, address } = await createSession(t.app, staff);
    const created = (
      await series({
        workshop_id: workshop.id,
        address_id: address.id,
        start: nextMonday(),
        weekdays: [3],
        time: '12:00',
        weeks: 6,
      })
    ).json().data as { id: number; date: string; capacity: number }[];
    const anna = telegramUser();
    await book(t.app, anna, bookingPayload(created[4].id));
    const third = created[2];
    const later = new Date(new Date(third.date).getTime() + 3_600_000).toISOString();
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${third.id}?scope=following`,
      headers: staff,
      payload: { capacity: 12, date: later },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const now = await Promise.all(
      created.map(async (s) =>
        (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${s.id}`, headers: staff })).json(),
      ),
    );
    expect(now.map((s) => s.capacity)).toEqual([8, 8, 12, 12, 12, 12]);
    expect(now.map((s) => toZonedInput(s.date, tz).slice(11, 16))).toEqual([
      '12:00',
      '12:00',
      '13:00',
      '13:00',
      '13:00',
      '13:00',
    ]);
    expect((await outbox(anna.id)).map((n) => n.kind)).toContain('schedule.changed');

    // Only this one (the default).
    const one = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${created[1].id}`,
      headers: staff,
      payload: { capacity: 3 },
    });
    expect(one.statusCode).toBe(200);
    expect(one.json().capacity).toBe(3);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${created[2].id}`, headers: staff })).json().capacity,
    ).toBe(12);

    const deleteFollowing = () =>
      t.app.inject({ method: 'DELETE', url: `/api/v1/schedule/${created[3].id}?scope=following`, headers: staff });
    // Anna's booking on one of them refuses the whole deletion; cancelled with its session, it no longer does.
    expect((await deleteFollowing()).statusCode).toBe(409);
    expect((await cancelSession(created[4].id, { reason: 'Ремонт кухни' })).statusCode).toBe(200);
    const del = await deleteFollowing();
    expect(del.statusCode).toBe(200);
    const left = await t.database.db
      .selectFrom('schedules')
      .select('id')
      .where(
        'id',
        'in',
        created.map((s) => s.id),
      )
      .orderBy('date')
      .execute();
    // The cancelled one stays in history with its reason.
    expect(left.map((r) => r.id)).toEqual([...created.slice(0, 3), created[4]].map((s) => s.id));
    // The booking on a session that went was told of its cancel.
    expect((await outbox(anna.id)).map((n) => n.kind)).toContain('schedule.cancelled');
    const bad = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/schedule/${created[0].id}?scope=all`,
      headers: staff,
    });
    expect(bad.statusCode).toBe(422);
  });
});

describe('staff roles', () => {
  const createUser = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: staff,
      payload: { password: 'staff-password', is_active: true, ...payload },
    });

  it('is_superuser means owner; a role is kept beside the flag and the flag follows it', async () => {
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json();
    expect(me).toMatchObject({ is_superuser: true, role: 'owner' });
    const manager = (await createUser({ email: 'manager-roles@example.com' })).json();
    expect(manager).toMatchObject({ is_superuser: false, role: 'manager' });
    const host = (await createUser({ email: 'host-roles@example.com', role: 'host' })).json();
    expect(host).toMatchObject({ is_superuser: false, role: 'host' });
    const patch = (id: number, payload: object) =>
      t.app.inject({ method: 'PATCH', url: `/api/v1/users/${id}`, headers: staff, payload }).then((r) => r.json());
    expect(await patch(host.id, { is_superuser: true })).toMatchObject({ is_superuser: true, role: 'owner' });
    expect(await patch(host.id, { is_superuser: false })).toMatchObject({ is_superuser: false, role: 'manager' });
    expect(await patch(host.id, { role: 'host' })).toMatchObject({ is_superuser: false, role: 'host' });
    expect(await patch(manager.id, { role: 'owner' })).toMatchObject({ is_superuser: true, role: 'owner' });
  });

  it('a host sees today’s and tomorrow’s sessions only, and is refused the rest with «Нет доступа»', async () => {
    await createUser({ email: 'door@example.com', role: 'host' });
    const host = await t.auth('door@example.com', 'staff-password');
    const soon = (await createSession(t.app, staff, { date: new Date(Date.now() + 60_000).toISOString() })).schedule;
    const later = (await createSession(t.app, staff, { date: new Date(Date.now() + 5 * 86_400_000).toISOString() }))
      .schedule;
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/schedule/?limit=100', headers: host })).json();
    const ids = list.data.map((s: { id: number }) => s.id);
    expect(ids).toContain(soon.id);
    expect(ids).not.toContain(later.id);
    const all = (await t.app.inject({ method: 'GET', url: '/api/v1/schedule/?limit=100', headers: staff })).json();
    expect(all.data.map((s: { id: number }) => s.id)).toContain(later.id);
    const far = await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${later.id}`, headers: host });
    expect(far.statusCode).toBe(403);
    expect(far.json().detail).toBe('Нет доступа');
    for (const url of ['/api/v1/stats/', '/api/v1/customers/', '/api/v1/payments/', '/api/v1/audit/']) {
      const res = await t.app.inject({ method: 'GET', url, headers: host });
      expect([url, res.statusCode, res.json().detail]).toEqual([url, 403, 'Нет доступа']);
    }
  });
});
