import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_SETTINGS, type BusinessSettings } from '../../contract/business-settings';
import type { RecordSchedule } from '../../contract';
import { createDb, type Database } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { getCertificate, insertCertificate, insertCertificateEntry } from '../../db/repositories/certificates';
import { creditBalance, insertPayment, setPriceOverride } from '../../db/repositories/payments';
import { getRecord, insertRecord, updateRecord, type RecordRow } from '../../db/repositories/records';
import { getRecordSchedule, insertSchedule } from '../../db/repositories/schedules';
import { insertAddress } from '../../db/repositories/addresses';
import { insertWorkshop } from '../../db/repositories/workshops';
import { recordMoney } from '../../core/ledger/ledger';
import { onBooked, onCancelled, onPartyChanged, onPromoted, onRestored } from '../../core/ledger/policy';
import { freshDatabaseUrl } from '../helpers/db';

/*
 * The money policy on its own: each step takes a booking that just changed and returns the refreshed
 * row with the ledger rows it appended, on a fresh migrated database, without HTTP or the engine.
 */

const PRICE = 3000;
const NOW = new Date('2030-01-10T10:00:00Z');
const START = '2030-01-20T10:00:00.000Z';

let database: Database;
let drop: () => Promise<void>;
let schedule: RecordSchedule;
let nextTelegramId = 5000;

const settings = (s: Partial<BusinessSettings> = {}): BusinessSettings => ({ ...DEFAULT_BUSINESS_SETTINGS, ...s });

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  database = createDb(fresh.url);
  await migrateToLatest(database.db);
  const w = await insertWorkshop(database.db, { title: 'Пельмени', price: PRICE });
  const a = await insertAddress(database.db, { title: 'Студия', map_link: 'https://maps.example/1' });
  const { id } = await insertSchedule(database.db, { date: START, capacity: 10, workshop_id: w.id, address_id: a.id });
  schedule = (await getRecordSchedule(database.db, id))!;
});

afterAll(async () => {
  await database.close();
  await drop();
});

/** A booking as the engine writes it, before its money follows. */
async function booking(
  opts: { state?: 'ACTIVE' | 'QUEUED'; people?: number; telegram?: boolean; certificate_id?: number } = {},
) {
  return insertRecord(database.db, {
    schedule_id: schedule.id,
    state: opts.state ?? 'ACTIVE',
    name: 'Анна',
    last_name: null,
    people_count: opts.people ?? 1,
    telegram_login: null,
    telegram_id: opts.telegram === false ? null : nextTelegramId++,
    comment: null,
    has_allergy: false,
    allergy_type: null,
    source: null,
    is_first_time: false,
    certificate_id: opts.certificate_id ?? null,
  });
}

/** Studio credit given to a customer (an adjustment, as a superuser makes it). */
const giveCredit = (telegramId: number, amount: number) =>
  insertPayment(database.db, {
    record_id: null,
    telegram_id: telegramId,
    amount,
    method: 'credit',
    kind: 'adjustment',
    note: 'test',
    recorded_by_kind: 'system',
    recorded_by_user_id: null,
  });

/** A paid amount certificate holding `amount`. */
async function certificate(amount: number) {
  const row = await insertCertificate(database.db, {
    code: `TEST${String(nextTelegramId++).padStart(8, '0')}`,
    kind: 'amount',
    amount,
    places: null,
    buyer_name: null,
    buyer_telegram_id: null,
    recipient_name: null,
    greeting: null,
    expires_at: '2031-01-01T00:00:00.000Z',
    created_by_user_id: null,
    paid_at: NOW.toISOString(),
    pay_method: 'cash',
  });
  await insertCertificateEntry(database.db, {
    certificate_id: row.id,
    kind: 'sale',
    amount,
    places: null,
    record_id: null,
    payment_id: null,
    note: null,
    recorded_by_kind: 'system',
    recorded_by_user_id: null,
  });
  return row;
}

const rows = (events: { payment: { amount: number; method: string; kind: string } }[]) =>
  events.map((e) => ({ amount: e.payment.amount, method: e.payment.method, kind: e.payment.kind }));

