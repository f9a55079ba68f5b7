import { daysBetween } from '../../contract/format';
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
import { getRecord } from '../../db/repositories/records';
import { createStaff, deliver, linkStaff, useBotApp } from './setup';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp((parts) => ({ fake, t, staff } = parts));

const send = async (from: number, update: unknown) =>
  expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
const lastOf = (calls: FakeCall[]) => calls[calls.length - 1];
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe('/today for linked staff', () => {
  it('lists the day’s participants with party and allergy; a button marks them and edits the same message', async () => {
    const cook = await createStaff(t, 'cook@example.com');
    const cookTg = 9_100_001;
    await linkStaff(t, cook, cookTg);
    // Within the hour before the start, so check-in is open.
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(20), capacity: 6 });
    const anna = telegramUser('anna_today');
    const id = (
      await book(
        t.app,
        anna,
        bookingPayload(schedule.id, { name: 'Анна', people_count: 2, has_allergy: true, allergy_type: 'орехи' }),
      )
    ).json().record.id as number;
    await book(t.app, telegramUser(), bookingPayload(schedule.id, { name: '<b>Борис</b>' }));
    // Today on the studio's clock with check-in open, whenever the test runs: started five minutes
    // ago, or (in the first minutes after midnight) starting in twenty.
    const startedToday = daysBetween(inMinutes(-5), Date.now(), t.config.businessTimezone) === 0;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { date: startedToday ? inMinutes(-5) : inMinutes(20) },
    });
    await deliver(t);
    fake.reset();

    await send(cookTg, textUpdate(tgUser(cookTg), '/today'));
    const msg = fake.ok('sendMessage').find((c) => String(c.params.text).includes('Паста'))!;
    expect(msg.params.parse_mode).toBe('HTML');
    const text = plain(msg.params.text);
    expect(text).toContain('Участники: 3 из 6');
    expect(text).toContain('1. Анна Петрова, 2 чел. · ⚠️ аллергия: орехи');
    expect(text).toContain('2. <b>Борис</b> Петрова, 1 чел.');
    const rows = keyboardOf(msg);
    expect(rows[0]).toEqual([
      { text: '✅ 1. Анна', callback_data: `att:A:${id}` },
      { text: '❌ Не пришёл', callback_data: `att:N:${id}` },
    ]);
    for (const row of rows) for (const b of row) expect(Buffer.byteLength(b.callback_data!)).toBeLessThanOrEqual(64);

    await send(cookTg, callbackUpdate(tgUser(cookTg), `att:N:${id}`, 55));
    expect(lastOf(fake.ok('answerCallbackQuery')).params).toMatchObject({ text: 'Анна: не пришёл' });
    const edit = lastOf(fake.ok('editMessageText'));
    expect(edit.params.message_id).toBe(55);
    expect(plain(edit.params.text)).toContain(
      '1. Анна Петрова, 2 чел. · ⚠️ аллергия: орехи · 💳 к оплате 7\u00a0000\u00a0RSD — ❌ не пришёл',
    );
    expect((await getRecord(t.database.db, id))!.attendance).toBe('NO_SHOW');

    // Pressed again: the mark is cleared. The history says who did it.
    await send(cookTg, callbackUpdate(tgUser(cookTg), `att:N:${id}`, 55));
    expect((await getRecord(t.database.db, id))!.attendance).toBeNull();
    const history = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/history`, headers: staff });
    expect(history.json().data[0]).toMatchObject({ action: 'attendance', actor: { kind: 'staff', user_id: cook.id } });
  });

  it('shows who has paid and takes the balance in cash at the door; a second press is told it is paid', async () => {
    const host = await createStaff(t, 'door@example.com');
    const hostTg = 9_100_004;
    await linkStaff(t, host, hostTg);
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(5), price: 2500 });
    const dina = telegramUser();
    const id = (await book(t.app, dina, bookingPayload(schedule.id, { name: 'Дина', people_count: 2 }))).json().record
      .id as number;
    await deliver(t);
    fake.reset();
    await send(hostTg, textUpdate(tgUser(hostTg), '/today'));
    const msg = fake.ok('sendMessage').find((c) => String(c.params.text).includes('Дина'))!;
    expect(plain(msg.params.text)).toContain('Дина Петрова, 2 чел. · 💳 к оплате 5\u00a0000\u00a0RSD');
    const cash = keyboardOf(msg)
      .flat()
      .find((b) => b.callback_data === `cash:${id}`)!;
    expect(cash.text).toBe('💵 1. Оплачено наличными: 5\u00a0000\u00a0RSD');

    await send(hostTg, callbackUpdate(tgUser(hostTg), `cash:${id}`, 77));
    expect(lastOf(fake.ok('answerCallbackQuery')).params.text).toBe('Дина: оплачено наличными 5\u00a0000\u00a0RSD');
    const edit = lastOf(fake.ok('editMessageText'));
    expect(plain(edit.params.text)).toContain('Дина Петрова, 2 чел. · 💰 оплачено');
    expect(
      keyboardOf(edit)
        .flat()
        .some((b) => b.callback_data === `cash:${id}`),
    ).toBe(false);
    const ledger = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: staff });
    expect(ledger.json().payments.map((p: { amount: number; method: string }) => [p.amount, p.method])).toEqual([
      [5000, 'cash'],
    ]);

    // The same button pressed again (an old message, or a second phone at the door): nothing is counted twice.
    await send(hostTg, callbackUpdate(tgUser(hostTg), `cash:${id}`, 77));
    expect(lastOf(fake.ok('answerCallbackQuery')).params).toMatchObject({ show_alert: true });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: staff })).json().payments,
    ).toHaveLength(1);
  });

  it('a full session with long allergy notes stays within Telegram’s 4096 characters, every participant with buttons', async () => {
    const host = await createStaff(t, 'full@example.com');
    const hostTg = 9_100_005;
    await linkStaff(t, host, hostTg);
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(15), capacity: 12 });
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const payload = bookingPayload(schedule.id, {
        name: `Полный${i}`,
        has_allergy: true,
        allergy_type: `аллергия ${i}: ${'орехи, кунжут, молоко & мёд; '.repeat(17)}`.slice(0, 500),
      });
      ids.push((await book(t.app, telegramUser(), payload)).json().record.id as number);
    }
    await deliver(t);
    fake.reset();

    await send(hostTg, textUpdate(tgUser(hostTg), '/today'));
    // Telegram refuses a text over 4096 characters: the fake answers 400 as it does, and /today would say nothing.
    expect(fake.calls.filter((c) => !c.ok)).toEqual([]);
    const msg = fake.ok('sendMessage').find((c) => String(c.params.text).includes('Полный0'))!;
    const text = plain(msg.params.text);
    expect([...text].length).toBeLessThanOrEqual(4096);
    expect(text).toContain('полный список в расписании');
    const marked = keyboardOf(msg)
      .flat()
      .map((b) => b.callback_data);
    for (const id of ids) expect(marked).toContain(`att:A:${id}`);
  });

  it('refuses a Telegram user who is not linked staff, for the command and for a button, and always answers', async () => {
    const stranger = 9_100_002;
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(10) });
    const id = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id as number;
    await deliver(t);
    fake.reset();
    await send(stranger, textUpdate(tgUser(stranger), '/today'));
    expect(plain(lastOf(fake.ok('sendMessage')).params.text)).toContain('Команда /today — для сотрудников студии');
    await send(stranger, callbackUpdate(tgUser(stranger), `att:A:${id}`));
    expect(lastOf(fake.ok('answerCallbackQuery')).params).toMatchObject({ show_alert: true });
    expect((await getRecord(t.database.db, id))!.attendance).toBeNull();
    expect(fake.ok('editMessageText')).toHaveLength(0);
  });

  it('answers a press before check-in opens with the reason, and changes nothing', async () => {
    const chef = await createStaff(t, 'chef@example.com');
    const chefTg = 9_100_003;
    await linkStaff(t, chef, chefTg);
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(180) });
    const id = (await book(t.app, telegramUser(), bookingPayload(schedule.id))).json().record.id as number;
    await send(chefTg, callbackUpdate(tgUser(chefTg), `att:A:${id}`));
    expect(lastOf(fake.ok('answerCallbackQuery')).params).toMatchObject({
      text: 'Посещение можно отметить не раньше чем за час до начала',
      show_alert: true,
    });
    expect((await getRecord(t.database.db, id))!.attendance).toBeNull();
  });
});
