import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TelegramOptions } from '../../bot/runtime';
import { takeUpdate } from '../../db/repositories/telegram-updates';
import { buildTestApp, type TestApp } from '../helpers/app';
import { isPostgres } from '../helpers/db';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  postUpdate,
  startFakeTelegram,
  successfulPaymentUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { PUBLIC_URL } from './setup';

/*
 * A customer's money must not be lost when the handling of Telegram's successful_payment fails once:
 * the webhook then answers non-2xx, Telegram sends the update again, and the retry records the charge
 * (once, by its charge id). An instance that died while handling it holds it only for its lease.
 */

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

async function start(telegram: TelegramOptions = {}) {
  t = await buildTestApp({
    env: { ...fake.env, PUBLIC_URL, PAYMENT_PROVIDER_TOKEN: '284685063:TEST:retry-tests' },
    telegram,
  });
  staff = await t.auth();
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/business-settings/',
    headers: staff,
    payload: { prepayment: 'full', payment_hold_minutes: 30 },
  });
  expect(res.statusCode).toBe(200);
}

beforeEach(async () => {
  fake = await startFakeTelegram();
});
afterEach(async () => {
  await t.close();
  await fake.close();
});

async function booked(price: number) {
  const { schedule } = await createSession(t.app, staff, { price });
  const user = telegramUser();
  const res = await book(t.app, user, bookingPayload(schedule.id));
  expect(res.statusCode).toBe(201);
  return { tg: tgUser(user.id), id: res.json().record.id as number };
}

const post = (update: unknown) => postUpdate(t.app, t.config.webhookSecret, update).then((r) => r.statusCode);
const payments = async (id: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: staff })).json<{
    payments: { amount: number; telegram_payment_charge_id: string | null }[];
    money: { status: string };
  }>();

/** Makes every insert into the ledger fail, as a database that dropped the connection would, until `heal()`. */
async function breakLedger(): Promise<{ heal(): Promise<void> }> {
  const db = t.database.db;
  if (isPostgres()) {
    await sql`create function refuse_payment() returns trigger language plpgsql as $$ begin raise exception 'ledger unavailable'; end $$`.execute(
      db,
    );
    await sql`create trigger refuse_payment before insert on payments for each row execute function refuse_payment()`.execute(
      db,
    );
    return {
      heal: async () => {
        await sql`drop trigger refuse_payment on payments`.execute(db);
        await sql`drop function refuse_payment()`.execute(db);
      },
    };
  }
  await sql`create trigger refuse_payment before insert on payments begin select raise(abort, 'ledger unavailable'); end`.execute(
    db,
  );
  return { heal: async () => void (await sql`drop trigger refuse_payment`.execute(db)) };
}

describe('a successful_payment whose handling fails', () => {
  it('right after a start, when getMe fails: answered 500, and recorded once when Telegram sends it again', async () => {
    await start({ botInfo: undefined });
    const { tg, id } = await booked(3500);
    fake.failNext('getMe', 'unreachable');
    const update = successfulPaymentUpdate(tg, `record:${id}`, 350_000, 'charge-getme');
    expect(await post(update)).toBe(500);
    expect(fake.calls.filter((c) => c.method === 'getMe')).toHaveLength(1);
    expect((await payments(id)).payments).toHaveLength(0);
    expect(await post(update)).toBe(200);
    expect(await post(update)).toBe(200);
    const after = await payments(id);
    expect(after.payments).toMatchObject([{ amount: 3500, telegram_payment_charge_id: 'charge-getme' }]);
    expect(after.money.status).toBe('paid');
  });

  it('when the database refuses its write: answered 500, and recorded once when Telegram sends it again', async () => {
    await start();
    const { tg, id } = await booked(2000);
    const update = successfulPaymentUpdate(tg, `record:${id}`, 200_000, 'charge-db');
    const ledger = await breakLedger();
    expect(await post(update)).toBe(500);
    expect(await post(update)).toBe(500);
    await ledger.heal();
    expect(await post(update)).toBe(200);
    // Telegram's own repeats after success change nothing.
    expect(await Promise.all([post(update), post(update)])).toEqual([200, 200]);
    const after = await payments(id);
    expect(after.payments).toMatchObject([{ amount: 2000, telegram_payment_charge_id: 'charge-db' }]);
    expect(after.money.status).toBe('paid');
  });

  it('when the instance handling it died: busy (503) while its lease runs, then taken again and recorded once', async () => {
    await start();
    const { tg, id } = await booked(1500);
    const update = successfulPaymentUpdate(tg, `record:${id}`, 150_000, 'charge-died');
    // Another instance took the update a moment ago and was killed before it finished.
    await takeUpdate(t.database.db, update.update_id, new Date(), 60_000, 5);
    expect(await post(update)).toBe(503);
    expect((await payments(id)).payments).toHaveLength(0);
    // Its lease ran out: as if the dead instance had taken it two minutes ago.
    await t.database.db
      .updateTable('telegram_updates')
      .set({ lease_until: new Date(Date.now() - 60_000).toISOString() })
      .where('update_id', '=', update.update_id)
      .execute();
    expect(await post(update)).toBe(200);
    expect(await post(update)).toBe(200);
    expect((await payments(id)).payments).toMatchObject([{ amount: 1500, telegram_payment_charge_id: 'charge-died' }]);
  });

  it('an update that keeps failing is given up after five deliveries and the customer is told', async () => {
    await start();
    const { tg, id } = await booked(1000);
    const update = successfulPaymentUpdate(tg, `record:${id}`, 100_000, 'charge-broken');
    await breakLedger();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await post(update));
    expect(statuses).toEqual([500, 500, 500, 500, 200, 200]);
    expect(fake.messages(tg.id).length).toBeGreaterThan(0);
  });
});
