import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  callbackUpdate,
  keyboardOf,
  plain,
  postUpdate,
  textUpdate,
  tgUser,
  type FakeCall,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { listNotifications } from '../../db/repositories/notifications';
import { enqueueDueReminders } from '../../core/journey/reminders';
import { enqueueAfterClassThanks } from '../../core/journey/after-class';
import { getRecord } from '../../db/repositories/records';
import { createStaff, deliver, linkStaff, PUBLIC_URL, useBotApp } from './setup';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp((parts) => ({ fake, t, staff } = parts));

const HOUR = 3_600_000;
const at = (iso: string, hoursBefore: number) => new Date(Date.parse(iso) - hoursBefore * HOUR);
const hoursFromNow = (h: number) => {
  const d = new Date(Date.now() + h * HOUR);
  d.setUTCSeconds(0, 0);
  return d.toISOString();
};

async function press(user: { id: number; username?: string }, data: string, messageId = 1) {
  const res = await postUpdate(
    t.app,
    t.config.webhookSecret,
    callbackUpdate(tgUser(user.id, user.username), data, messageId),
  );
  expect(res.statusCode).toBe(200);
}
async function say(user: { id: number; username?: string }, text: string) {
  const res = await postUpdate(t.app, t.config.webhookSecret, textUpdate(tgUser(user.id, user.username), text));
  expect(res.statusCode).toBe(200);
}
const answers = () => fake.ok('answerCallbackQuery');
const edits = () => fake.ok('editMessageText');
const lastOf = (calls: FakeCall[]) => calls[calls.length - 1];
/** Every callback_data of a keyboard fits Telegram's 64 bytes. */
const expectValidCallbackData = (call: FakeCall) => {
  for (const row of keyboardOf(call))
    for (const b of row) if (b.callback_data) expect(Buffer.byteLength(b.callback_data)).toBeLessThanOrEqual(64);
};

async function setBusiness(payload: object) {
  const res = await t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });
  expect(res.statusCode).toBe(200);
}

