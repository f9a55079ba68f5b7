import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { isPostgres } from '../helpers/db';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  deliverUpdate,
  plain,
  postUpdate,
  startFakeTelegram,
  successfulPaymentUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { botTestApp, createStaff, deliver, linkStaff } from './setup';

/*
 * A charge is never lost: money for a booking whose session staff deleted after the customer passed
 * pre-checkout is kept as the payer's studio credit (once, however Telegram delivers it), and a charge
 * whose handling is given up is told to staff.
 */

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
const staffChat = 9_300_071;

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake, { env: { PAYMENT_PROVIDER_TOKEN: '284685063:TEST:unbooked' } });
  staff = await t.auth();
  const cashier = await createStaff(t, 'cashier-unbooked@example.com');
  await linkStaff(t, cashier, staffChat, { userApply: true, userCancel: true, scheduled1d: false });
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/business-settings/',
    headers: staff,
    payload: { prepayment: 'full', payment_hold_minutes: 30, refund_to: 'credit' },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(async () => {
  await deliver(t);
  fake.reset();
});

async function bookedThenDeleted(price: number) {
  const { schedule } = await createSession(t.app, staff, { price });
  const user = telegramUser();
  const res = await book(t.app, user, bookingPayload(schedule.id));
  expect(res.statusCode).toBe(201);
  // A session with an open booking cannot be deleted: the customer cancelled (nothing paid), then it went.
  const cancel = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/records/cancel/${res.json().record.id}`,
    headers: tma(user),
    payload: { cancel_reason: 'Передумала' },
  });
  expect(cancel.statusCode, cancel.body).toBe(200);
  const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/schedule/${schedule.id}`, headers: staff });
  expect(del.statusCode, del.body).toBe(200);
  return { user, tg: { ...tgUser(user.id, 'anna_pays'), last_name: 'Петрова' }, id: res.json().record.id as number };
}

const ledgerOfCharge = (charge: string) =>
  t.database.db.selectFrom('payments').select('id').where('telegram_payment_charge_id', '=', charge).execute();
const credit = (user: ReturnType<typeof telegramUser>) =>
  t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) }).then((r) => r.json());

