import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createLpfr } from '../../core/fiscal/lpfr';
import { writeFiscalSettings } from '../../core/fiscal/settings';
import { createFiscalSender, enterPin } from '../../core/jobs/fiscal-sender';
import { nowIso } from '../../db/database';
import { getFiscalReceipt, insertFiscalReceipt } from '../../db/repositories/fiscal';
import type { TestApp } from '../helpers/app';
import { startFakePfr, type FakePfr } from '../helpers/fake-pfr';
import type { FakeTelegram } from '../helpers/fake-telegram';
import { deliver, linkStaff, PUBLIC_URL, quietLog, useBotApp } from './setup';

/*
 * The fiscal sender's staff alerts as Telegram gets them: written by the sender, delivered by the
 * outbox worker to the fake Bot API (which checks the HTML and the buttons as Telegram does).
 */

let t: TestApp;
let fake: FakeTelegram;
let pfr: FakePfr;
const OWNER_CHAT = 8_320_001;

useBotApp(async (parts) => {
  ({ t, fake } = parts);
  await linkStaff(t, parts.staff, OWNER_CHAT);
  pfr = await startFakePfr({ pinRequired: true });
  await writeFiscalSettings(t.database.db, {
    fiscal_mode: 'lpfr',
    fiscal_pfr_url: pfr.url,
    fiscal_label_workshop: 'Ђ',
  });
});
afterAll(() => pfr?.close());

describe('fiscal alerts in Telegram', () => {
  it('the PIN the PFR asks for reaches the owner with the settings button, and so does the recovery', async () => {
    const row = (await insertFiscalReceipt(t.database.db, {
      receipt_key: `alert:${randomUUID()}`,
      kind: 'advance',
      invoice_type: 'Advance',
      transaction_type: 'Sale',
      amount: 3000,
      payment_type: 'Cash',
      parts: JSON.stringify([{ amount: 3000, paymentType: 'Cash' }]),
      esir_time: nowIso(),
      request_id: randomUUID().replaceAll('-', ''),
      mode: 'lpfr',
      training: 0,
      next_attempt_at: nowIso(),
    }))!;
    const sender = createFiscalSender({
      database: t.database,
      log: quietLog,
      portFor: (url) => createLpfr({ url }),
      options: { pollMs: 50, pinCheckMs: 100 },
    });
    expect(await sender.runOnce()).toBe(1);
    await deliver(t);
    const [pin] = fake.messages(OWNER_CHAT);
    expect(pin.params.text).toBe(
      '🔒 Фискальный процессор (PFR) просит PIN-код: фискальные чеки не выдаются, ждут: 1. Введите PIN в разделе «Настройки → Фискализация» или на самом устройстве. Записи и оплаты работают как обычно; чеки уйдут сами.',
    );
    expect(pin.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: '⚙️ Настройки', url: `${PUBLIC_URL}/settings` }]],
    });

    expect(await enterPin(t.database, createLpfr({ url: pfr.url }), '1234')).toBe('0100');
    sender.start();
    try {
      for (let i = 0; i < 200 && (await getFiscalReceipt(t.database.db, row.id))!.state !== 'issued'; i++)
        await new Promise((r) => setTimeout(r, 25));
    } finally {
      await sender.stop();
    }
    expect((await getFiscalReceipt(t.database.db, row.id))!.state).toBe('issued');
    await deliver(t);
    const messages = fake.messages(OWNER_CHAT);
    expect(messages).toHaveLength(2);
    expect(messages[1].params.text).toBe('✅ PFR снова отвечает: ожидавшие фискальные чеки выданы.');
    expect(messages[1].params.reply_markup).toEqual({
      inline_keyboard: [[{ text: '💰 Касса', url: `${PUBLIC_URL}/cash` }]],
    });
  });
});