describe('onBooked', () => {
  it('fixes the price and spends the customer’s credit up to it', async () => {
    const r = await booking({ people: 2 });
    await giveCredit(r.telegram_id!, 10_000);
    const { record, events } = await onBooked(database.db, r, schedule, settings(), NOW);
    expect(record.unit_price).toBe(PRICE);
    expect(rows(events)).toEqual([{ amount: 2 * PRICE, method: 'credit', kind: 'payment' }]);
    expect(await creditBalance(database.db, r.telegram_id!)).toBe(10_000 - 2 * PRICE);
    expect((await recordMoney(database.db, record, settings())).balance).toBe(0);
  });

  it('with prepayment, holds the seats for the hold time while what is required is unpaid', async () => {
    const r = await booking();
    const { record, events } = await onBooked(
      database.db,
      r,
      schedule,
      settings({ prepayment: 'full', payment_hold_minutes: 30 }),
      NOW,
    );
    expect(events).toEqual([]);
    expect(record.pay_by).toBe(new Date(NOW.getTime() + 30 * 60_000).toISOString());
    expect((await getRecord(database.db, r.id))!.pay_by).toBe(record.pay_by);
  });

  it('holds nothing for a booking staff made for someone without Telegram, nor for a queued one', async () => {
    const s = settings({ prepayment: 'full' });
    expect(
      (await onBooked(database.db, await booking({ telegram: false }), schedule, s, NOW)).record.pay_by,
    ).toBeNull();
    const queued = await onBooked(database.db, await booking({ state: 'QUEUED' }), schedule, s, NOW);
    expect(queued.record.pay_by).toBeNull();
    expect(queued.events).toEqual([]);
  });

  it('spends a gift certificate first, then credit for the rest', async () => {
    const c = await certificate(1000);
    const r = await booking({ certificate_id: c.id });
    await giveCredit(r.telegram_id!, 5000);
    const { events } = await onBooked(database.db, r, schedule, settings(), NOW);
    expect(rows(events)).toEqual([
      { amount: 1000, method: 'certificate', kind: 'payment' },
      { amount: PRICE - 1000, method: 'credit', kind: 'payment' },
    ]);
    expect((await getCertificate(database.db, c.id))!.balance).toBe(0);
  });
});

describe('onCancelled', () => {
  it('gives what credit paid back to credit and lifts the hold', async () => {
    const r = await booking();
    await giveCredit(r.telegram_id!, 1000);
    const s = settings({ prepayment: 'full' });
    const booked = await onBooked(database.db, r, schedule, s, NOW);
    expect(booked.record.pay_by).not.toBeNull();
    const cancelled = await updateRecord(database.db, r.id, { state: 'CANCELLED', cancel_reason: 'test' });
    const { record, events } = await onCancelled(database.db, cancelled, schedule, s);
    expect(record.pay_by).toBeNull();
    expect(rows(events)).toEqual([{ amount: -1000, method: 'credit', kind: 'refund' }]);
    expect(await creditBalance(database.db, r.telegram_id!)).toBe(1000);
  });

  it('gives a certificate’s part back to the certificate, never to credit', async () => {
    const c = await certificate(PRICE);
    const r = await booking({ certificate_id: c.id });
    await onBooked(database.db, r, schedule, settings(), NOW);
    const cancelled = await updateRecord(database.db, r.id, { state: 'CANCELLED', cancel_reason: 'test' });
    const { events } = await onCancelled(database.db, cancelled, schedule, settings());
    expect(rows(events)).toEqual([{ amount: -PRICE, method: 'certificate', kind: 'refund' }]);
    expect((await getCertificate(database.db, c.id))!.balance).toBe(PRICE);
    expect(await creditBalance(database.db, r.telegram_id!)).toBe(0);
  });

  it('with refund_to refund, cash paid stays owed back (no row), credit still goes back to credit', async () => {
    const r = await booking();
    const booked = await onBooked(database.db, r, schedule, settings(), NOW);
    await insertPayment(database.db, {
      record_id: r.id,
      telegram_id: r.telegram_id,
      amount: PRICE,
      method: 'cash',
      kind: 'payment',
      note: null,
      recorded_by_kind: 'system',
      recorded_by_user_id: null,
    });
    const cancelled = await updateRecord(database.db, booked.record.id, { state: 'CANCELLED', cancel_reason: 'x' });
    const { events } = await onCancelled(database.db, cancelled, schedule, settings({ refund_to: 'refund' }));
    expect(events).toEqual([]);
    const toCredit = await onCancelled(database.db, cancelled, schedule, settings({ refund_to: 'credit' }));
    expect(rows(toCredit.events)).toEqual([{ amount: -PRICE, method: 'credit', kind: 'refund' }]);
  });
});

