import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { linkStaff } from '../bot/setup';
import { MONEY_CHECK_HOUR } from '../../core/jobs/money-check';
import { checkMoneyInvariants } from '../../core/payments/invariants';

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const OWNER_CHAT = 9_400_001;

/** The next moment after `from` when it is half past the check's hour in the studio's zone. */
function quietHourAfter(from: number): Date {
  const hour = new Intl.DateTimeFormat('en-GB', {
    timeZone: t.config.businessTimezone,
    hour: '2-digit',
    hourCycle: 'h23',
  });
  for (let at = Math.ceil(from / 3600_000) * 3600_000 + 1800_000; ; at += 3600_000)
    if (Number(hour.format(at)) === MONEY_CHECK_HOUR) return new Date(at);
}

const alerts = () =>
  t.database.db
    .selectFrom('notifications')
    .select(['chat_id', 'payload'])
    .where('kind', '=', 'staff.money_check')
    .execute()
    .then((rows) => rows.map((r) => ({ chat_id: Number(r.chat_id), text: JSON.parse(r.payload).text as string })));

describe('the nightly money check', () => {
  it('reports a row written behind the ledger’s back to the owner once, at the quiet hour, not every night again', async () => {
    await linkStaff(t, staff, OWNER_CHAT);
    const { schedule } = await createSession(t.app, staff, { price: 3000 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id as number;
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${id}/payments`,
      headers: staff,
      payload: { method: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(201);

    const night = quietHourAfter(Date.now());
    await t.scheduler.runOnce(night);
    expect(await alerts()).toEqual([]);

    // A refund of 5000 on a booking that received 3000, inserted past the ledger's writer.
    await t.database.db
      .insertInto('payments')
      .values({
        record_id: id,
        telegram_id: anna.id,
        amount: -5000,
        method: 'cash',
        kind: 'refund',
        recorded_by_kind: 'system',
        recorded_by_user_id: null,
        telegram_payment_charge_id: null,
        provider_payment_charge_id: null,
        note: null,
        at: new Date().toISOString(),
      })
      .execute();

    // Not at another hour of the day.
    await t.scheduler.runOnce(new Date(night.getTime() + 6 * 3600_000));
    expect(await alerts()).toEqual([]);

    const next = quietHourAfter(night.getTime() + 3600_000);
    await t.scheduler.runOnce(next);
    const told = await alerts();
    expect(told).toContainEqual({
      chat_id: OWNER_CHAT,
      text: `Запись №${id}: возвращено на 2\u00a0000\u00a0RSD больше, чем было получено`,
    });
    expect(told.every((a) => a.chat_id === OWNER_CHAT)).toBe(true);

    // The same break the next nights (and again the same night, another instance) is not told again.
    await t.scheduler.runOnce(new Date(next.getTime() + 60_000));
    await t.scheduler.runOnce(quietHourAfter(next.getTime() + 3600_000));
    expect(await alerts()).toEqual(told);
  });
});

describe('the money invariants', () => {
  const row = (values: {
    record_id: number | null;
    telegram_id: number | null;
    amount: number;
    method: 'cash' | 'credit';
  }) =>
    t.database.db
      .insertInto('payments')
      .values({
        ...values,
        kind: 'adjustment',
        recorded_by_kind: 'system',
        recorded_by_user_id: null,
        telegram_payment_charge_id: null,
        provider_payment_charge_id: null,
        note: null,
        at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

  it('name each break: credit below zero, money owed to nobody, a certificate spend the booking never got', async () => {
    const before = new Set((await checkMoneyInvariants(t.database.db)).map((b) => b.key));
    const bob = telegramUser();
    await row({ record_id: null, telegram_id: bob.id, amount: -700, method: 'credit' });
    const orphan = await row({ record_id: null, telegram_id: null, amount: 1200, method: 'cash' });
    const c = await t.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/',
      headers: staff,
      payload: { amount: 3000, method: 'cash' },
    });
    expect(c.statusCode, c.body).toBe(201);
    const { schedule } = await createSession(t.app, staff, { price: 3000 });
    const id = (await book(t.app, bob, bookingPayload(schedule.id))).json().record.id as number;
    await t.database.db
      .insertInto('certificate_entries')
      .values({
        certificate_id: c.json().id,
        kind: 'redemption',
        amount: -1000,
        places: null,
        record_id: id,
        payment_id: null,
        note: null,
        recorded_by_kind: 'system',
        recorded_by_user_id: null,
        at: new Date().toISOString(),
      })
      .execute();
    const found = (await checkMoneyInvariants(t.database.db)).filter((b) => !before.has(b.key));
    expect(found).toEqual([
      { key: `credit-negative:${bob.id}`, text: `Баланс в студии клиента ${bob.id} ушёл в минус: -700\u00a0RSD` },
      {
        key: `record-certificate:${id}`,
        text: `Запись №${id}: сертификаты отдали 1\u00a0000\u00a0RSD, а в журнале записи 0\u00a0RSD`,
      },
      {
        key: `payment-orphan:${orphan.id}`,
        text: `Платёж №${orphan.id} на 1\u00a0200\u00a0RSD: ни записи, ни сертификата, ни клиента`,
      },
    ]);
  });
});
