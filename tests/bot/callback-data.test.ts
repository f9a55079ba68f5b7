import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { callbackUpdate, postUpdate, tgUser, type FakeTelegram } from '../helpers/fake-telegram';
import { ID_MAX } from '../../contract/common';
import {
  CALLBACK_DATA_MAX_BYTES,
  decodeCallbackData,
  encodeCallbackData,
  type CallbackData,
  type ReminderAnswer,
} from '../../bot/callback-data';
import { getRecord } from '../../db/repositories/records';
import { BUYER_DOCUMENTS } from '../../contract/receipts';
import { createStaff, linkStaff, useBotApp } from './setup';

/** Every kind of button the bot sends, at its largest values. */
const LARGEST: CallbackData[] = [
  ...(['yes', 'no', 'cancel', 'gift', 'back'] as const).map((answer): CallbackData => ({
    kind: 'reminder',
    answer,
    recordId: ID_MAX,
  })),
  { kind: 'rate', recordId: ID_MAX, rating: 5 },
  ...(['leave', 'yes', 'no'] as const).map((step): CallbackData => ({ kind: 'queue', step, recordId: ID_MAX })),
  { kind: 'subscribe', workshopId: ID_MAX },
  { kind: 'attendance', mark: 'attended', recordId: ID_MAX },
  { kind: 'attendance', mark: 'no_show', recordId: ID_MAX },
  { kind: 'cash', recordId: ID_MAX },
  { kind: 'cancel_pick', recordId: ID_MAX },
  { kind: 'cancel_abort' },
  { kind: 'cancel_confirm', yes: true },
  { kind: 'cancel_confirm', yes: false },
  { kind: 'forget', yes: true },
  { kind: 'forget', yes: false },
  ...(['ru', 'en', 'sr'] as const).map((language): CallbackData => ({ kind: 'language', language })),
  { kind: 'min_people', action: 'cancel', scheduleId: ID_MAX },
  { kind: 'min_people', action: 'run', scheduleId: ID_MAX },
  { kind: 'receipts', yes: true },
  { kind: 'receipts', yes: false },
  ...BUYER_DOCUMENTS.map((document): CallbackData => ({ kind: 'buyer_doc', document, receiptId: ID_MAX })),
];

