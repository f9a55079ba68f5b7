import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Language } from '../../contract/language';
import { formatMoney } from '../../contract/format';
import { withWriteTransaction } from '../../db/lock';
import { insertFiscalReceipt, type FiscalReceiptInsert, type FiscalReceiptRow } from '../../db/repositories/fiscal';
import { upsertChosenLanguage } from '../../db/repositories/customer-languages';
import { tellReceipt } from '../../core/receipts/tell';
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
  type FakeCall,
  type FakeTelegram,
  type UploadedFile,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { deliver, SESSION_DATE, useBotApp } from './setup';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
useBotApp((parts) => ({ fake, t, staff } = parts));

/** A 1×1 GIF, as the PFR sends its QR code (base64). */
const QR_GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const VERIFY = 'https://suf.purs.gov.rs/v/?vl=A0FCQ0QxMjM0QUJDRDEyMzRlAAAAZAAAAA%3D%3D';

/** The PFR's text of an advance receipt, with the characters HTML must escape. */
const JOURNAL = [
  '============ ФИСКАЛНИ РАЧУН ============',
  'ПИБ:                           100974365',
  'Предузеће:            Кухиња & Ко д.о.о.',
  'Место продаје:                Кухиња <1>',
  '----------- АВАНС ПРОДАЈА -----------',
  'Аванс за мастер-класс (Ђ)',
  '      3.500,00          1       3.500,00',
  'Укупан износ:                   3.500,00',
  'Платна картица:                 3.500,00',
  '========================================',
  'ПФР број рачуна:  ABCD1234-ABCD1234-101',
  '======== КРАЈ ФИСКАЛНОГ РАЧУНА =========',
].join('\r\n');

let receiptNo = 100;

/** A receipt as the sender stores the PFR's answer (or, `state` needs_buyer, a refund waiting for the buyer). */
async function receipt(over: Partial<FiscalReceiptInsert> = {}): Promise<FiscalReceiptRow> {
  const n = receiptNo++;
  const now = new Date().toISOString();
  const row = await insertFiscalReceipt(t.database.db, {
    receipt_key: `test:${n}:${Math.random()}`,
    kind: 'advance',
    invoice_type: 'Advance',
    transaction_type: 'Sale',
    payment_id: null,
    record_id: null,
    certificate_id: null,
    amount: 3500,
    payment_type: 'Card',
    covers: null,
    esir_time: now,
    referent_receipt_id: null,
    buyer_id: null,
    request_id: `${n}`.padStart(32, '0'),
    request: null,
    mode: 'lpfr',
    training: 0,
    state: 'issued',
    next_attempt_at: now,
    invoice_number: `ABCD1234-ABCD1234-${n}`,
    invoice_counter: `${n}/${n}АП`,
    sdc_time: '2030-12-01T09:15:02.000Z',
    verification_url: VERIFY,
    verification_qr: QR_GIF,
    journal: JOURNAL,
    total_amount: 3500,
    issued_at: now,
    ...over,
  });
  return row!;
}

/** What the fiscal sender does once the PFR answered: tells the customer in the answer's transaction. */
const tell = (r: FiscalReceiptRow) => withWriteTransaction(t.database, (trx) => tellReceipt(trx, r));

/** A Telegram customer with a booking (its confirmation delivered and forgotten). */
async function customer(language?: Language) {
  const user = telegramUser();
  if (language) await upsertChosenLanguage(t.database.db, user.id, language);
  const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
  const res = await book(t.app, user, bookingPayload(schedule.id));
  expect(res.statusCode, res.body).toBe(201);
  await deliver(t);
  fake.reset();
  return { user, u: tgUser(user.id, user.username), recordId: res.json().record.id as number };
}

const send = async (update: unknown) => {
  const res = await postUpdate(t.app, t.config.webhookSecret, update);
  expect(res.statusCode).toBe(200);
};

/** Every text call the chat got, in order (messages and edits). */
const textsTo = (chatId: number) => fake.messages(chatId).map((c) => plain(c.params.text));

const consentOf = (telegramId: number) =>
  t.database.db.selectFrom('customer_consents').selectAll().where('telegram_id', '=', telegramId).executeTakeFirst();

