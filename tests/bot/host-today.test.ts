import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { callbackUpdate, plain, postUpdate, textUpdate, tgUser, type FakeTelegram } from '../helpers/fake-telegram';
import { getRecord } from '../../db/repositories/records';
import { deliver, linkStaff, useBotApp } from './setup';

/*
 * The host at the door in the staff bot: /today and its buttons work on today's sessions; a button
 * of another day's booking (an old message, or crafted callback data) is refused with «Нет доступа»
 * on the button and changes nothing.
 */

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp((parts) => ({ fake, t, staff } = parts));

const send = async (update: unknown) =>
  expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const ledgerSize = async (record: number) =>
  (await t.database.db.selectFrom('payments').select('id').where('record_id', '=', record).execute()).length;

describe('/today for a host', () => {
  it('marks and takes cash on today’s session; another day’s booking is refused with «Нет доступа»', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: staff,
      payload: { email: 'door-bot@example.com', password: 'password-123', is_active: true, role: 'host' },
    });
    expect(created.json().role).toBe('host');
    const hostTg = 9_200_001;
    await linkStaff(t, await t.auth('door-bot@example.com', 'password-123'), hostTg);
    // Within the hour before the start, so check-in is open; today or tomorrow on the studio's clock.
    const today = (await createSession(t.app, staff, { date: inMinutes(20) })).schedule;
    const later = (await createSession(t.app, staff, { date: inMinutes(4 * 24 * 60) })).schedule;
    const id = (await book(t.app, telegramUser(), bookingPayload(today.id, { name: 'Анна' }))).json().record
      .id as number;
    const far = (await book(t.app, telegramUser(), bookingPayload(later.id, { name: 'Олег' }))).json().record
      .id as number;
    await deliver(t);
    fake.reset();

    await send(textUpdate(tgUser(hostTg), '/today'));
    expect(fake.ok('sendMessage').some((c) => plain(c.params.text).includes('Анна'))).toBe(true);

    await send(callbackUpdate(tgUser(hostTg), `att:A:${id}`, 71));
    expect((await getRecord(t.database.db, id))!.attendance).toBe('ATTENDED');
    await send(callbackUpdate(tgUser(hostTg), `cash:${id}`, 71));
    expect(await ledgerSize(id)).toBe(1);

    for (const data of [`att:A:${far}`, `cash:${far}`]) {
      fake.reset();
      await send(callbackUpdate(tgUser(hostTg), data, 72));
      expect(fake.ok('answerCallbackQuery').at(-1)!.params).toMatchObject({ text: 'Нет доступа', show_alert: true });
    }
    expect((await getRecord(t.database.db, far))!.attendance).toBeNull();
    expect(await ledgerSize(far)).toBe(0);
  });
});
