import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCallbackData } from '../../bot/callback-data';
import { formatMoney } from '../../contract/format';
import { checkMoneyInvariants } from '../../core/payments/invariants';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession } from '../helpers/factories';
import {
  callbackUpdate,
  postUpdate,
  startFakeTelegram,
  textUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { botTestApp, linkStaff } from '../bot/setup';

/*
 * Erasure never swallows money: a customer with studio credit and a paid upcoming booking who says
 * /forget is told the amounts first; afterwards staff see all of it owed back, without the person.
 */

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake);
  staff = await t.auth();
  // Staff linked to Telegram with alerts on, so the erasure's alert has someone to reach.
  await linkStaff(t, staff, 880_002, { userApply: true, userCancel: true, scheduled1d: false });
  // Refunds go to credit by default here: the erasure must not leave money on a credit nobody holds.
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/business-settings/',
    headers: staff,
    payload: { prepayment: 'none', refund_to: 'credit' },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** A customer with a booking of 3500 paid at the desk and 1000 of studio credit; the booking's id. */
async function customerWithMoney(id: number): Promise<number> {
  const { schedule } = await createSession(t.app, staff, { price: 3500 });
  const booked = await book(t.app, { id, username: `payer${id}` }, bookingPayload(schedule.id, { name: 'Феофания' }));
  expect(booked.statusCode, booked.body).toBe(201);
  const recordId = booked.json().record.id as number;
  const paid = await t.app.inject({
    method: 'POST',
    url: `/api/v1/records/${recordId}/payments`,
    headers: staff,
    payload: { amount: 3500, method: 'cash' },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  const credit = await t.app.inject({
    method: 'POST',
    url: `/api/v1/customers/${id}/credit`,
    headers: staff,
    payload: { amount: 1000, reason: 'Компенсация за перенос' },
  });
  expect(credit.json()).toEqual({ balance: 1000 });
  return recordId;
}

const refundsOwed = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/payments/', headers: staff })).json().refunds_owed as number;

describe('/forget with money at the studio', () => {
  for (const [language, says] of [
    ['ru', ['На вашем балансе в студии: ', 'Оплачено за предстоящие записи: ', 'студия будет должна вам ']],
    ['en', ['Your studio balance: ', 'Paid for upcoming bookings: ', 'the studio will owe you ']],
    ['sr', ['Vaše stanje u studiju: ', 'Plaćeno za predstojeće prijave: ', 'studio će vam dugovati ']],
  ] as const)
    it(`says the amounts before asking (${language}); afterwards the 4500 owed is the staff's to see, with no trace of the person`, async () => {
      const id = 779_000_100 + ['ru', 'en', 'sr'].indexOf(language);
      const recordId = await customerWithMoney(id);
      const owedBefore = await refundsOwed();
      const u = { ...tgUser(id, `payer${id}`), language_code: language };
      const send = async (update: unknown) =>
        expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);

      await send(textUpdate(u, '/forget'));
      const ask = fake.ok('sendMessage', id).at(-1)!.params.text as string;
      const money = (n: number) => formatMoney(n, language);
      expect(ask).toContain(`${says[0]}${money(1000)}`);
      expect(ask).toContain(`${says[1]}${money(3500)}`);
      expect(ask).toContain(`${says[2]}${money(4500)}`);

      await send(callbackUpdate(u, encodeCallbackData({ kind: 'forget', yes: true })));
      const done = fake.ok('editMessageText', id).at(-1)!.params.text as string;
      expect(done).toContain(money(4500));

      // Staff see it: the cash desk owes 4500 more, the booking's ledger owes its 3500.
      expect((await refundsOwed()) - owedBefore).toBe(4500);
      const ledger = (
        await t.app.inject({ method: 'GET', url: `/api/v1/records/${recordId}/payments`, headers: staff })
      ).json();
      expect(ledger.money).toMatchObject({ status: 'refund_owed', balance: -3500, amount_paid: 3500 });
      // The credit's way out is a ledger row that names nobody.
      const rows = await t.database.db.selectFrom('payments').selectAll().where('record_id', 'is', null).execute();
      expect(rows.filter((r) => r.telegram_id === id)).toEqual([]);
      const out = rows.filter((r) => r.amount === -1000 && r.method === 'credit').at(-1)!;
      expect(out).toMatchObject({ telegram_id: null, kind: 'adjustment' });
      const owed = await t.database.db
        .selectFrom('owed_refunds')
        .selectAll()
        .where('payment_id', '=', out.id)
        .execute();
      expect(owed).toMatchObject([{ amount: 1000, reason: 'erasure', refunded_at: null }]);
      // Staff's alert: the amounts only.
      const alert = await t.database.db
        .selectFrom('notifications')
        .select('payload')
        .where('kind', '=', 'staff.erased_money')
        .where('chat_id', '=', 880_002)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(alert.payload)).toEqual({ credit: 1000, paid: 3500, owed: 4500 });
      // Nothing of the person is left in the money or the booking.
      const personal = [String(id), `payer${id}`, 'Феофания'];
      const texts = JSON.stringify([
        await t.database.db.selectFrom('payments').selectAll().execute(),
        await t.database.db.selectFrom('owed_refunds').selectAll().execute(),
        await t.database.db.selectFrom('records').selectAll().where('id', '=', recordId).execute(),
        await t.database.db.selectFrom('notifications').select('payload').where('kind', 'like', 'staff.%').execute(),
      ]);
      for (const p of personal) expect(texts).not.toContain(p);
      // The books still balance: the nightly money check finds nothing to report.
      expect(await checkMoneyInvariants(t.database.db)).toEqual([]);
    });

  it('a customer without money is asked without amounts and nothing is owed or alerted', async () => {
    const id = 779_000_200;
    const u = tgUser(id, `nomoney${id}`);
    const alerts = async () =>
      (await t.database.db.selectFrom('notifications').select('id').where('kind', '=', 'staff.erased_money').execute())
        .length;
    const before = await alerts();
    await postUpdate(t.app, t.config.webhookSecret, textUpdate(u, '/forget'));
    const ask = fake.ok('sendMessage', id).at(-1)!.params.text as string;
    expect(ask).not.toContain('RSD');
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/me/data',
      headers: tma({ id, username: `nomoney${id}` }),
    });
    expect(res.json()).toMatchObject({ owed: 0 });
    expect(await alerts()).toBe(before);
  });
});