describe('reminders that ask', () => {
  it('sends each offset once per booking (across runs and a second instance), with Приду / Не смогу, and the venue after the last', async () => {
    await setBusiness({ reminder_hours: [24, 3] });
    const date = hoursFromNow(48);
    const { schedule, address } = await createSession(t.app, staff, { date });
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${address.id}`,
      headers: staff,
      payload: { latitude: 44.8125, longitude: 20.4612 },
    });
    const anna = telegramUser('anna');
    const id = (await book(t.app, anna, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
    await deliver(t);
    fake.reset();

    // Too early: nothing.
    expect(await enqueueDueReminders(t.database, at(date, 25))).toBe(0);
    // 24 h before: one reminder; again, and "another instance", write nothing more.
    expect(await enqueueDueReminders(t.database, at(date, 24))).toBe(1);
    expect(await enqueueDueReminders(t.database, at(date, 23.5))).toBe(0);
    const [a, b] = await Promise.all([
      enqueueDueReminders(t.database, at(date, 23)),
      enqueueDueReminders(t.database, at(date, 23)),
    ]);
    expect(a + b).toBe(0);
    await deliver(t);
    const [first] = fake.messages(anna.id);
    expect(plain(first.params.text)).toContain('🔔 Напоминаем: завтра мастер-класс «Паста»!');
    expect(plain(first.params.text)).toContain('📍 Улица Кнеза Милоша 1, Второй этаж');
    expect(plain(first.params.text)).toContain('👥 Количество человек: 2');
    expect(keyboardOf(first)).toEqual([
      [
        { text: '✅ Приду', callback_data: `rem:yes:${id}` },
        { text: '❌ Не смогу', callback_data: `rem:no:${id}` },
      ],
      [{ text: 'Моя запись', web_app: { url: `${PUBLIC_URL}/record/${id}` } }],
    ]);
    expectValidCallbackData(first);
    expect(fake.ok('sendVenue')).toHaveLength(0);

    // 3 h before: the last reminder, followed by the pin.
    expect(await enqueueDueReminders(t.database, at(date, 3))).toBe(1);
    expect(await enqueueDueReminders(t.database, at(date, 2))).toBe(0);
    await deliver(t);
    const msgs = fake.messages(anna.id);
    expect(msgs).toHaveLength(2);
    expect(plain(msgs[1].params.text)).toContain('🔔 Напоминаем: через 3 часа мастер-класс «Паста»!');
    const [venue] = fake.ok('sendVenue', anna.id);
    expect(venue.params).toMatchObject({
      latitude: 44.8125,
      longitude: 20.4612,
      title: 'Улица Кнеза Милоша 1',
      address: 'Второй этаж',
    });
    expect(venue.at).toBeGreaterThanOrEqual(msgs[1].at);
    const rows = await listNotifications(t.database.db, { chat_id: anna.id, kind: 'schedule.reminder' });
    expect(rows.map((r) => r.dedupe_key)).toEqual([`reminder:${id}:24`, `reminder:${id}:3`]);
  });

  it('skips a reminder whose moment had passed when the booking became ACTIVE (booked 2 h before: no "3 hours" reminder)', async () => {
    await setBusiness({ reminder_hours: [24, 3] });
    const date = hoursFromNow(2);
    const { schedule } = await createSession(t.app, staff, { date });
    const late = telegramUser();
    await book(t.app, late, bookingPayload(schedule.id));
    expect(await enqueueDueReminders(t.database, new Date())).toBe(0);
    expect(await enqueueDueReminders(t.database, at(date, 1))).toBe(0);
    await deliver(t);
    expect(fake.messages(late.id).filter((m) => plain(m.params.text).includes('Напоминаем'))).toHaveLength(0);
  });

  it('a queued booking gets no reminder; once promoted before the next moment it gets that one', async () => {
    await setBusiness({ reminder_hours: [24, 3] });
    const date = hoursFromNow(10);
    const { schedule } = await createSession(t.app, staff, { date, capacity: 1 });
    const first = telegramUser();
    const second = telegramUser();
    const r1 = (await book(t.app, first, bookingPayload(schedule.id))).json().record.id;
    const r2 = (await book(t.app, second, bookingPayload(schedule.id))).json().record.id;
    // 24 h moment already past for both; the active one was active before the 3 h moment.
    expect(await enqueueDueReminders(t.database, at(date, 3))).toBe(1);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${r1}`,
      headers: tma(first),
      payload: { cancel_reason: 'x' },
    });
    // The queued booking was promoted now, 10 h before the start: ACTIVE before the 3 h moment, so that reminder is due to it.
    expect(await enqueueDueReminders(t.database, at(date, 2.5))).toBe(1);
    const keys = (await listNotifications(t.database.db, { kind: 'schedule.reminder' })).map((r) => r.dedupe_key);
    expect(keys).toContain(`reminder:${r1}:3`);
    expect(keys).toContain(`reminder:${r2}:3`);
  });

  it('"Приду" records confirmed_at, edits the message and answers the press; a stranger\'s press is refused', async () => {
    const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(30) });
    const anna = telegramUser('anna2');
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    const stranger = telegramUser('stranger');

    await press(stranger, `rem:yes:${id}`);
    expect(lastOf(answers()).params).toMatchObject({ text: 'Эта запись недоступна.', show_alert: true });
    expect((await getRecord(t.database.db, id))!.confirmed_at).toBeNull();
    expect(edits()).toHaveLength(0);

    await press(anna, `rem:yes:${id}`, 77);
    expect(lastOf(answers()).params).toMatchObject({ text: 'Спасибо, ждём вас!' });
    const edit = lastOf(edits());
    expect(edit.params.message_id).toBe(77);
    expect(plain(edit.params.text)).toMatch(/^✅ Вы подтвердили, что придёте на мастер-класс «Паста»/);
    expect(edit.params.parse_mode).toBe('HTML');
    const confirmed = (await getRecord(t.database.db, id))!.confirmed_at;
    expect(confirmed).not.toBeNull();

    // Shown to staff and on /record.
    const view = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(anna) });
    expect(view.json().record.confirmed_at).toBe(confirmed);
    const sched = await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${schedule.id}`, headers: staff });
    expect(sched.json().records[0].confirmed_at).toBe(confirmed);
  });

  it('"Не смогу" asks once more; "Назад" goes back; "Отменить запись?" cancels with "Не смогу прийти", fills the queue and alerts staff', async () => {
    const admin = await createStaff(t, `alerts${Date.now()}@example.com`);
    await linkStaff(t, admin, 990001, { userApply: true, userCancel: true, scheduled1d: false });
    const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(30), capacity: 1 });
    const anna = telegramUser('anna3');
    const waiting = telegramUser('waiting');
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    const queued = (await book(t.app, waiting, bookingPayload(schedule.id))).json().record.id;
    await deliver(t);
    fake.reset();

    await press(anna, `rem:no:${id}`);
    expect(answers()).toHaveLength(1);
    let edit = lastOf(edits());
    expect(plain(edit.params.text)).toContain('Не получается прийти на мастер-класс «Паста»');
    expect(keyboardOf(edit).map((row) => row.map((b) => b.text))).toEqual([
      ['Отменить запись?'],
      ['🎁 Передать место другу'],
      ['← Назад'],
    ]);
    expectValidCallbackData(edit);

    await press(anna, `rem:back:${id}`);
    edit = lastOf(edits());
    expect(plain(edit.params.text)).toContain('🔔 Напоминаем');
    expect(keyboardOf(edit)[0].map((b) => b.text)).toEqual(['✅ Приду', '❌ Не смогу']);

    await press(anna, `rem:cancel:${id}`);
    expect(answers()).toHaveLength(3);
    expect(plain(lastOf(edits()).params.text)).toContain('❌ Запись на мастер-класс «Паста»');
    const cancelled = (await getRecord(t.database.db, id))!;
    expect(cancelled.state).toBe('CANCELLED');
    expect(cancelled.cancel_reason).toBe('Не смогу прийти');
    expect((await getRecord(t.database.db, queued))!.state).toBe('ACTIVE');
    await deliver(t);
    expect(plain(lastOf(fake.messages(waiting.id)).params.text)).toContain('Освободилось место');
    expect(plain(lastOf(fake.messages(990001)).params.text)).toContain('Причина: Не смогу прийти');
  });

  it('the change deadline refuses "Отменить запись?" with an alert naming the deadline and the contact', async () => {
    await setBusiness({ change_deadline_hours: 24, contact: '@studio_admin' });
    try {
      const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(5) });
      const anna = telegramUser();
      const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
      await press(anna, `rem:cancel:${id}`);
      expect(lastOf(answers()).params).toMatchObject({ show_alert: true });
      expect(String(lastOf(answers()).params.text)).toContain('не позднее чем за 24 часа');
      expect(String(lastOf(answers()).params.text)).toContain('@studio_admin');
      expect((await getRecord(t.database.db, id))!.state).toBe('ACTIVE');
    } finally {
      await setBusiness({ change_deadline_hours: 0, contact: '' });
    }
  });

  it('"Передать место другу" gives a one-time deep link the friend opens in the bot', async () => {
    const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(30) });
    const anna = telegramUser('anna4');
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await press(anna, `rem:gift:${id}`);
    const edit = lastOf(edits());
    const link = /https:\/\/t\.me\/studio_test_bot\?start=(gift_[\w-]+)/.exec(plain(edit.params.text));
    expect(link).not.toBeNull();
    expect(link![1].length).toBeLessThanOrEqual(64);
    const share = keyboardOf(edit)[0][0];
    expect(share.text).toBe('📨 Отправить другу');
    expect(share.url).toMatch(/^https:\/\/t\.me\/share\/url\?url=https%3A%2F%2Ft\.me%2Fstudio_test_bot/);

    const friend = telegramUser('friend');
    await say(friend, `/start ${link![1]}`);
    const reply = lastOf(fake.messages(friend.id));
    expect(plain(reply.params.text)).toContain('Вам передают место');
    const token = link![1].slice('gift_'.length);
    expect(keyboardOf(reply)).toEqual([
      [{ text: 'Принять место', web_app: { url: `${PUBLIC_URL}/apply?gift=${token}` } }],
    ]);
  });
});

describe('after the class', () => {
  it('the next morning: thanks with 1–5 and "Записаться снова" once per ACTIVE booking; a rating is stored and shown to staff', async () => {
    const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(30) });
    const anna = telegramUser('anna5');
    const id = (await book(t.app, anna, bookingPayload(schedule.id, { people_count: 3 }))).json().record.id;
    const gone = telegramUser();
    const goneId = (await book(t.app, gone, bookingPayload(schedule.id))).json().record.id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${goneId}`,
      headers: tma(gone),
      payload: { cancel_reason: 'x' },
    });
    // The session took place three days ago at 12:00 in Tokyo (03:00 UTC; a zone without summer time).
    const day = new Date(Date.now() - 3 * 24 * HOUR);
    day.setUTCHours(3, 0, 0, 0);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { date: day.toISOString() },
    });
    await deliver(t);
    fake.reset();
    const after = (hours: number) => new Date(day.getTime() + hours * HOUR);

    expect(await enqueueAfterClassThanks(t.database, 'Asia/Tokyo', after(8))).toBe(0);
    // 10:00 Tokyo the next day = 22 hours after 12:00; a minute before, nothing.
    expect(await enqueueAfterClassThanks(t.database, 'Asia/Tokyo', new Date(after(22).getTime() - 60_000))).toBe(0);
    expect(await enqueueAfterClassThanks(t.database, 'Asia/Tokyo', after(22))).toBe(1);
    expect(await enqueueAfterClassThanks(t.database, 'Asia/Tokyo', after(25))).toBe(0);
    // A day too late: skipped rather than sent days after.
    await t.database.db.deleteFrom('notifications').where('kind', '=', 'record.thanks').execute();
    expect(await enqueueAfterClassThanks(t.database, 'Asia/Tokyo', after(36))).toBe(0);
    expect(await enqueueAfterClassThanks(t.database, 'Asia/Tokyo', after(22))).toBe(1);
    await deliver(t);
    const [thanks] = fake.messages(anna.id);
    expect(fake.messages(gone.id)).toHaveLength(0);
    expect(plain(thanks.params.text)).toContain('🙏 Спасибо, что были на мастер-классе «Паста»!');
    expect(keyboardOf(thanks)).toEqual([
      [1, 2, 3, 4, 5].map((n) => ({ text: `${n} ⭐`, callback_data: `rate:${id}:${n}` })),
      [{ text: 'Записаться снова', web_app: { url: `${PUBLIC_URL}/apply?again=${id}` } }],
    ]);
    expectValidCallbackData(thanks);

    await press(anna, `rate:${id}:5`);
    expect(lastOf(answers()).params.text).toBe('Спасибо за оценку!');
    expect(plain(lastOf(edits()).params.text)).toContain('⭐⭐⭐⭐⭐');
    expect((await getRecord(t.database.db, id))!.rating).toBe(5);
    const past = await t.app.inject({ method: 'GET', url: `/api/v1/schedule/${schedule.id}`, headers: staff });
    expect(past.json().records.find((r: { id: number }) => r.id === id).rating).toBe(5);

    // Someone else cannot rate it.
    await press(gone, `rate:${id}:1`);
    expect(lastOf(answers()).params).toMatchObject({ show_alert: true });
    expect((await getRecord(t.database.db, id))!.rating).toBe(5);
  });
});