describe('the receipt in Telegram', () => {
  it.each([
    ['ru', 'Ваш фискальный чек', 'Вид: аванс', '✅ Проверить чек', 'Моя запись', 'QR-код для проверки чека'],
    [
      'en',
      'Your fiscal receipt',
      'Type: advance payment',
      '✅ Verify the receipt',
      'My booking',
      'The QR code to verify',
    ],
    ['sr', 'Vaš fiskalni račun', 'Vrsta: avans prodaja', '✅ Proveri račun', 'Moja prijava', 'QR kod za proveru'],
  ] as const)(
    '%s: the PFR’s text escaped in a <pre> block, the verification link as a button, then the QR code as a photo',
    async (language, title, kind, verify, myRecord, caption) => {
      const { user, u, recordId } = await customer(language);
      // They agreed before (from /mydata): the receipt goes out as soon as it is issued.
      await send(callbackUpdate(u, 'rcpt:yes'));
      fake.reset();
      const r = await receipt({ record_id: recordId });
      await tell(r);
      await deliver(t);

      const [message] = fake.messages(user.id);
      expect(fake.messages(user.id)).toHaveLength(1);
      expect(message.params.parse_mode).toBe('HTML');
      const html = message.params.text!;
      expect(html).toContain('<pre>============ ФИСКАЛНИ РАЧУН ============\n');
      expect(html).toContain('Кухиња &amp; Ко д.о.о.');
      expect(html).toContain('Кухиња &lt;1&gt;');
      expect(html).not.toContain('\r');
      const text = plain(html);
      expect(text).toContain(title);
      expect(text).toContain(kind);
      expect(text).toContain(r.invoice_number!);
      expect(text).toContain(formatMoney(3500, language));
      expect(text).toContain('Место продаје:                Кухиња <1>');
      const keyboard = keyboardOf(message);
      expect(keyboard[0]).toEqual([{ text: verify, url: VERIFY }]);
      expect(keyboard[1][0]).toMatchObject({
        text: myRecord,
        web_app: { url: `https://studio.example/record/${recordId}` },
      });

      const photos = fake.ok('sendPhoto', user.id);
      expect(photos).toHaveLength(1);
      const photo = photos[0].params.photo as UploadedFile;
      expect(photo.filename).toBe(`receipt-${r.invoice_number}.gif`);
      expect(photo.text.startsWith('GIF89a')).toBe(true);
      expect(String(photos[0].params.caption)).toContain(caption);
      // The photo comes after the text.
      expect(fake.calls.findIndex((c) => c.method === 'sendPhoto')).toBeGreaterThan(
        fake.calls.findIndex((c) => c.method === 'sendMessage'),
      );
      // Told once, however often the sender tells it.
      await tell(r);
      await deliver(t);
      expect(fake.messages(user.id)).toHaveLength(1);
    },
  );

  it('a long receipt is split on line ends into messages Telegram takes, and cut after three with a note', async () => {
    const { user, u, recordId } = await customer();
    await send(callbackUpdate(u, 'rcpt:yes'));
    fake.reset();
    const line = (i: number) => `Позиција ${String(i).padStart(4, '0')} ..................... 1.000,00`;
    const long = Array.from({ length: 120 }, (_, i) => line(i)).join('\n');
    await tell(await receipt({ record_id: recordId, journal: long }));
    await deliver(t);
    let sent = fake.messages(user.id);
    // Every part was accepted (the fake refuses more than 4096 characters) and the lines are whole.
    expect(sent).toHaveLength(2);
    expect(fake.calls.filter((c) => !c.ok)).toEqual([]);
    const body = (c: FakeCall) => /<pre>([\s\S]*)<\/pre>/.exec(c.params.text!)![1];
    expect([body(sent[0]), body(sent[1])].join('\n')).toBe(long);
    expect(plain(sent[1].params.text)).toContain('Чек, продолжение (2 из 2)');
    expect(keyboardOf(sent[0])).toEqual([]);
    expect(keyboardOf(sent[1])[0][0].text).toBe('✅ Проверить чек');

    fake.reset();
    const huge = Array.from({ length: 600 }, (_, i) => line(i)).join('\n');
    await tell(await receipt({ record_id: recordId, journal: huge }));
    await deliver(t);
    sent = fake.messages(user.id);
    expect(sent).toHaveLength(3);
    expect(fake.calls.filter((c) => !c.ok)).toEqual([]);
    for (const c of sent) expect(plain(c.params.text).length).toBeLessThanOrEqual(4096);
    expect(plain(sent[2].params.text)).toContain('…\n\nЧек длинный: целиком он открывается по кнопке «Проверить чек».');
    expect(keyboardOf(sent[2])[0][0].url).toBe(VERIFY);
  });

  it('training receipts, receipts staff typed by hand and bookings without Telegram are not sent', async () => {
    const { user, u, recordId } = await customer();
    await send(callbackUpdate(u, 'rcpt:yes'));
    fake.reset();
    await tell(await receipt({ record_id: recordId, training: 1, invoice_type: 'Training' }));
    await tell(
      await receipt({
        record_id: recordId,
        mode: 'manual',
        journal: null,
        verification_url: null,
        verification_qr: null,
      }),
    );
    const phone = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: staff,
      payload: bookingPayload((await createSession(t.app, staff, { date: SESSION_DATE })).schedule.id, {
        consent: undefined,
      }),
    });
    expect(phone.statusCode, phone.body).toBe(201);
    await tell(await receipt({ record_id: phone.json().record.id }));
    await deliver(t);
    expect(fake.ok('sendMessage', user.id)).toEqual([]);
    expect(fake.ok('sendPhoto')).toEqual([]);
  });
});

