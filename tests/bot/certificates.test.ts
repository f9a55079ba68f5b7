import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { telegramUser } from '../helpers/factories';
import {
  keyboardOf,
  plain,
  deliverUpdate,
  postUpdate,
  preCheckoutUpdate,
  startFakeTelegram,
  successfulPaymentUpdate,
  textUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { certificateMessage, staffCertificateMessage } from '../../bot/certificate-messages';
import { rsd } from '../../contract/texts/ru/bot/money';
import { settleExpiredCertificates } from '../../core/certificates/expiry';
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
/** What its invoice names it by: its random invoice token. */
const payloadOf = async (id: number) => `gift:${(await certificateRow(id)).invoice_token}`;

describe('buying a certificate in Telegram', () => {
  it('the mini-app gets an invoice link for the chosen amount, in RSD minor units, naming the certificate', async () => {
    const { id, amount, body } = await purchase();
    expect(body).toMatchObject({ status: 'pending', invoice_url: expect.stringMatching(/^https:\/\/t\.me\//) });
    const call = fake.ok('createInvoiceLink')[0].params;
    expect(call).toMatchObject({ currency: 'RSD', payload: await payloadOf(id), provider_token: PROVIDER_TOKEN });
    expect(call.payload).toMatch(/^gift:[A-Za-z0-9_-]{22}$/);
    expect([...String(call.title)].length).toBeLessThanOrEqual(32);
    expect([...String(call.description)].length).toBeLessThanOrEqual(255);
    expect(JSON.parse(JSON.stringify(call.prices))).toEqual([{ label: 'Сертификат', amount: amount * 100 }]);
  });

  it('pre-checkout accepts exactly the amount from the buyer, and refuses others in Russian', async () => {
    const { tg, id, amount } = await purchase();
    const payload = await payloadOf(id);
    await send(preCheckoutUpdate(tg, payload, amount * 100));
    await send(preCheckoutUpdate(tg, payload, amount * 100 + 100));
    await send(preCheckoutUpdate(tgUser(telegramUser().id), payload, amount * 100));
    await send(preCheckoutUpdate(tg, payload, amount * 100, 'EUR'));
    expect(answers().map((a) => [a.ok, a.error_message])).toEqual([
      [true, undefined],
      [false, 'Сумма сертификата изменилась. Оформите покупку заново'],
      [false, 'Сертификат с таким кодом не найден'],
      [false, 'Оплата принимается только в динарах'],
    ]);
  });

  it('a payment delivered twice and concurrently is recorded once; the buyer gets the certificate with its card', async () => {
    const { tg, id, amount, user } = await purchase();
    const pay = successfulPaymentUpdate(tg, await payloadOf(id), amount * 100, 'cert-charge-1');
    // As Telegram delivers them: a copy answered 503 while another is being handled is sent again.
    const asTelegram = async (update: unknown) =>
      expect(await deliverUpdate(t.app, t.config.webhookSecret, update)).toBe(200);
    await Promise.all([
      asTelegram(pay),
      asTelegram(pay),
      asTelegram({ ...pay, update_id: pay.update_id + 1000 }),
      asTelegram({ ...pay, update_id: pay.update_id + 2000 }),
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
    expect(buttons.find((b) => b.url)?.url).toBe(`${PUBLIC_URL}/gift/${code}?lang=ru`);
    expect(buttons.find((b) => b.web_app)?.web_app?.url).toBe(`${PUBLIC_URL}/apply?cert=${c.code}`);
    // «Подарить сертификат»: Telegram's chat picker with the message to the recipient written, and the
    // card's link without a language (it opens in the recipient's).
    const share = new URL(buttons.find((b) => b.text === '📨 Подарить сертификат')!.url!);
    expect(`${share.origin}${share.pathname}`).toBe('https://t.me/share/url');
    expect(share.searchParams.get('url')).toBe(`${PUBLIC_URL}/gift/${code}`);
    expect(share.searchParams.get('text')).toBe(
      `🎁 Дарю тебе подарочный сертификат на ${rsd(amount)} на мастер-класс! Код: ${code}`,
    );
    // A second payment for it (another charge, from an invoice made before tokens: `cert:<id>`) is kept
    // and staff are told to return it.
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
    expect(text).toContain('Остаток: 4\u00a0000\u00a0RSD');
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
      'Сертификат с таким кодом не найден',
      'Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM',
    ]);
  });
});

describe('an expired certificate', () => {
  it('is reported to staff in the chat with what was written off, once', async () => {
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/',
      headers: staff,
      payload: { amount: 3000, method: 'cash', recipient_name: 'Ана' },
    });
    const { id, code } = issued.json();
    await t.database.db
      .updateTable('certificates')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', id)
      .execute();
    await deliver(t);
    fake.reset();
    await settleExpiredCertificates(t.database);
    await settleExpiredCertificates(t.database);
    await deliver(t);
    const alerts = fake.messages(staffChat).filter((m) => plain(m.params.text).includes(code));
    expect(alerts.map((m) => plain(m.params.text))).toEqual([
      `⌛ Срок сертификата ${code} истёк: неиспользованный остаток 3\u00a0000\u00a0RSD списан.`,
    ]);
  });
});

describe('a places certificate in the bot', () => {
  it('its link, the buyer’s message and the reminder say places with the language’s plurals', async () => {
    const buyer = telegramUser();
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/',
      headers: staff,
      payload: { places: 2, price_paid: 6000, method: 'card', buyer_telegram_id: buyer.id, recipient_name: 'Ана' },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const { code } = issued.json();
    await deliver(t);
    const ready = plain(fake.messages(buyer.id).at(-1)!.params.text);
    expect(ready).toContain('Ваш подарочный сертификат на 2 места на любой мастер-класс готов!');
    expect(ready).not.toContain('RSD');
    const shared = keyboardOf(fake.messages(buyer.id).at(-1)!)
      .flat()
      .find((b) => b.text === '📨 Подарить сертификат')!.url!;
    expect(new URL(shared).searchParams.get('text')).toBe(
      `🎁 Дарю тебе подарочный сертификат на 2 места на любой мастер-класс! Код: ${code}`,
    );

    const friend = tgUser(telegramUser().id);
    await send(textUpdate(friend, `/start cert_${code.replaceAll('-', '')}`));
    const opened = plain(fake.messages(friend.id).at(-1)!.params.text);
    expect(opened).toContain('Осталось: 2 места на любой мастер-класс');
    expect(opened).toContain('по месту на каждого участника');

    const where = { publicUrl: PUBLIC_URL, timezone: 'Europe/Belgrade' };
    const reminder = (n: number, language: 'ru' | 'en' | 'sr') =>
      plain(
        certificateMessage(
          {
            kind: 'certificate.expiring',
            payload: { code, balance: n, places_left: n, expires_at: '2027-11-23T10:00:00.000Z' },
          },
          { ...where, language },
        ).text,
      );
    expect(reminder(1, 'ru')).toContain('осталось 1 место на любой мастер-класс');
    expect(reminder(3, 'ru')).toContain('осталось 3 места на любой мастер-класс');
    expect(reminder(5, 'ru')).toContain('осталось 5 мест на любой мастер-класс');
    expect(reminder(1, 'en')).toContain('still has 1 place at any workshop');
    expect(reminder(2, 'en')).toContain('still has 2 places at any workshop');
    expect(reminder(1, 'sr')).toContain('preostalo 1 mesto na bilo kojoj radionici');
    expect(reminder(5, 'sr')).toContain('preostalo 5 mesta na bilo kojoj radionici');
    const readyIn = (language: 'en' | 'sr') =>
      plain(
        certificateMessage(
          {
            kind: 'certificate.ready',
            payload: {
              certificate_id: 1,
              code,
              amount: 6000,
              places: 2,
              recipient_name: null,
              greeting: null,
              expires_at: '2027-11-23T10:00:00.000Z',
              url: `/gift/${code}`,
            },
          },
          { ...where, language },
        ).text,
      );
    expect(readyIn('en')).toContain('Your gift certificate for 2 places at any workshop is ready!');
    expect(readyIn('sr')).toContain('poklon-sertifikat za 2 mesta na bilo kojoj radionici');
    // Staff hear how many places an expiry wrote off.
    const alert = staffCertificateMessage(
      { kind: 'staff.certificate', payload: { event: 'expired', code, amount: 0, places: 2, buyer_name: null } },
      where,
    );
    expect(plain(alert.text)).toContain('списано неиспользованных мест — 2');
  });
});