describe('callback data', () => {
  it('every kind fits 64 bytes at its largest values and decodes to what was encoded', () => {
    const kinds = new Set<string>();
    for (const data of LARGEST) {
      const text = encodeCallbackData(data);
      expect(Buffer.byteLength(text), text).toBeLessThanOrEqual(CALLBACK_DATA_MAX_BYTES);
      expect(decodeCallbackData(text)).toEqual(data);
      kinds.add(data.kind);
    }
    expect([...kinds].sort()).toEqual(
      [
        'attendance',
        'buyer_doc',
        'cash',
        'cancel_abort',
        'cancel_confirm',
        'cancel_pick',
        'forget',
        'language',
        'min_people',
        'queue',
        'rate',
        'receipts',
        'reminder',
        'subscribe',
      ].sort(),
    );
  });

  it('keeps the wire format of buttons already sent', () => {
    expect(encodeCallbackData({ kind: 'reminder', answer: 'yes', recordId: 42 })).toBe('rem:yes:42');
    expect(encodeCallbackData({ kind: 'rate', recordId: 42, rating: 3 })).toBe('rate:42:3');
    expect(encodeCallbackData({ kind: 'queue', step: 'leave', recordId: 42 })).toBe('queue:leave:42');
    expect(encodeCallbackData({ kind: 'subscribe', workshopId: 7 })).toBe('sub:7');
    expect(encodeCallbackData({ kind: 'attendance', mark: 'no_show', recordId: 42 })).toBe('att:N:42');
    expect(encodeCallbackData({ kind: 'cancel_pick', recordId: 42 })).toBe('cancel:pick:42');
    expect(encodeCallbackData({ kind: 'forget', yes: true })).toBe('forget:yes');
    expect(encodeCallbackData({ kind: 'receipts', yes: false })).toBe('rcpt:no');
    expect(encodeCallbackData({ kind: 'buyer_doc', document: '30', receiptId: 42 })).toBe('buyer:30:42');
  });

  it('refuses to encode more than 64 bytes, or an id that cannot exist', () => {
    const long = 'x'.repeat(60) as ReminderAnswer;
    expect(() => encodeCallbackData({ kind: 'reminder', answer: long, recordId: 1 })).toThrow(/64 bytes/);
    expect(() => encodeCallbackData({ kind: 'subscribe', workshopId: ID_MAX + 1 })).toThrow(/cannot exist/);
    expect(() => encodeCallbackData({ kind: 'rate', recordId: 0, rating: 1 })).toThrow(/cannot exist/);
  });

  it('an id that cannot exist (0, beyond 32 bits) decodes as a missing one of its kind; foreign data as nothing', () => {
    for (const [text, of] of [
      ['rem:yes:2147483648', 'reminder'],
      ['rem:cancel:9999999999', 'reminder'],
      ['rate:2147483648:5', 'rate'],
      ['queue:yes:99999999999999999999', 'queue'],
      ['sub:2147483648', 'subscribe'],
      ['sub:0', 'subscribe'],
      ['att:A:4294967296', 'attendance'],
      ['cancel:pick:2147483648', 'cancel_pick'],
      ['buyer:23:2147483648', 'buyer_doc'],
    ] as const)
      expect(decodeCallbackData(text), text).toEqual({ kind: 'missing', of });
    for (const text of [
      '',
      'rem:maybe:1',
      'rate:1:6',
      'rate:1:0',
      'sub:-1',
      'sub:1.5',
      'sub:1:2',
      'cancel:pick',
      'rcpt:maybe',
      'buyer:11:1',
      'buyer:23',
      'x:1',
    ])
      expect(decodeCallbackData(text), text).toBeNull();
  });
});

describe('a forged press with an id beyond 32 bits', () => {
  let fake: FakeTelegram;
  let t: TestApp;
  let staff: { authorization: string };
  useBotApp((parts) => ({ fake, t, staff } = parts));

  const press = async (from: number, data: string) => {
    const res = await postUpdate(t.app, t.config.webhookSecret, callbackUpdate(tgUser(from), data));
    expect(res.statusCode, data).toBe(200);
  };

  it('is answered with the not-found text of its kind, never «Что-то пошло не так», and changes nothing', async () => {
    const cook = await createStaff(t, 'cook-callback@example.com');
    await linkStaff(t, cook, 770001);
    const { schedule } = await createSession(t.app, staff);
    const anna = telegramUser('anna-callback');
    const id: number = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    const before = await getRecord(t.database.db, id);

    const cases: [number, string, string][] = [
      ...['yes', 'no', 'cancel', 'gift', 'back'].map((a): [number, string, string] => [
        anna.id,
        `rem:${a}:2147483648`,
        'Эта запись недоступна.',
      ]),
      [anna.id, 'rate:9999999999:5', 'Запись не найдена'],
      ...['leave', 'yes', 'no'].map((s): [number, string, string] => [
        anna.id,
        `queue:${s}:2147483648`,
        'Эта запись недоступна.',
      ]),
      [anna.id, 'sub:2147483648', 'Мастер-класс с таким id не найден'],
      [anna.id, 'sub:9999999999', 'Мастер-класс с таким id не найден'],
      [770001, 'att:A:2147483648', 'Эта запись больше не в списке.'],
      [770001, 'att:N:9999999999', 'Эта запись больше не в списке.'],
      [anna.id, 'buyer:23:2147483648', 'Этот чек уже не ждёт документа.'],
    ];
    for (const [from, data, text] of cases) {
      fake.reset();
      await press(from, data);
      const answered = fake.ok('answerCallbackQuery');
      expect(answered, data).toHaveLength(1);
      expect(answered[0].params, data).toMatchObject({ text, show_alert: true });
      expect(
        fake.messages().map((m) => m.params.text),
        data,
      ).toEqual([]);
    }
    expect(await getRecord(t.database.db, id)).toEqual(before);
  });
});