describe('consent to receipts in Telegram, asked once', () => {
  it('«Нет»: no receipt is ever sent, and the question is not asked again', async () => {
    const { user, u, recordId } = await customer();
    await tell(await receipt({ record_id: recordId }));
    await deliver(t);
    // The question, and no receipt.
    const [question] = fake.messages(user.id);
    expect(fake.messages(user.id)).toHaveLength(1);
    expect(plain(question.params.text)).toContain('Присылать вам электронные чеки сюда, в Telegram?');
    expect(keyboardOf(question)).toEqual([
      [
        { text: 'Да, присылать чеки', callback_data: 'rcpt:yes' },
        { text: 'Нет', callback_data: 'rcpt:no' },
      ],
    ]);
    expect(fake.ok('sendPhoto', user.id)).toEqual([]);

    fake.reset();
    await send(callbackUpdate(u, 'rcpt:no'));
    expect(fake.ok('answerCallbackQuery')[0].params.text).toBe('Чеки присылать не буду');
    expect(fake.ok('editMessageReplyMarkup')).toHaveLength(1);
    expect(textsTo(user.id)).toEqual([
      'Хорошо, чеки присылать не буду. Номера чеков всегда есть на странице записи. Передумаете — /mydata.',
    ]);
    expect(await consentOf(user.id)).toMatchObject({ kind: 'e_receipts' });
    expect(Boolean((await consentOf(user.id))!.given)).toBe(false);

    fake.reset();
    await tell(await receipt({ record_id: recordId }));
    await tell(await receipt({ record_id: recordId, invoice_type: 'Normal', transaction_type: 'Refund' }));
    await deliver(t);
    expect(fake.calls.filter((c) => Number(c.params.chat_id) === user.id)).toEqual([]);

    // /mydata says so and offers to switch them on.
    await send(textUpdate(u, '/mydata'));
    const summary = fake.messages(user.id)[0];
    expect(plain(summary.params.text)).toContain('🧾 Электронные чеки: не присылаю.');
    expect(keyboardOf(summary)).toEqual([[{ text: '🧾 Присылать чеки', callback_data: 'rcpt:yes' }]]);

    // Switched on there: the receipts from now on, not the ones she declined.
    fake.reset();
    await send(callbackUpdate(u, 'rcpt:yes'));
    expect(textsTo(user.id)).toEqual(['✅ Хорошо: буду присылать электронные чеки сюда.']);
    await deliver(t);
    expect(fake.ok('sendPhoto', user.id)).toEqual([]);
    const next = await receipt({ record_id: recordId, invoice_type: 'Normal' });
    await tell(next);
    await deliver(t);
    expect(plain(fake.messages(user.id).at(-1)!.params.text)).toContain(`Номер: ${next.invoice_number}`);
    expect(fake.ok('sendPhoto', user.id)).toHaveLength(1);
  });

  it('«Да»: the receipts issued since the question are sent, and later ones as they are issued', async () => {
    const { user, u, recordId } = await customer();
    const first = await receipt({ record_id: recordId });
    await tell(first);
    // A second receipt while the question waits: no second question, nothing sent yet.
    const second = await receipt({ record_id: recordId, invoice_type: 'Normal' });
    await tell(second);
    await deliver(t);
    expect(fake.messages(user.id)).toHaveLength(1);
    expect(fake.ok('sendPhoto', user.id)).toEqual([]);

    fake.reset();
    await send(callbackUpdate(u, 'rcpt:yes'));
    expect(textsTo(user.id)).toEqual(['✅ Хорошо: буду присылать электронные чеки сюда.']);
    fake.reset();
    await deliver(t);
    const numbers = fake.messages(user.id).map((c) => /Номер: (\S+)/.exec(plain(c.params.text))?.[1]);
    expect(numbers).toEqual([first.invoice_number, second.invoice_number]);
    expect(fake.ok('sendPhoto', user.id)).toHaveLength(2);

    fake.reset();
    const third = await receipt({ record_id: recordId, invoice_type: 'Advance', transaction_type: 'Refund' });
    await tell(third);
    await deliver(t);
    expect(plain(fake.messages(user.id)[0].params.text)).toContain('Вид: возврат аванса');

    // The booking page lists them (issued, real ones), oldest first, with the verification link.
    await receipt({ record_id: recordId, training: 1, invoice_type: 'Training' });
    await receipt({ record_id: recordId, state: 'waiting', invoice_number: null, journal: null });
    const view = await t.app.inject({ method: 'GET', url: `/api/v1/records/${recordId}`, headers: tma(user) });
    expect(view.statusCode).toBe(200);
    expect(view.json().receipts).toEqual(
      [first, second, third].map((r) => ({
        id: r.id,
        invoice_number: r.invoice_number,
        invoice_type: r.invoice_type,
        transaction_type: r.transaction_type,
        amount: 3500,
        issued_at: r.issued_at,
        verification_url: VERIFY,
      })),
    );
  });
});

