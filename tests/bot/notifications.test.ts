import { calendarPath } from '../../core/journey/calendar';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { keyboardOf, plain, type FakeTelegram } from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { createStaff, deliver, linkStaff, PUBLIC_URL, SESSION_DATE, SESSION_DATE_TEXT, useBotApp } from './setup';

const STAFF_CHAT = 700_001;

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp(async (parts) => {
  ({ fake, t, staff } = parts);
  await linkStaff(t, staff, STAFF_CHAT);
});

const only = (chatId: number) => {
  const msgs = fake.messages(chatId);
  expect(msgs, `messages to ${chatId}`).toHaveLength(1);
  return msgs[0];
};
const myRecordButton = (id: number) => [[{ text: 'Моя запись', web_app: { url: `${PUBLIC_URL}/record/${id}` } }]];
/** A confirmation of seats: "Моя запись" and the booking's signed calendar file (the API's own link). */
const withCalendar = (id: number) => [
  ...myRecordButton(id),
  [{ text: '📅 Добавить в календарь', url: `${PUBLIC_URL}${calendarPath(t.config.secretKey, id)}` }],
];
const scheduleButton = [[{ text: 'Открыть расписание', url: `${PUBLIC_URL}/schedule` }]];

describe('customer messages', () => {
  it('booked: session, date, address with its map link, people count and a "Моя запись" web-app button; staff get the new booking', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const anna = telegramUser('anna');
    const res = await book(
      t.app,
      anna,
      bookingPayload(schedule.id, {
        people_count: 2,
        has_allergy: true,
        allergy_type: 'орехи',
        comment: 'Без лука',
        source: 'friends',
        is_first_time: true,
      }),
    );
    const id = res.json().record.id;
    await deliver(t);

    const msg = only(anna.id);
    expect(msg.params.parse_mode).toBe('HTML');
    expect(plain(msg.params.text)).toBe(
      [
        'Вы записаны на мастер-класс «Паста»!'.replace(/^/, '✅ '),
        '',
        `📅 ${SESSION_DATE_TEXT}`,
        '📍 Улица Кнеза Милоша 1, Второй этаж',
        '🗺 Открыть на карте',
        '👥 Количество человек: 2',
        '',
        // A confirmation names the price, even one paid at the studio.
        '💰 Стоимость: 7\u00a0000\u00a0RSD',
        '',
        'До встречи!',
      ].join('\n'),
    );
    expect(msg.params.text).toContain('<a href="https://maps.example/1">Открыть на карте</a>');
    // Booked: the seats are hers, so the confirmation also offers the signed calendar file.
    expect(keyboardOf(msg)).toEqual(withCalendar(id));
    const ics = await t.app.inject(calendarPath(t.config.secretKey, id));
    expect(ics.statusCode).toBe(200);
    expect(ics.body).toContain('BEGIN:VEVENT');

    const alert = only(STAFF_CHAT);
    expect(plain(alert.params.text)).toBe(
      [
        `🆕 Новая запись на «Паста», ${SESSION_DATE_TEXT}`,
        '',
        'Имя: Анна Петрова (@anna)',
        'Человек: 2',
        'Статус: ✅ Активна',
        'Аллергия: орехи',
        'Комментарий: Без лука',
        'Источник: От друзей и знакомых',
        'Впервые: да',
      ].join('\n'),
    );
    expect(keyboardOf(alert)).toEqual(scheduleButton);
  });

  it('queued with its place in the queue, then promoted when a seat frees up; the cancellation goes to the customer and to staff with its reason', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 1 });
    const a = telegramUser('anya');
    const b = telegramUser();
    const c = telegramUser();
    const ra = (await book(t.app, a, bookingPayload(schedule.id))).json().record.id;
    const rb = (await book(t.app, b, bookingPayload(schedule.id, { name: 'Борис', last_name: null }))).json().record.id;
    await book(t.app, c, bookingPayload(schedule.id));
    await deliver(t);
    const queued = only(b.id);
    expect(plain(queued.params.text)).toContain(
      '⏳ Свободных мест на мастер-класс «Паста» сейчас нет, и вы в очереди.\nВаше место в очереди: 1.',
    );
    expect(plain(only(c.id).params.text)).toContain('Ваше место в очереди: 2.');
    expect(keyboardOf(queued)).toEqual(myRecordButton(rb));
    expect(plain(fake.messages(STAFF_CHAT)[1].params.text)).toContain('Статус: ⏳ В очереди (место 1)');
    fake.reset();

    const cancel = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ra}`,
      headers: tma(a),
      payload: { cancel_reason: 'Заболела <сильно>' },
    });
    expect(cancel.statusCode).toBe(200);
    await deliver(t);
    const cancelled = only(a.id);
    expect(plain(cancelled.params.text)).toContain(
      '❌ Ваша запись на мастер-класс «Паста» отменена.\nПричина: Заболела <сильно>',
    );
    expect(cancelled.params.text).toContain('Заболела &lt;сильно&gt;');
    // Nothing was paid: the cancellation still says what became of the money.
    expect(plain(cancelled.params.text)).toContain('По этой записи ничего не нужно ни платить, ни возвращать.');
    expect(keyboardOf(cancelled)).toEqual(myRecordButton(ra));
    const promoted = only(b.id);
    expect(plain(promoted.params.text)).toContain('🎉 Освободилось место! Вы записаны на мастер-класс «Паста».');
    expect(plain(promoted.params.text)).toContain(SESSION_DATE_TEXT);
    expect(plain(promoted.params.text)).toContain('💰 Стоимость: 3\u00a0500\u00a0RSD');
    expect(keyboardOf(promoted)).toEqual(withCalendar(rb));
    expect(fake.messages(c.id)).toHaveLength(0);
    expect(plain(only(STAFF_CHAT).params.text)).toBe(
      [
        `❌ Отмена записи на «Паста», ${SESSION_DATE_TEXT}`,
        '',
        'Имя: Анна Петрова (@anya)',
        'Человек: 1',
        'Причина: Заболела <сильно>',
      ].join('\n'),
    );
  });

  it('restored: active when it fits, queued with its place when full', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 1 });
    const a = telegramUser();
    const b = telegramUser();
    const ra = (await book(t.app, a, bookingPayload(schedule.id))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ra}`,
      headers: tma(a),
      payload: { cancel_reason: 'x' },
    });
    await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${ra}`, headers: tma(a) });
    await deliver(t);
    const restored = fake.messages(a.id).at(-1)!;
    expect(plain(restored.params.text)).toMatch(/^✅ Ваша запись на мастер-класс «Паста» восстановлена\./);
    expect(keyboardOf(restored)).toEqual(myRecordButton(ra));

    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${ra}`,
      headers: tma(a),
      payload: { cancel_reason: 'x' },
    });
    await book(t.app, b, bookingPayload(schedule.id));
    await deliver(t);
    fake.reset();
    await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${ra}`, headers: tma(a) });
    await deliver(t);
    expect(plain(only(a.id).params.text)).toContain(
      'восстановлена, но свободных мест сейчас нет, и вы в очереди.\nВаше место в очереди: 1.',
    );
  });

  it('people count changed, saying so when the booking goes to the queue', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 3 });
    const a = telegramUser();
    const ra = (await book(t.app, a, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
    await t.app.inject({ method: 'PUT', url: `/api/v1/records/${ra}`, headers: tma(a), payload: { people_count: 3 } });
    await deliver(t);
    const grown = fake.messages(a.id).at(-1)!;
    expect(plain(grown.params.text)).toContain(
      '👥 Количество человек в вашей записи на мастер-класс «Паста» изменено: было 2, стало 3.\nМеста за вами.',
    );
    expect(plain(grown.params.text)).toContain('👥 Количество человек: 3');
    fake.reset();

    await t.app.inject({ method: 'PUT', url: `/api/v1/records/${ra}`, headers: tma(a), payload: { people_count: 5 } });
    await deliver(t);
    const queued = only(a.id);
    expect(plain(queued.params.text)).toContain(
      'изменено: было 3, стало 5.\nСвободных мест не хватает, поэтому запись перенесена в очередь. Ваше место в очереди: 1.',
    );
    expect(keyboardOf(queued)).toEqual(myRecordButton(ra));
  });

  it("the session's new date or address, set by staff, reach every open booking; its deletion is refused", async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 1 });
    const a = telegramUser();
    const b = telegramUser();
    const gone = telegramUser();
    const ra = (await book(t.app, a, bookingPayload(schedule.id))).json().record.id;
    await book(t.app, b, bookingPayload(schedule.id));
    const rg = (await book(t.app, gone, bookingPayload(schedule.id))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${rg}`,
      headers: tma(gone),
      payload: { cancel_reason: 'x' },
    });
    await deliver(t);
    fake.reset();

    const address = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/address/',
        headers: staff,
        payload: { title: 'Булевар 5', map_link: 'https://maps.example/5', description: null },
      })
    ).json();
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { date: '2030-12-06T16:30:00.000Z', address_id: address.id },
    });
    expect(edit.statusCode).toBe(200);
    await deliver(t);
    const changed = only(a.id);
    expect(plain(changed.params.text)).toBe(
      [
        '✏️ Изменения в мастер-классе «Паста»: новая дата и адрес. Актуальные данные:',
        '',
        '📅 6 декабря 2030 17:30',
        '📍 Булевар 5',
        '🗺 Открыть на карте',
        '👥 Количество человек: 1',
        '',
        'Если новое время или место вам не подходит, запись можно отменить на странице записи.',
      ].join('\n'),
    );
    expect(changed.params.text).toContain('href="https://maps.example/5"');
    expect(keyboardOf(changed)).toEqual(myRecordButton(ra));
    expect(plain(only(b.id).params.text)).toContain('Вы в очереди. Ваше место в очереди: 1.');
    expect(fake.messages(gone.id)).toHaveLength(0);
    fake.reset();

    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { capacity: 1 },
    });
    await deliver(t);
    expect(fake.messages()).toHaveLength(0);

    // A session with bookings is cancelled, not deleted: the delete is refused and nobody is told anything.
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/v1/schedule/${schedule.id}`, headers: staff });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('Отмените мастер-класс');
    await deliver(t);
    expect(fake.messages()).toHaveLength(0);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${schedule.id}`, headers: staff })).statusCode,
    ).toBe(200);
  });

  it('escapes what customers type, and sends nothing for a booking made by staff without a Telegram id', async () => {
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: staff,
      payload: bookingPayload(schedule.id, { name: '<b>Ева</b> & Co', comment: 'a<i>b' }),
    });
    expect(res.statusCode).toBe(201);
    await deliver(t);
    const alert = only(STAFF_CHAT);
    expect(alert.params.text).toContain('Имя: &lt;b&gt;Ева&lt;/b&gt; &amp; Co');
    expect(alert.params.text).toContain('Комментарий: a&lt;i&gt;b');
    expect(fake.messages().filter((m) => Number(m.params.chat_id) !== STAFF_CHAT)).toHaveLength(0);
  });
});