describe('a successful_payment for a booking that no longer exists', () => {
  it('is kept once as the payer’s credit, however many copies arrive at once, and staff are told', async () => {
    for (let round = 0; round < 3; round++) {
      const { user, tg, id } = await bookedThenDeleted(3200);
      const charge = `charge-gone-${id}`;
      const update = successfulPaymentUpdate(tg, `record:${id}`, 320_000, charge);
      const statuses = await Promise.all([
        deliverUpdate(t.app, t.config.webhookSecret, update),
        deliverUpdate(t.app, t.config.webhookSecret, update),
        deliverUpdate(t.app, t.config.webhookSecret, { ...update, update_id: update.update_id + 5000 }),
        deliverUpdate(t.app, t.config.webhookSecret, { ...update, update_id: update.update_id + 6000 }),
      ]);
      expect(statuses).toEqual([200, 200, 200, 200]);
      const rows = await t.database.db
        .selectFrom('payments')
        .select(['record_id', 'telegram_id', 'amount', 'method'])
        .where('telegram_id', '=', user.id)
        .orderBy('id')
        .execute();
      expect(rows.map((r) => ({ ...r, telegram_id: Number(r.telegram_id) }))).toEqual([
        { record_id: null, telegram_id: user.id, amount: 3200, method: 'telegram' },
        { record_id: null, telegram_id: user.id, amount: 3200, method: 'credit' },
      ]);
      expect(await credit(user)).toEqual({ balance: 3200 });
      // A replay later changes nothing.
      expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
      expect(await credit(user)).toEqual({ balance: 3200 });
      await deliver(t);
      const told = fake.messages(staffChat).map((m) => plain(m.params.text));
      expect(told.filter((x) => x.includes(`запись №${id}, которой больше нет`))).toEqual([
        `⚠️ Оплата 3\u00a0200\u00a0RSD через Telegram от Анна Петрова @anna_pays пришла за запись №${id}, которой больше нет (мастер-класс удалён): зачислена на баланс клиента в студии.`,
      ]);
      // The payer is told, in their language, where the money is.
      expect(fake.messages(user.id).map((m) => plain(m.params.text))).toContain(
        `Оплата 3\u00a0200\u00a0RSD поступила, но того, за что она была, больше нет: деньги зачислены на ваш баланс в студии (сейчас на нём 3\u00a0200\u00a0RSD). Они пойдут в счёт следующей записи, а вернуть их можно, написав студии.`,
      );
      fake.reset();
    }
  });

  it('tells an English-speaking payer in English', async () => {
    const { user, tg, id } = await bookedThenDeleted(1000);
    const update = successfulPaymentUpdate(
      { ...tg, language_code: 'en' } as typeof tg,
      `record:${id}`,
      100_000,
      `en-${id}`,
    );
    expect(await deliverUpdate(t.app, t.config.webhookSecret, update)).toBe(200);
    await deliver(t);
    const told = fake.messages(user.id).map((m) => plain(m.params.text).replace(/\s/g, ' '));
    expect(told).toContain(
      'Your payment of 1,000 RSD arrived, but what it was for no longer exists: the money went to your studio balance (now 1,000 RSD). It counts toward your next booking; to get it back, write to the studio.',
    );
  });

  it('the cash desk counts it received and held as credit, not owed back', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/v1/payments/', headers: staff })).json();
    const { tg, id } = await bookedThenDeleted(1500);
    await deliverUpdate(t.app, t.config.webhookSecret, successfulPaymentUpdate(tg, `record:${id}`, 150_000, `c-${id}`));
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/payments/', headers: staff })).json();
    expect(after.received - before.received).toBe(1500);
    expect(after.credit_outstanding - before.credit_outstanding).toBe(1500);
    expect(after.refunds_owed - before.refunds_owed).toBe(0);
  });
});

describe('a successful_payment whose handling is given up', () => {
  it('is told to staff, to record by hand', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 900 });
    const user = telegramUser();
    const res = await book(t.app, user, bookingPayload(schedule.id));
    const id = res.json().record.id as number;
    const update = successfulPaymentUpdate(tgUser(user.id), `record:${id}`, 90_000, `charge-broken-${id}`);
    const heal = await breakLedger();
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode);
      expect(statuses).toEqual([500, 500, 500, 500, 200]);
    } finally {
      await heal();
    }
    expect(await ledgerOfCharge(`charge-broken-${id}`)).toEqual([]);
    await deliver(t);
    expect(fake.messages(staffChat).map((m) => plain(m.params.text))).toContain(
      `🚨 Оплата 900\u00a0RSD через Telegram от Анна за запись №${id} не записана: обработка не удалась несколько раз. Внесите её вручную (платёж charge-broken-${id}).`,
    );
  });
});

/** Every insert into the ledger fails (as a dropped database would) until the returned heal(). */
async function breakLedger(): Promise<() => Promise<void>> {
  const db = t.database.db;
  if (isPostgres()) {
    await sql`create function refuse_payment() returns trigger language plpgsql as $$ begin raise exception 'ledger unavailable'; end $$`.execute(
      db,
    );
    await sql`create trigger refuse_payment before insert on payments for each row execute function refuse_payment()`.execute(
      db,
    );
    return async () => {
      await sql`drop trigger refuse_payment on payments`.execute(db);
      await sql`drop function refuse_payment()`.execute(db);
    };
  }
  await sql`create trigger refuse_payment before insert on payments begin select raise(abort, 'ledger unavailable'); end`.execute(
    db,
  );
  return async () => void (await sql`drop trigger refuse_payment`.execute(db));
}