describe('onPartyChanged', () => {
  it('a smaller party gets back what it paid beyond its new price', async () => {
    const r = await booking({ people: 3 });
    await giveCredit(r.telegram_id!, 3 * PRICE);
    const booked = await onBooked(database.db, r, schedule, settings(), NOW);
    const smaller = await updateRecord(database.db, r.id, { people_count: 1 });
    const { events } = await onPartyChanged(database.db, booked.record, smaller, schedule, settings(), NOW);
    expect(rows(events)).toEqual([{ amount: -2 * PRICE, method: 'credit', kind: 'refund' }]);
    expect(await creditBalance(database.db, r.telegram_id!)).toBe(2 * PRICE);
  });

  it('a larger party pays the difference from its certificate while it holds something', async () => {
    const c = await certificate(5 * PRICE);
    const r = await booking({ certificate_id: c.id });
    const booked = await onBooked(database.db, r, schedule, settings(), NOW);
    const larger = await updateRecord(database.db, r.id, { people_count: 2 });
    const { events } = await onPartyChanged(database.db, booked.record, larger, schedule, settings(), NOW);
    expect(rows(events)).toEqual([{ amount: PRICE, method: 'certificate', kind: 'payment' }]);
    expect((await getCertificate(database.db, c.id))!.balance).toBe(3 * PRICE);
  });

  it('a staff price is per person: a larger party costs it × people and holds what is short', async () => {
    const s = settings({ prepayment: 'full' });
    const r = await booking();
    await giveCredit(r.telegram_id!, 1000);
    await setPriceOverride(database.db, r.id, 1000, 'Свой человек');
    const booked = await onBooked(database.db, (await getRecord(database.db, r.id))!, schedule, s, NOW);
    expect((await recordMoney(database.db, booked.record, s)).balance).toBe(0);
    expect(booked.record.pay_by).toBeNull();
    const larger = await updateRecord(database.db, r.id, { people_count: 8 });
    const { record } = await onPartyChanged(database.db, booked.record, larger, schedule, s, NOW);
    expect(await recordMoney(database.db, record, s)).toMatchObject({ price: 8000, amount_paid: 1000, balance: 7000 });
    expect(record.pay_by).not.toBeNull();
  });

  it('a smaller party with a staff price gets back what it paid beyond the new price', async () => {
    const r = await booking({ people: 4 });
    await giveCredit(r.telegram_id!, 4000);
    await setPriceOverride(database.db, r.id, 1000, 'Свой человек');
    const booked = await onBooked(database.db, (await getRecord(database.db, r.id))!, schedule, settings(), NOW);
    const smaller = await updateRecord(database.db, r.id, { people_count: 2 });
    const { record, events } = await onPartyChanged(database.db, booked.record, smaller, schedule, settings(), NOW);
    expect(rows(events)).toEqual([{ amount: -2000, method: 'credit', kind: 'refund' }]);
    expect(await recordMoney(database.db, record, settings())).toMatchObject({ price: 2000, balance: 0 });
    expect(await creditBalance(database.db, r.telegram_id!)).toBe(2000);
  });

  it('a total set before prices were per person stays that total for its party and scales with a new one', async () => {
    const r = await booking({ people: 3 });
    await setPriceOverride(database.db, r.id, 1000, 'Старая цена');
    // As the migration leaves a total that does not divide by its party.
    await database.db.updateTable('records').set({ price_override_party: 3 }).where('id', '=', r.id).execute();
    const legacy = (await getRecord(database.db, r.id))!;
    expect((await recordMoney(database.db, legacy, settings())).price).toBe(1000);
    const six = await updateRecord(database.db, r.id, { people_count: 6 });
    expect((await recordMoney(database.db, six, settings())).price).toBe(2000);
    const two = await updateRecord(database.db, r.id, { people_count: 2 });
    expect((await recordMoney(database.db, two, settings())).price).toBe(667);
  });

  it('a booking sent to the queue holds nothing', async () => {
    const s = settings({ prepayment: 'full' });
    const booked = await onBooked(database.db, await booking(), schedule, s, NOW);
    const queued = await updateRecord(database.db, booked.record.id, { people_count: 4, state: 'QUEUED' });
    const { record, events } = await onPartyChanged(database.db, booked.record, queued, schedule, s, NOW);
    expect(record.pay_by).toBeNull();
    expect(events).toEqual([]);
  });
});

describe('onPromoted and onRestored', () => {
  it('a queued booking pays from credit once the queue serves it, and is held for the rest', async () => {
    const s = settings({ prepayment: 'full' });
    const queued = await onBooked(database.db, await booking({ state: 'QUEUED', people: 2 }), schedule, s, NOW);
    await giveCredit(queued.record.telegram_id!, 1000);
    const promoted = await updateRecord(database.db, queued.record.id, { state: 'ACTIVE', queued_at: null });
    const { record, events } = await onPromoted(database.db, promoted, schedule, s, NOW);
    expect(rows(events)).toEqual([{ amount: 1000, method: 'credit', kind: 'payment' }]);
    expect(record.pay_by).not.toBeNull();
  });

  it('a restored booking pays again only when it came back ACTIVE', async () => {
    const r: RecordRow = (await onBooked(database.db, await booking({ state: 'QUEUED' }), schedule, settings(), NOW))
      .record;
    await giveCredit(r.telegram_id!, PRICE);
    expect((await onRestored(database.db, r, schedule, settings(), NOW)).events).toEqual([]);
    const active = await updateRecord(database.db, r.id, { state: 'ACTIVE', queued_at: null });
    expect(rows((await onRestored(database.db, active, schedule, settings(), NOW)).events)).toEqual([
      { amount: PRICE, method: 'credit', kind: 'payment' },
    ]);
  });
});