describe('staff alerts follow each one’s settings', () => {
  it('userApply and userCancel off: no alert; staff without Telegram get nothing', async () => {
    const off = await createStaff(t, 'quiet@example.com');
    await linkStaff(t, off, 700_002, { userApply: false, userCancel: false, scheduled1d: true });
    const on = await createStaff(t, 'cancels-only@example.com');
    await linkStaff(t, on, 700_003, { userApply: false, userCancel: true, scheduled1d: false });
    await createStaff(t, 'unlinked@example.com');

    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const a = telegramUser();
    const id = (await book(t.app, a, bookingPayload(schedule.id))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${id}`,
      headers: tma(a),
      payload: { cancel_reason: 'Не успеваю' },
    });
    await deliver(t);
    expect(fake.messages(STAFF_CHAT).map((m) => plain(m.params.text).split('\n')[0])).toEqual([
      `🆕 Новая запись на «Паста», ${SESSION_DATE_TEXT}`,
      `❌ Отмена записи на «Паста», ${SESSION_DATE_TEXT}`,
    ]);
    expect(fake.messages(700_002)).toHaveLength(0);
    expect(fake.messages(700_003).map((m) => plain(m.params.text).split('\n')[0])).toEqual([
      `❌ Отмена записи на «Паста», ${SESSION_DATE_TEXT}`,
    ]);
    // Unlinking (the profile toggle) stops the alerts.
    await linkStaff(t, on, null);
    await book(t.app, telegramUser(), bookingPayload(schedule.id));
    const again = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${again}`,
      headers: staff,
      payload: { cancel_reason: 'x' },
    });
    await deliver(t);
    expect(fake.messages(700_003)).toHaveLength(1);
  });
});