describe('tell me about new dates; leaving the queue', () => {
  it('/start offers workshops without free dates; a subscriber gets one message when staff add a session, then is unsubscribed', async () => {
    const { workshop, address } = await createSession(t.app, staff, { date: hoursFromNow(30), capacity: 0 });
    const anna = telegramUser('anna6');
    await say(anna, '/start');
    const offer = fake.messages(anna.id).find((m) => plain(m.params.text).includes('нет свободных дат'))!;
    expect(offer).toBeDefined();
    const button = keyboardOf(offer)
      .flat()
      .find((b) => b.callback_data === `sub:${workshop.id}`)!;
    expect(button.text).toBe('🔔 Сообщить о новых датах: Паста');
    await press(anna, button.callback_data!);
    expect(lastOf(answers()).params.text).toBe('Готово! Напишу о новых датах');
    await deliver(t);
    fake.reset();

    const add = (days: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/schedule/',
        headers: staff,
        payload: { date: hoursFromNow(days * 24), capacity: 8, workshop_id: workshop.id, address_id: address.id },
      });
    expect((await add(5)).statusCode).toBe(201);
    expect((await add(6)).statusCode).toBe(201);
    await deliver(t);
    const news = fake.messages(anna.id);
    expect(news).toHaveLength(1);
    expect(plain(news[0].params.text)).toContain('🗓 Новая дата мастер-класса «Паста»!');
    expect(keyboardOf(news[0])).toEqual([
      [{ text: 'Записаться', web_app: { url: `${PUBLIC_URL}/apply?workshop=${workshop.id}` } }],
    ]);
  });

  it('/my offers "Выйти из очереди" for a queued booking, asks, then cancels it', async () => {
    const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(30), capacity: 0 });
    const anna = telegramUser('anna7');
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await deliver(t);
    fake.reset();
    await say(anna, '/my');
    const my = lastOf(fake.messages(anna.id));
    const leave = keyboardOf(my)
      .flat()
      .find((b) => b.callback_data === `queue:leave:${id}`)!;
    expect(leave.text).toBe('Выйти из очереди: 1');
    await press(anna, leave.callback_data!);
    const ask = lastOf(fake.messages(anna.id));
    expect(plain(ask.params.text)).toContain('Выйти из очереди на мастер-класс «Паста»');
    expect(keyboardOf(ask)[0].map((b) => b.callback_data)).toEqual([`queue:yes:${id}`, `queue:no:${id}`]);
    await press(anna, `queue:yes:${id}`);
    expect(lastOf(answers()).params.text).toBe('Вы вышли из очереди');
    const r = (await getRecord(t.database.db, id))!;
    expect(r.state).toBe('CANCELLED');
    expect(r.cancel_reason).toBe('Вышел(а) из очереди');
  });
});

describe('Bot API limits', () => {
  it('an alert longer than Telegram allows (a long studio contact) is cut to 200 characters', async () => {
    await setBusiness({ change_deadline_hours: 24, contact: 'Позвоните нам или напишите в Telegram. '.repeat(10) });
    try {
      const { schedule } = await createSession(t.app, staff, { date: hoursFromNow(5) });
      const anna = telegramUser();
      const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
      await press(anna, `rem:cancel:${id}`);
      const text = String(lastOf(answers()).params.text);
      expect(text.length).toBeLessThanOrEqual(200);
      expect(text).toMatch(/^Изменить или отменить запись можно не позднее чем за 24 часа/);
    } finally {
      await setBusiness({ change_deadline_hours: 0, contact: '' });
    }
  });
});
