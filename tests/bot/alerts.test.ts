import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { keyboardOf, plain, type FakeTelegram } from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { listNotifications } from '../../db/repositories/notifications';
import { enqueueDueDigests } from '../../core/jobs/digest';
import { createStaff, deliver, linkStaff, PUBLIC_URL, SESSION_DATE, SESSION_DATE_TEXT, useBotApp } from './setup';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp((parts) => ({ fake, t, staff } = parts));

const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe('POST /schedule/notify/{id}: the reminder', () => {
  it('reaches every active participant with date, address and map link, sets is_notified, and may be sent again', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 2 });
    const active = telegramUser();
    const queued = telegramUser();
    const cancelled = telegramUser();
    const ra = (await book(t.app, active, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
    await book(t.app, queued, bookingPayload(schedule.id));
    const rc = (await book(t.app, cancelled, bookingPayload(schedule.id))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${rc}`,
      headers: tma(cancelled),
      payload: { cancel_reason: 'x' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: staff,
      payload: bookingPayload(schedule.id),
    });
    await deliver(t);
    fake.reset();

    const res = await t.app.inject({ method: 'POST', url: `/api/v1/schedule/notify/${schedule.id}`, headers: staff });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Нотификации отправлены' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${schedule.id}`, headers: staff })).json()
        .is_notified,
    ).toBe(true);
    await deliver(t);
    expect(fake.messages()).toHaveLength(1);
    const [reminder] = fake.messages(active.id);
    expect(plain(reminder.params.text)).toBe(
      [
        '🔔 Напоминаем о мастер-классе «Паста»!',
        '',
        `📅 ${SESSION_DATE_TEXT}`,
        '📍 Улица Кнеза Милоша 1, Второй этаж',
        '🗺 Открыть на карте',
        '👥 Количество человек: 2',
        '',
        'Ждём вас!',
      ].join('\n'),
    );
    expect(reminder.params.text).toContain('<a href="https://maps.example/1">');
    expect(keyboardOf(reminder)).toEqual([[{ text: 'Моя запись', web_app: { url: `${PUBLIC_URL}/record/${ra}` } }]]);

    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/schedule/notify/${schedule.id}`, headers: staff }))
        .statusCode,
    ).toBe(200);
    await deliver(t);
    expect(fake.messages(active.id)).toHaveLength(2);
    expect(fake.messages()).toHaveLength(2);
  });

  it('is for staff only, 404 for an unknown session, 409 for a past one', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/schedule/notify/${schedule.id}` })).statusCode).toBe(
      401,
    );
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/schedule/notify/${schedule.id}`,
          headers: tma(telegramUser()),
        })
      ).statusCode,
    ).toBe(401);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/v1/schedule/notify/999999', headers: staff });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('Мастер-класс не найден');
    await book(t.app, telegramUser(), bookingPayload(schedule.id));
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { date: hoursFromNow(-2) },
    });
    await deliver(t);
    fake.reset();
    const past = await t.app.inject({ method: 'POST', url: `/api/v1/schedule/notify/${schedule.id}`, headers: staff });
    expect(past.statusCode).toBe(409);
    expect(past.json().detail).toBe('Мастер-класс уже прошёл: уведомления не отправляются');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${schedule.id}`, headers: staff })).json()
        .is_notified,
    ).toBe(false);
    await deliver(t);
    expect(fake.messages()).toHaveLength(0);
  });
});

describe('the day-before digest', () => {
  it('goes once per session and staff member with scheduled1d on: participants, total people, allergies, comments and the queue', async () => {
    const boss = 720_001;
    await linkStaff(t, staff, boss);
    const optedOut = await createStaff(t, 'no-digest@example.com');
    await linkStaff(t, optedOut, 720_002, { userApply: true, userCancel: true, scheduled1d: false });
    const cook = await createStaff(t, 'cook@example.com');
    await linkStaff(t, cook, 720_003, { userApply: false, userCancel: false, scheduled1d: true });

    const soon = (await createSession(t.app, staff, { date: hoursFromNow(20), capacity: 3 })).schedule;
    const later = (await createSession(t.app, staff, { date: hoursFromNow(72), capacity: 8 })).schedule;
    await book(
      t.app,
      telegramUser('anna'),
      bookingPayload(soon.id, { people_count: 2, has_allergy: true, allergy_type: 'орехи', comment: 'Без лука' }),
    );
    await book(
      t.app,
      telegramUser('boris'),
      bookingPayload(soon.id, { name: 'Борис', last_name: null, people_count: 1, is_first_time: false, comment: null }),
    );
    await book(
      t.app,
      telegramUser('vera'),
      bookingPayload(soon.id, { name: 'Вера', last_name: 'Ким', people_count: 2, comment: null }),
    );
    const gone = telegramUser('gone');
    const rg = (await book(t.app, gone, bookingPayload(soon.id, { name: 'Гоша', comment: 'отменил' }))).json().record
      .id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${rg}`,
      headers: tma(gone),
      payload: { cancel_reason: 'x' },
    });
    await deliver(t);
    fake.reset();

    expect((await t.scheduler.runOnce()).digest).toBe(2);
    expect((await t.scheduler.runOnce()).digest).toBe(0);
    await Promise.all([enqueueDueDigests(t.database), enqueueDueDigests(t.database)]);
    const rows = await listNotifications(t.database.db, { kind: 'staff.digest' });
    expect(rows.map((r) => [r.chat_id, r.dedupe_key]).sort()).toEqual([
      [boss, `digest:${soon.id}:1`],
      [720_003, `digest:${soon.id}:${cook.id}`],
    ]);

    await deliver(t);
    expect(fake.messages()).toHaveLength(2);
    expect(fake.messages(720_002)).toHaveLength(0);
    const [msg] = fake.messages(boss);
    const lines = plain(msg.params.text).split('\n');
    expect(lines[0]).toMatch(/^📋 (Сегодня |Завтра )мастер-класс «Паста»$/);
    expect(lines.slice(2)).toEqual([
      '📍 Улица Кнеза Милоша 1, Второй этаж',
      '🗺 Открыть на карте',
      '',
      '👥 Участники: 2 записи, всего человек: 3 из 3',
      '1. Анна Петрова (@anna): 2 чел., впервые',
      '2. Борис (@boris): 1 чел.',
      '',
      '⚠️ Аллергии:',
      '• Анна Петрова: орехи',
      '',
      '💬 Комментарии:',
      '• Анна Петрова: Без лука',
      '',
      '⏳ Очередь: 1',
      '1. Вера Ким (@vera): 2 чел., впервые',
    ]);
    expect(keyboardOf(msg)).toEqual([[{ text: 'Открыть расписание', url: `${PUBLIC_URL}/schedule` }]]);
    expect(fake.messages(720_003)[0].params.text).toBe(msg.params.text);

    // Later runs (a restart, another instance) send nothing again; the next session gets its own when due.
    await t.scheduler.runOnce();
    await deliver(t);
    expect(fake.messages()).toHaveLength(2);
    expect(await enqueueDueDigests(t.database, new Date(Date.now() + 50 * 3_600_000))).toBe(2);
    await deliver(t);
    expect(fake.messages()).toHaveLength(4);
    const laterLines = plain(fake.messages(boss)[1].params.text).split('\n');
    expect(laterLines).toContain('👥 Участники: 0 записей, всего человек: 0 из 8');
    expect(laterLines).toContain('Пока никто не записан.');
    expect(laterLines).toContain('⚠️ Аллергии: нет');
    expect(laterLines).toContain('⏳ Очередь: пусто');
    expect(later.id).toBeGreaterThan(soon.id);
  });
});
