import { afterAll, describe, expect, it } from 'vitest';
import { createLpfr } from '../../core/fiscal/lpfr';
import { writeFiscalSettings } from '../../core/fiscal/settings';
import { createFiscalSender } from '../../core/jobs/fiscal-sender';
import { askForBuyerIds } from '../../core/receipts/buyer-id';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  callbackUpdate,
  keyboardOf,
  plain,
  postUpdate,
  textUpdate,
  tgUser,
  type FakeTelegram,
  type UploadedFile,
} from '../helpers/fake-telegram';
import { startFakePfr, type FakePfr } from '../helpers/fake-pfr';
import { tma } from '../helpers/telegram';
import { deliver, quietLog, SESSION_DATE, useBotApp } from './setup';

/*
 * The whole way of a receipt to the customer: a desk payment writes its receipt, the sender has the
 * fake PFR sign it, the customer is asked once and then gets it (journal, link, QR); a refund waits for
 * the customer's document, given in the bot, and its receipt follows.
 */

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
let pfr: FakePfr;
useBotApp(async (parts) => {
  ({ fake, t, staff } = parts);
  pfr = await startFakePfr();
  await writeFiscalSettings(t.database.db, {
    fiscal_mode: 'lpfr',
    fiscal_pfr_url: pfr.url,
    fiscal_label_workshop: 'Ђ',
    fiscal_cashier: 'Ана',
  });
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/business-settings/',
    headers: staff,
    payload: { refund_to: 'refund', prepayment: 'none' },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => pfr?.close());

const sender = () =>
  createFiscalSender({
    database: t.database,
    log: quietLog,
    portFor: (url) => createLpfr({ url, timeoutMs: 2_000 }),
    options: { pollMs: 50, baseDelayMs: 50, maxDelayMs: 200 },
  });

const send = async (update: unknown) => {
  const res = await postUpdate(t.app, t.config.webhookSecret, update);
  expect(res.statusCode).toBe(200);
};

describe('a receipt from the desk to the customer’s chat, through the PFR', () => {
  it('the advance for a card payment after «Да»; the refund once the customer gave their passport', async () => {
    const user = telegramUser();
    const u = tgUser(user.id, user.username);
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, price: 3000 });
    const recordId: number = (await book(t.app, user, bookingPayload(schedule.id))).json().record.id;
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${recordId}/payments`,
      headers: staff,
      payload: { amount: 3000, method: 'card' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    await deliver(t);
    fake.reset();

    const s = sender();
    expect(await s.drain()).toBe(1);
    const [advance] = pfr.invoices;
    expect(advance.request).toMatchObject({ invoiceType: 'Advance', transactionType: 'Sale' });
    await deliver(t);
    // Never asked before: the question, not the receipt.
    expect(fake.messages(user.id).map((c) => plain(c.params.text))).toEqual([
      expect.stringContaining('Присылать вам электронные чеки сюда, в Telegram?'),
    ]);
    fake.reset();
    await send(callbackUpdate(u, 'rcpt:yes'));
    await deliver(t);
    const receipt = fake.messages(user.id).find((c) => c.params.text?.includes('<pre>'))!;
    expect(plain(receipt.params.text)).toContain(`Номер: ${advance.result.invoiceNumber}`);
    expect(plain(receipt.params.text)).toContain(advance.result.journal!.split('\r\n')[0].trim());
    expect(keyboardOf(receipt)[0]).toEqual([{ text: '✅ Проверить чек', url: advance.result.verificationUrl }]);
    const [photo] = fake.ok('sendPhoto', user.id);
    expect((photo.params.photo as UploadedFile).text.startsWith('GIF8')).toBe(true);

    // She cancels; the studio pays the money back: the refund needs her document.
    const cancelled = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${recordId}`,
      headers: tma(user),
      payload: { cancel_reason: 'Заболела' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const refunded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${recordId}/refunds`,
      headers: staff,
      payload: { method: 'card' },
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    await deliver(t);
    fake.reset();
    expect(await s.drain()).toBe(0);
    expect(await askForBuyerIds(t.database)).toBe(1);
    await deliver(t);
    expect(plain(fake.messages(user.id)[0].params.text)).toContain('Студия возвращает вам');
    await send(callbackUpdate(u, keyboardOf(fake.messages(user.id)[0])[2][0].callback_data!));
    await send(textUpdate(u, 'ab 123 4567'));
    expect(plain(fake.messages(user.id).at(-1)!.params.text)).toBe(
      '✅ Спасибо, номер принят: чек на возврат будет выдан.',
    );

    fake.reset();
    expect(await s.drain()).toBe(1);
    const refund = pfr.invoices.at(-1)!;
    expect(refund.request).toMatchObject({ transactionType: 'Refund', buyerId: '30:AB1234567' });
    await deliver(t);
    const told = fake.messages(user.id).find((c) => c.params.text?.includes('<pre>'))!;
    expect(plain(told.params.text)).toContain(`Номер: ${refund.result.invoiceNumber}`);
    expect(plain(told.params.text)).toContain('Вид: возврат аванса');
    expect(fake.ok('sendPhoto', user.id)).toHaveLength(1);

    // Both on the booking page.
    const view = await t.app.inject({ method: 'GET', url: `/api/v1/records/${recordId}`, headers: tma(user) });
    expect(view.json().receipts.map((r: { invoice_number: string }) => r.invoice_number)).toEqual([
      advance.result.invoiceNumber,
      refund.result.invoiceNumber,
    ]);
    await s.stop();
  });
});