/** Where the document number still appears: every text column of every table. */
async function findAnywhere(needle: string): Promise<string[]> {
  const database = t.database;
  const columns =
    database.dialect === 'postgres'
      ? (
          await sql<{ table_name: string; column_name: string }>`
            select table_name, column_name from information_schema.columns
            where table_schema = current_schema() and data_type in ('text', 'character varying')`.execute(database.db)
        ).rows.map((r) => [r.table_name, r.column_name])
      : (
          await Promise.all(
            (
              await sql<{
                name: string;
              }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(database.db)
            ).rows.map(async ({ name }) =>
              (
                await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${name})`.execute(
                  database.db,
                )
              ).rows
                .filter((c) => /char|text|^$/i.test(c.type))
                .map((c) => [name, c.name]),
            ),
          )
        ).flat();
  const found: string[] = [];
  for (const [table, column] of columns) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}
      where cast(${sql.ref(column)} as text) like ${`%${needle}%`}`.execute(database.db);
    if (Number(rows[0].n) > 0) found.push(`${table}.${column}`);
  }
  return found;
}

const receiptRow = (id: number) =>
  t.database.db.selectFrom('fiscal_receipts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the buyer’s ID for a refund', () => {
  const refund = (recordId: number) =>
    receipt({
      record_id: recordId,
      kind: 'refund',
      invoice_type: 'Normal',
      transaction_type: 'Refund',
      amount: 2000,
      state: 'needs_buyer',
      invoice_number: null,
      invoice_counter: null,
      sdc_time: null,
      verification_url: null,
      verification_qr: null,
      journal: null,
      total_amount: null,
      issued_at: null,
    });

  it('asks once why and for which document, takes a number that passes the check, sends the receipt on', async () => {
    const { user, u, recordId } = await customer();
    const r = await refund(recordId);
    expect(await askForBuyerIds(t.database)).toBe(1);
    await deliver(t);
    const [question] = fake.messages(user.id);
    expect(plain(question.params.text)).toContain(
      `Студия возвращает вам ${formatMoney(2000, 'ru')} за мастер-класс «Паста», 5 декабря 2030 12:00.`,
    );
    expect(plain(question.params.text)).toContain(
      'По закону о фискализации чек на возврат денег должен содержать документ покупателя',
    );
    expect(keyboardOf(question)).toEqual(
      ['Личная карта Сербии', 'Паспорт Сербии', 'Паспорт другой страны', 'ЭБС иностранца в Сербии', 'ПИБ компании'].map(
        (text, i) => [{ text, callback_data: `buyer:${['20', '23', '30', '22', '10'][i]}:${r.id}` }],
      ),
    );
    // Asked once.
    expect(await askForBuyerIds(t.database)).toBe(0);

    fake.reset();
    await send(callbackUpdate(u, `buyer:23:${r.id}`));
    expect(textsTo(user.id)).toEqual(['Пришлите одним сообщением номер документа «Паспорт Сербии» (9 цифр).']);
    fake.reset();
    await send(textUpdate(u, '12AB'));
    expect(textsTo(user.id)).toEqual([
      'Это не похоже на номер документа «Паспорт Сербии»: нужно 9 цифр. Пришлите номер ещё раз.',
    ]);
    expect((await receiptRow(r.id)).state).toBe('needs_buyer');
    fake.reset();
    await send(textUpdate(u, '012 345 678'));
    expect(textsTo(user.id)).toEqual(['✅ Спасибо, номер принят: чек на возврат будет выдан.']);
    expect(await receiptRow(r.id)).toMatchObject({ buyer_id: '23:012345678', state: 'waiting' });

    // The conversation is over: the next message is an ordinary one.
    fake.reset();
    await send(textUpdate(u, 'привет'));
    expect(textsTo(user.id)[0]).not.toContain('Спасибо');
    // The number is kept on the receipt only: not in the log, the outbox or the bot's stored conversations.
    expect(await findAnywhere('012345678')).toEqual(['fiscal_receipts.buyer_id']);
  });

  it('a delivery’s receipt closing the advance asks the same, saying no money goes back', async () => {
    const { user, recordId } = await customer('en');
    await receipt({
      record_id: recordId,
      kind: 'close',
      invoice_type: 'Advance',
      transaction_type: 'Refund',
      state: 'needs_buyer',
      invoice_number: null,
      journal: null,
      issued_at: null,
    });
    expect(await askForBuyerIds(t.database)).toBe(1);
    await deliver(t);
    const text = plain(fake.messages(user.id)[0].params.text);
    expect(text).toContain(
      `the receipt that closes your advance payment of ${formatMoney(3500, 'en')} for the workshop`,
    );
    expect(text).not.toContain('refunding');
  });

  it('a company: the PIB’s control digit is checked; another document’s button switches to it', async () => {
    const { user, u, recordId } = await customer('sr');
    const r = await refund(recordId);
    await askForBuyerIds(t.database);
    await deliver(t);
    expect(plain(fake.messages(user.id)[0].params.text)).toContain('Po Zakonu o fiskalizaciji');
    fake.reset();
    await send(callbackUpdate(u, `buyer:20:${r.id}`));
    await send(callbackUpdate(u, `buyer:10:${r.id}`));
    await send(textUpdate(u, '113460263'));
    await send(textUpdate(u, '113460262'));
    expect(textsTo(user.id)).toEqual([
      'Pošaljite u jednoj poruci broj dokumenta „Lična karta Srbije“ (9 cifara).',
      'Pošaljite u jednoj poruci broj dokumenta „PIB firme“ (9 cifara).',
      'Takav PIB ne postoji: proverite cifre i pošaljite broj ponovo.',
      '✅ Hvala, broj je primljen: račun za povraćaj će biti izdat.',
    ]);
    expect((await receiptRow(r.id)).buyer_id).toBe('10:113460262');
    // Pressed again once it is given: nothing more to ask.
    fake.reset();
    await send(callbackUpdate(u, `buyer:23:${r.id}`));
    expect(textsTo(user.id)).toEqual(['Ovaj račun više ne čeka dokument.']);
  });

  it('erasure clears the buyer’s document wherever it was copied, and the consent', async () => {
    const { user, u, recordId } = await customer();
    await send(callbackUpdate(u, 'rcpt:yes'));
    // One refund issued with her passport, one given but not sent yet.
    const number = '098765432';
    const issued = await receipt({
      record_id: recordId,
      invoice_type: 'Normal',
      transaction_type: 'Refund',
      buyer_id: `23:${number}`,
      request: JSON.stringify({ buyerId: `23:${number}`, invoiceType: 'Normal', transactionType: 'Refund' }),
      journal: `${JOURNAL}\r\nИД купца:                  23:${number}`,
    });
    await tell(issued);
    const pending = await receipt({
      record_id: recordId,
      invoice_type: 'Normal',
      transaction_type: 'Refund',
      state: 'waiting',
      buyer_id: `23:${number}`,
      invoice_number: null,
      journal: null,
    });
    expect((await findAnywhere(number)).sort()).toEqual(
      [
        'fiscal_receipts.buyer_id',
        'fiscal_receipts.journal',
        'fiscal_receipts.request',
        'notifications.payload',
      ].sort(),
    );

    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(user) });
    expect(res.statusCode, res.body).toBe(200);
    expect(await findAnywhere(number)).toEqual([]);
    const after = await receiptRow(issued.id);
    expect(after).toMatchObject({ buyer_id: null, state: 'issued', invoice_number: issued.invoice_number });
    expect(after.journal).toContain('ИД купца:                  23:*********');
    expect(JSON.parse(after.request!)).toMatchObject({ buyerId: '23:*********' });
    // Not issued yet: it waits for a buyer ID again (staff type it), its RequestId kept.
    expect(await receiptRow(pending.id)).toMatchObject({
      buyer_id: null,
      state: 'needs_buyer',
      request: null,
      request_id: pending.request_id,
    });
    expect(await consentOf(user.id)).toBeUndefined();
  });
});
