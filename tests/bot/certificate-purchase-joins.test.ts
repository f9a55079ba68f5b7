import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { telegramUser } from '../helpers/factories';
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
import { startPurchase } from '../../core/certificates/purchase';
import { customerActor } from '../../core/kernel/actor';
import { checkMoneyInvariants } from '../../core/payments/invariants';

/*
 * A gift certificate bought in Telegram: its invoice link is made before the certificate is written, so
 * no write waits on Telegram's answer (SQLite has one write lock); the certificate is then found by the
 * token its invoice names. A payment naming a certificate that is not there is kept once as the payer's
 * studio credit and told to staff, as a payment for a deleted booking is.
 */

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
const staffChat = 9_300_171;

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake, { env: { PAYMENT_PROVIDER_TOKEN: '284685063:TEST:joins' } });
  staff = await t.auth();
  const cashier = await createStaff(t, 'cashier-joins@example.com');
  await linkStaff(t, cashier, staffChat, { userApply: true, userCancel: true, scheduled1d: false });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(async () => {
  await deliver(t);
  fake.reset();
});

const certificates = () => t.database.db.selectFrom('certificates').select(['id', 'invoice_token']).execute();

describe('a certificate’s invoice link', () => {
  it('is made before the certificate is written: another write goes through while Telegram answers', async () => {
    const user = telegramUser();
    let answer!: () => void;
    const telegramAnswers = new Promise<void>((resolve) => (answer = resolve));
    let asked!: (token: string) => void;
    const linkAsked = new Promise<string>((resolve) => (asked = resolve));
    const purchase = startPurchase(
      t.database,
      customerActor(user.id),
      { amount: 3500 },
      {
        name: 'Анна',
        telegramInvoices: true,
        amounts: [3500],
        invoice: async (token) => {
          asked(token);
          await telegramAnswers;
        },
      },
    );
    const token = await linkAsked;
    // A staff write while Telegram is still answering: it does not wait for the purchase.
    const write = t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { prepayment: 'none' },
    });
    const first = await Promise.race([
      write.then(() => 'write'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3000)),
    ]);
    answer();
    expect(first).toBe('write');
    expect((await write).statusCode).toBe(200);
    const c = await purchase;
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await certificates()).find((r) => r.id === c.id)?.invoice_token).toBe(token);
  });

  it('refused by Telegram leaves no certificate', async () => {
    const before = (await certificates()).length;
    await expect(
      startPurchase(
        t.database,
        customerActor(telegramUser().id),
        { amount: 3500 },
        {
          name: 'Анна',
          telegramInvoices: true,
          amounts: [3500],
          invoice: async () => {
            throw new Error('Telegram is unreachable');
          },
        },
      ),
    ).rejects.toThrow('Telegram is unreachable');
    expect(await certificates()).toHaveLength(before);
  });
});

describe('a successful_payment for a gift certificate that is not there', () => {
  for (const [name, payload] of [
    ['an unknown token', 'gift:NoSuchCertificate0001'],
    ['an unknown id (an invoice made before tokens)', 'cert:99999999'],
  ] as const)
    it(`naming ${name} is kept once as the payer’s credit, however many copies arrive at once, and staff are told`, async () => {
      for (let round = 0; round < 3; round++) {
        const user = telegramUser();
        const tg = { ...tgUser(user.id, 'gift_buyer'), last_name: 'Петрова' };
        const update = successfulPaymentUpdate(tg, payload, 500_000, `charge-no-cert-${user.id}`);
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
          { record_id: null, telegram_id: user.id, amount: 5000, method: 'telegram' },
          { record_id: null, telegram_id: user.id, amount: 5000, method: 'credit' },
        ]);
        const credit = async () =>
          (await t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) })).json();
        expect(await credit()).toEqual({ balance: 5000 });
        // A replay later changes nothing.
        expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
        expect(await credit()).toEqual({ balance: 5000 });
        await deliver(t);
        expect(fake.messages(staffChat).map((m) => plain(m.params.text))).toEqual([
          '⚠️ Оплата 5\u00a0000\u00a0RSD через Telegram от Анна Петрова @gift_buyer пришла за подарочный сертификат, которого нет: зачислена на баланс клиента в студии.',
        ]);
        fake.reset();
      }
      expect(await checkMoneyInvariants(t.database.db)).toEqual([]);
    });
});
