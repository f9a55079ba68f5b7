import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { plain, startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { STAFF_ALERT_COALESCE_MS } from '../../core/notify/outbox';
import { botTestApp, deliver, linkStaff, SESSION_DATE } from './setup';

// A customer cancelling and restoring one booking over and over: staff hear of the cancel once,
// not once per cycle.

const STAFF_CHAT = 730_001;

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake);
  staff = await t.auth();
  await linkStaff(t, staff, STAFF_CHAT);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const put = (url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method: 'PUT', url: `/api/v1${url}`, headers, payload });

describe('staff alerts about one booking', () => {
  it('cancel/restore cycles within a minute give one cancel alert, however many cycles', async () => {
    // Not across the edge of a minute slot: the test asserts the in-window behaviour.
    const intoSlot = Date.now() % STAFF_ALERT_COALESCE_MS;
    if (intoSlot > STAFF_ALERT_COALESCE_MS - 10_000)
      await new Promise((r) => setTimeout(r, STAFF_ALERT_COALESCE_MS - intoSlot + 50));
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const anna = telegramUser('anna');
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id as number;
    for (let i = 0; i < 6; i++) {
      expect((await put(`/records/cancel/${id}`, tma(anna), { cancel_reason: 'Не смогу' })).statusCode).toBe(200);
      expect((await put(`/records/restore/${id}`, tma(anna))).statusCode).toBe(200);
    }
    await deliver(t);
    const texts = fake.messages(STAFF_CHAT).map((m) => plain(m.params.text));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/новая запись/i);
    expect(texts[1]).toMatch(/отмен/i);
    // Another booking's cancel is told as usual.
    const boris = telegramUser('boris');
    const other = (await book(t.app, boris, bookingPayload(schedule.id))).json().record.id as number;
    await put(`/records/cancel/${other}`, tma(boris), { cancel_reason: 'Заболел' });
    await deliver(t);
    expect(fake.messages(STAFF_CHAT)).toHaveLength(4);
  });
});
