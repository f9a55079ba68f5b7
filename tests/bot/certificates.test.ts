import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { telegramUser } from '../helpers/factories';
import {
  keyboardOf,
  plain,
  postUpdate,
  preCheckoutUpdate,
  startFakeTelegram,
  successfulPaymentUpdate,
  textUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { botTestApp, createStaff, deliver, linkStaff, PUBLIC_URL } from './setup';

// Buying a certificate with a Telegram invoice against the fake Bot API, the buyer's message, and its link in the bot.
const PROVIDER_TOKEN = '284685063:TEST:certificate-tests';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
const staffChat = 9_400_001;

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake, { env: { PAYMENT_PROVIDER_TOKEN: PROVIDER_TOKEN } });
  staff = await t.auth();
  const cashier = await createStaff(t, 'cashier@example.com');
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

const send = async (update: unknown) =>
  expect((await postUpdate(t.app, t.config.webhookSecret, update)).statusCode).toBe(200);
const answers = () => fake.ok('answerPreCheckoutQuery').map((c) => c.params);

async function purchase(user = telegramUser()) {
  const options = await t.app.inject({ method: 'GET', url: '/api/v1/certificates/options', headers: tma(user) });
  expect(options.json()).toMatchObject({ telegram: true });
  const amount = options.json().amounts[1] as number;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/certificates/purchase',
    headers: tma(user),
    payload: { amount, recipient_name: 'Мария', greeting: 'С праздником!' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { user, tg: tgUser(user.id), id: res.json().id as number, amount, body: res.json() };
}
const certificateRow = (id: number) =>
  t.database.db.selectFrom('certificates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('buying a certificate in Telegram', () => {
  it('the mini-app gets an invoice link for the chosen amount, in RSD minor units, naming the certificate', async () => {
    const { id, amount, body } = await purchase();
    expect(body).toMatchObject({ status: 'pending', invoice_url: expect.stringMatching(/^https:\/\/t\.me\//) });
    const call = fake.ok('createInvoiceLink')[0].params;
    expect(call).toMatchObject({ currency: 'RSD', payload: `cert:${id}`, provider_token: PROVIDER_TOKEN });
    expect([...String(call.title)].length).toBeLessThanOrEqual(32);
    expect([...String(call.description)].length).toBeLessThanOrEqual(255);
    expect(JSON.parse(JSON.stringify(call.prices))).toEqual([{ label: 'Сертификат', amount: amount * 100 }]);
  });

  it('pre-checkout accepts exactly the amount from the buyer, and refuses others in Russian', async () => {
    const { tg, id, amount } = await purchase();
    await send(preCheckoutUpdate(tg, `cert:${id}`, amount * 100));
    await send(preCheckoutUpdate(tg, `cert:${id}`, amount * 100 + 100));
    await send(preCheckoutUpdate(tgUser(telegramUser().id), `cert:${id}`, amount * 100));
    await send(preCheckoutUpdate(tg, `cert:${id}`, amount * 100, 'EUR'));
    expect(answers().map((a) => [a.ok, a.error_message])).toEqual([
      [true, undefined],
      [false, 'Сумма сертификата изменилась. Оформите покупку заново'],
      [false, 'Сертификат с таким кодом не найден'],
      [false, 'Оплата принимается только в динарах'],
    ]);
  });

  it('a payment delivered twice and concurrently is recorded once; the buyer gets the certificate with its card', async () => {
    const { tg, id, amount, user } = await purchase();
    const pay = successfulPaymentUpdate(tg, `cert:${id}`, amount * 100, 'cert-charge-1');
    await Promise.all([
      send(pay),
      send(pay),
      send({ ...pay, update_id: pay.update_id + 1000 }),
      send({ ...pay, update_id: pay.update_id + 2000 }),
    ]);
    const sales = await t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('telegram_payment_charge_id', '=', 'cert-charge-1')
      .execute();
    expect(sales).toMatchObject([{ amount, method: 'telegram', record_id: null }]);
    const c = await certificateRow(id);
    expect(c.paid_at).not.toBeNull();
    expect(c.pay_method).toBe('telegram');
    const entries = await t.database.db
      .selectFrom('certificate_entries')
      .selectAll()
      .where('certificate_id', '=', id)
      .execute();
    expect(entries).toMatchObject([{ kind: 'sale', amount }]);

    await deliver(t);
    const sent = fake.messages(user.id);
    expect(sent).toHaveLength(1);
    const text = plain(sent[0].params.text);
    const code = `${c.code.slice(0, 4)}-${c.code.slice(4, 8)}-${c.code.slice(8)}`;
    expect(text).toContain('Ваш подарочный сертификат на');
    expect(text).toContain(`Код: ${code}`);
    expect(text).toContain('Для: Мария');
    expect(text).toContain('У меня есть сертификат');
    const buttons = keyboardOf(sent[0]).flat();
    expect(buttons.find((b) => b.url)?.url).toBe(`${PUBLIC_URL}/gift/${code}`);
    expect(buttons.find((b) => b.web_app)?.web_app?.url).toBe(`${PUBLIC_URL}/apply?cert=${c.code}`);
    // A second payment for it (another charge) is kept and staff are told to return it.
    await send(successfulPaymentUpdate(tg, `cert:${id}`, amount * 100, 'cert-charge-2'));
    await deliver(t);
    expect(fake.messages(staffChat).some((m) => plain(m.params.text).includes('верните её покупателю'))).toBe(true);
  });
});

describe('the certificate’s link in the bot', () => {
  it('shows its balance and expiry, links it to the opener for the reminder, and refuses bad codes', async () => {
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/',
      headers: staff,
      payload: { amount: 4000, method: 'cash', recipient_name: 'Ана' },
    });
    const { id, code } = issued.json();
    const friend = tgUser(telegramUser().id);
    await send(textUpdate(friend, `/start cert_${code.replaceAll('-', '').toLowerCase()}`));
    const reply = fake.messages(friend.id).at(-1)!;
    const text = plain(reply.params.text);
    expect(text).toContain(`Подарочный сертификат ${code}`);
    expect(text).toContain('Остаток: 4 000 дин.');
    expect(text).toMatch(/Действует до \d+ \S+ \d{4}/);
    expect(
      keyboardOf(reply)
        .flat()
        .some((b) => b.web_app?.url === `${PUBLIC_URL}/apply?cert=${code.replaceAll('-', '')}`),
    ).toBe(true);
    expect(Number((await certificateRow(id)).recipient_telegram_id)).toBe(friend.id);
    // Someone else opening it later does not take it over.
    await send(textUpdate(tgUser(telegramUser().id), `/start cert_${code.replaceAll('-', '')}`));
    expect(Number((await certificateRow(id)).recipient_telegram_id)).toBe(friend.id);

    const stranger = tgUser(telegramUser().id);
    await send(textUpdate(stranger, '/start cert_ABCDEFGHJKLM'));
    await send(textUpdate(stranger, '/start cert_abc'));
    expect(fake.messages(stranger.id).map((m) => plain(m.params.text))).toEqual([
      'Сертификат с таким кодом не найден.',
      'Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM.',
    ]);
  });
});
