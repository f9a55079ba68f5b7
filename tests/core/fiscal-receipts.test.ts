import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FiscalSettingsUpdate } from '../../contract/fiscal';
import type { Database } from '../../db/database';
import { listFiscalReceiptsOfRecord, type FiscalReceiptRow } from '../../db/repositories/fiscal';
import { insertAddress } from '../../db/repositories/addresses';
import { insertSchedule } from '../../db/repositories/schedules';
import { insertUser } from '../../db/repositories/users';
import { insertWorkshop } from '../../db/repositories/workshops';
import { setAttendance } from '../../core/booking/attendance';
import { cancelRecord, createRecord } from '../../core/booking/engine';
import { issueCertificate } from '../../core/certificates/sale';
import { FiscalLabelError, FiscalNotReady, isReady, partsOf, requestFor } from '../../core/fiscal/receipts';
import { writeFiscalSettings } from '../../core/fiscal/settings';
import type { TaxRateGroup } from '../../core/fiscal/protocol';
import { deliverStartedSessions } from '../../core/jobs/fiscal-delivery';
import { customerActor, staffActor, type Actor } from '../../core/kernel/actor';
import { updateBusinessSettings } from '../../core/kernel/settings';
import { importBankStatement } from '../../core/payments/bank-statement';
import { recordDeskPayment, recordRefund } from '../../core/payments/desk';
import { model97Reference } from '../../core/payments/ips-qr';
import { payOwedRefund } from '../../core/payments/owed-refunds';
import { recordTelegramPayment } from '../../core/payments/telegram';
import { createPromoCode } from '../../core/promo/promo-codes';
import { createLpfr } from '../../core/fiscal/lpfr';
import { FiscalRefused } from '../../core/fiscal/port';
import { startFakePfr } from '../helpers/fake-pfr';
import { leaveOwed } from '../../core/privacy/erasure-money';
import { withWriteTransaction } from '../../db/lock';
import { bookingPayload } from '../helpers/factories';
import { useDatabase } from '../helpers/use-database';

/*
 * The mapping from money to receipts, case by case: each case drives the real commands (desk, Telegram,
 * bank statement, certificates, check-in, refunds, the delivery job) on a fresh database with a fixed
 * clock, and the body requestFor builds for each receipt must equal its golden file in
 * tests/fixtures/fiscal (the shape of the TaxCore v3 examples). FISCAL_GOLDEN=write rewrites them.
 */

const GOLDEN = path.join(__dirname, '..', 'fixtures', 'fiscal');
const TZ = 'Europe/Belgrade';

/** Serbia's labels as a PFR reports them in /status. */
const RATES: TaxRateGroup = {
  validFrom: '2024-01-01T00:00:00.000+01:00',
  groupId: 7,
  taxCategories: [
    {
      name: 'ПДВ',
      categoryType: 0,
      orderId: 1,
      taxRates: [
        { rate: 20, label: 'Ђ' },
        { rate: 10, label: 'Е' },
      ],
    },
    { name: 'Без ПДВ', categoryType: 0, orderId: 2, taxRates: [{ rate: 0, label: 'Г' }] },
  ],
};

let database: Database;
let staff: Actor;
let workshopId: number;
let addressId: number;
let nextTelegramId = 7_100_000;
let invoiceCounter = 100;

useDatabase(async (d) => {
  database = d;
  const user = await insertUser(d.db, {
    email: 'kasa@example.com',
    hashed_password: 'x',
    full_name: 'Ана',
    is_active: true,
    is_superuser: true,
  });
  staff = staffActor({ id: user!.id, is_superuser: true }, TZ);
  workshopId = (await insertWorkshop(d.db, { title: 'Паста', price: 3000 })).id;
  addressId = (await insertAddress(d.db, { title: 'Студио', map_link: 'https://maps.example/1' })).id;
});

beforeAll(() => {
  // Only Date: the database drivers' timers stay real.
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterAll(() => {
  vi.useRealTimers();
});

const at = (iso: string) => vi.setSystemTime(new Date(iso));

async function settings(update: FiscalSettingsUpdate = {}) {
  await writeFiscalSettings(database.db, {
    fiscal_mode: 'lpfr',
    fiscal_training: false,
    fiscal_cashier: 'Ана',
    fiscal_label_workshop: 'Ђ',
    fiscal_label_certificate: 'Ђ',
    fiscal_certificate_receipts: 'redemption',
    fiscal_close_buyer_id: 'ask',
    ...update,
  });
}

const session = async (date: string) =>
  (await insertSchedule(database.db, { date, capacity: 8, workshop_id: workshopId, address_id: addressId })).id;

/** A Telegram customer's booking made in the mini-app. */
async function booking(
  scheduleId: number,
  extra: Parameters<typeof bookingPayload>[1] = {},
  telegramId = nextTelegramId++,
) {
  const res = await createRecord(database, customerActor(telegramId), bookingPayload(scheduleId, extra), {
    telegram_id: telegramId,
    telegram_login: `user${telegramId}`,
  });
  return { id: res.record.id, telegramId };
}

const receipts = (recordId: number) => listFiscalReceiptsOfRecord(database.db, recordId);
const allReceipts = () => database.db.selectFrom('fiscal_receipts').selectAll().orderBy('id').execute();

/** The PFR's answer to a receipt, as the sender would store it: issued with the next number. */
async function issue(r: FiscalReceiptRow): Promise<FiscalReceiptRow> {
  return database.db
    .updateTable('fiscal_receipts')
    .set({
      state: 'issued',
      invoice_number: `RX4F7Y5L-RX4F7Y5L-${++invoiceCounter}`,
      sdc_time: new Date().toISOString(),
      issued_at: new Date().toISOString(),
    })
    .where('id', '=', r.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The buyer's ID a customer (or staff) gave: the receipt waits for the sender again. */
const giveBuyer = (r: FiscalReceiptRow, buyerId: string) =>
  database.db
    .updateTable('fiscal_receipts')
    .set({ buyer_id: buyerId, state: 'waiting' })
    .where('id', '=', r.id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** requestFor's body equals tests/fixtures/fiscal/<name>.json. */
async function golden(name: string, r: FiscalReceiptRow) {
  const body = await requestFor(
    database.db,
    await database.db.selectFrom('fiscal_receipts').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow(),
    RATES,
  );
  const file = path.join(GOLDEN, `${name}.json`);
  if (process.env.FISCAL_GOLDEN === 'write') {
    fs.mkdirSync(GOLDEN, { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  }
  expect(body, name).toEqual(JSON.parse(fs.readFileSync(file, 'utf8')));
  // Whatever the case, a body the PFR accepts adds up: the payments are the items' total.
  const items = body.items.reduce((s, i) => s + i.totalAmount, 0);
  expect(body.payment.reduce((s, p) => s + p.amount, 0)).toBe(items);
  for (const i of body.items) expect(i.quantity * i.unitPrice).toBe(i.totalAmount);
}

const statementLine = (day: string, amount: number, recordId: number) =>
  `Datum;Naziv;Svrha;Potražuje;Poziv na broj\n${day.split('-').reverse().join('.')};Ana Petrović;Master-klas;${amount},00;${model97Reference(String(recordId))}`;

describe('money before the service: an Advance Sale per payment, by its payment type', () => {
  it('cash, card, a Telegram payment and a bank transfer', async () => {
    await settings();
    at('2030-03-01T09:00:00.000Z');
    const s = await session('2030-03-10T17:00:00.000Z');
    const b = await booking(s);
    await recordDeskPayment(database, staff, b.id, { method: 'cash', amount: 500 });
    at('2030-03-01T09:05:00.000Z');
    await recordDeskPayment(database, staff, b.id, { method: 'card', amount: 700 });
    const [cash, card] = await receipts(b.id);
    expect([cash.receipt_key, cash.kind, cash.state, cash.mode]).toEqual([
      `payment:${cash.payment_id}`,
      'advance',
      'waiting',
      'lpfr',
    ]);
    expect(cash.request_id).toMatch(/^[0-9a-f]{32}$/);
    await golden('advance-cash', cash);
    // The second advance of a booking names the first (the chain of advances): it waits until that one is issued.
    expect(card.referent_receipt_id).toBe(cash.id);
    expect(await isReady(database.db, card)).toBe(false);
    await expect(requestFor(database.db, card, RATES)).rejects.toBeInstanceOf(FiscalNotReady);
    at('2030-03-01T09:06:00.000Z');
    await issue(cash);
    expect(await isReady(database.db, card)).toBe(true);
    await golden('advance-card-second', card);

    at('2030-03-02T10:00:00.000Z');
    const t = await booking(s);
    await recordTelegramPayment(database, {
      from_id: t.telegramId,
      currency: 'RSD',
      total_amount: 3000 * 100,
      invoice_payload: `record:${t.id}`,
      telegram_payment_charge_id: 'tg-charge-1',
      provider_payment_charge_id: 'provider-charge-1',
    });
    await golden('advance-telegram', (await receipts(t.id))[0]);
  });

  it('a bank transfer read from a statement a day late keeps the day it arrived', async () => {
    await settings();
    at('2030-03-03T08:00:00.000Z');
    const b = await booking(await session('2030-03-12T17:00:00.000Z'));
    at('2030-03-04T07:30:00.000Z');
    const imported = await importBankStatement(database, staff, { text: statementLine('2030-03-03', 3000, b.id) });
    expect(imported.matched).toBe(1);
    const [r] = await receipts(b.id);
    expect(r.esir_time).toBe('2030-03-03T11:00:00.000Z');
    await golden('advance-bank-transfer-late', r);
  });

  it('training: the same receipts as Training, and a label the PFR lacks is refused with what to do', async () => {
    await settings({ fiscal_training: true });
    at('2030-03-05T09:00:00.000Z');
    const b = await booking(await session('2030-03-15T17:00:00.000Z'));
    await recordDeskPayment(database, staff, b.id, { method: 'cash', amount: 1000 });
    const [r] = await receipts(b.id);
    expect([r.invoice_type, Boolean(r.training)]).toEqual(['Advance', true]);
    await golden('training-advance', r);
    await settings({ fiscal_label_workshop: 'Ж' });
    await expect(requestFor(database.db, r, RATES)).rejects.toThrow(
      new FiscalLabelError(
        'Налоговой метки «Ж» нет среди ставок PFR (есть: Ђ, Е, Г): выберите метку мастер-классов в Настройки → Фискализация',
      ),
    );
    await settings({ fiscal_label_workshop: '' });
    await expect(requestFor(database.db, r, RATES)).rejects.toThrow(
      'Не выбрана налоговая метка мастер-классов: Настройки → Фискализация',
    );
  });
});

describe('the delivery: the advances closed and the whole price sold', () => {
  it('a deposit paid in Telegram, the rest in cash at the door: Advance Refund, then a Normal Sale of both', async () => {
    await settings();
    await updateBusinessSettings(database.db, { prepayment: 'deposit', deposit_percent: 30 });
    at('2030-03-06T09:00:00.000Z');
    const s = await session('2030-03-20T17:00:00.000Z');
    const b = await booking(s, { people_count: 2 });
    await recordTelegramPayment(database, {
      from_id: b.telegramId,
      currency: 'RSD',
      total_amount: 1800 * 100,
      invoice_payload: `record:${b.id}`,
      telegram_payment_charge_id: 'tg-charge-deposit',
      provider_payment_charge_id: 'provider-charge-deposit',
    });
    const [advance] = await receipts(b.id);
    at('2030-03-06T09:01:00.000Z');
    await issue(advance);
    // At the door on the session's day: the cash is the delivery.
    at('2030-03-20T16:40:00.000Z');
    const ledger = await recordDeskPayment(database, staff, b.id, { method: 'cash' });
    const door = ledger.payments.at(-1)!;
    const [, close, sale] = await receipts(b.id);
    expect([close.receipt_key, close.kind, close.referent_receipt_id]).toEqual([`close:${b.id}`, 'close', advance.id]);
    expect([sale.receipt_key, sale.kind, sale.payment_id, sale.referent_receipt_id, sale.amount]).toEqual([
      `sale:${b.id}`,
      'sale',
      door.id,
      close.id,
      6000,
    ]);
    // An advance's closing is a refund: it names the buyer, so it waits for the ID, and the sale for it.
    expect(close.state).toBe('needs_buyer');
    await golden('delivery-close', await giveBuyer(close, '20:123456789'));
    at('2030-03-20T16:41:00.000Z');
    await issue(close);
    await golden('delivery-sale', sale);
    // Check-in afterwards delivers nothing twice.
    await setAttendance(database, staff, b.id, 'ATTENDED');
    expect(await receipts(b.id)).toHaveLength(3);
    await updateBusinessSettings(database.db, { prepayment: 'none' });
  });

  it('a promo code: the discounted price per person, split a dinar apart when it does not divide', async () => {
    await settings();
    at('2030-03-07T09:00:00.000Z');
    await createPromoCode(
      database,
      staff,
      {
        code: 'PROLECE',
        kind: 'fixed',
        value: 700,
        valid_from: null,
        valid_to: null,
        workshop_ids: [],
        max_uses: null,
      },
      TZ,
    );
    const b = await booking(await session('2030-03-21T17:00:00.000Z'), { people_count: 3, promo_code: 'PROLECE' });
    at('2030-03-21T16:30:00.000Z');
    await recordDeskPayment(database, staff, b.id, { method: 'card' });
    const [sale] = await receipts(b.id);
    expect([sale.kind, sale.amount, sale.referent_receipt_id]).toEqual(['sale', 8300, null]);
    await golden('delivery-promo-door-card', sale);
  });

  it('a gift certificate redeemed (setting redemption): no receipt at its sale, Voucher in the service’s sale', async () => {
    await settings();
    at('2030-03-08T09:00:00.000Z');
    const before = (await allReceipts()).length;
    const c = await issueCertificate(database, staff, { amount: 5000, method: 'cash' });
    expect(await allReceipts()).toHaveLength(before);
    const b = await booking(await session('2030-03-22T17:00:00.000Z'), { certificate_code: c.code });
    expect(await receipts(b.id)).toEqual([]);
    at('2030-03-22T16:30:00.000Z');
    await setAttendance(database, staff, b.id, 'ATTENDED');
    const [sale] = await receipts(b.id);
    expect([sale.kind, sale.payment_type, sale.referent_receipt_id]).toEqual(['sale', 'Voucher', null]);
    expect(JSON.parse(sale.covers!)).toHaveLength(1);
    await golden('certificate-redeemed-sale', sale);
  });

  it('studio credit spent: the advance behind it (another booking’s, refunded to credit) is closed and sold as it was paid', async () => {
    await settings();
    at('2030-03-09T09:00:00.000Z');
    const first = await booking(await session('2030-03-23T17:00:00.000Z'));
    await recordDeskPayment(database, staff, first.id, { method: 'card' });
    const [advance] = await receipts(first.id);
    at('2030-03-09T09:01:00.000Z');
    await issue(advance);
    await cancelRecord(database, staff, first.id, 'Не смогу');
    // Nothing is refunded in money: the advance stays open, now behind the customer's credit.
    expect(await receipts(first.id)).toHaveLength(1);
    const second = await booking(await session('2030-03-24T17:00:00.000Z'), {}, first.telegramId);
    expect(await receipts(second.id)).toEqual([]);
    at('2030-03-24T16:50:00.000Z');
    await setAttendance(database, staff, second.id, 'ATTENDED');
    const [close, sale] = await receipts(second.id);
    expect([close.kind, close.referent_receipt_id, close.amount]).toEqual(['close', advance.id, 3000]);
    await golden('credit-close', await giveBuyer(close, '23:012345678'));
    at('2030-03-24T16:51:00.000Z');
    await issue(close);
    await golden('credit-sale', sale);
  });

  it('the session started without check-in: the delivery job sells it at the start, once; a booking with no money gets none', async () => {
    await settings();
    at('2030-03-10T09:00:00.000Z');
    const s = await session('2030-03-25T17:00:00.000Z');
    const paid = await booking(s);
    const unpaid = await booking(s);
    await recordDeskPayment(database, staff, paid.id, { method: 'cash' });
    at('2030-03-25T17:01:00.000Z');
    expect(await deliverStartedSessions(database, new Date())).toBe(2);
    expect(await deliverStartedSessions(database, new Date())).toBe(0);
    const [, close, sale] = await receipts(paid.id);
    expect([close.esir_time, sale.esir_time]).toEqual(['2030-03-25T17:00:00.000Z', '2030-03-25T17:00:00.000Z']);
    expect(partsOf(sale)).toEqual([{ paymentType: 'Cash', amount: 3000 }]);
    expect(await receipts(unpaid.id)).toEqual([]);
  });
});

describe('money back: a refund receipt naming what it returns and the buyer', () => {
  it('an advance refunded in cash before the session: Advance Refund of that advance, waiting for the buyer’s ID', async () => {
    await settings();
    await updateBusinessSettings(database.db, { refund_to: 'refund' });
    at('2030-03-11T09:00:00.000Z');
    const b = await booking(await session('2030-03-26T17:00:00.000Z'));
    await recordDeskPayment(database, staff, b.id, { method: 'cash' });
    const [advance] = await receipts(b.id);
    at('2030-03-11T09:01:00.000Z');
    await issue(advance);
    await cancelRecord(database, staff, b.id, 'Заболела');
    at('2030-03-12T10:00:00.000Z');
    await recordRefund(database, staff, b.id, { method: 'cash' });
    const [, refund] = await receipts(b.id);
    expect([
      refund.kind,
      refund.invoice_type,
      refund.transaction_type,
      refund.state,
      refund.referent_receipt_id,
    ]).toEqual(['advance_refund', 'Advance', 'Refund', 'needs_buyer', advance.id]);
    await golden('advance-refund', await giveBuyer(refund, '20:987654321'));
    await updateBusinessSettings(database.db, { refund_to: 'credit' });
  });

  it('money returned after the sale: a Normal Refund of the sale, with the buyer known from the close', async () => {
    await settings();
    at('2030-03-12T09:00:00.000Z');
    const b = await booking(await session('2030-03-27T17:00:00.000Z'));
    await recordDeskPayment(database, staff, b.id, { method: 'card', amount: 1000 });
    const [advance] = await receipts(b.id);
    await issue(advance);
    at('2030-03-27T16:45:00.000Z');
    await setAttendance(database, staff, b.id, 'ATTENDED');
    const [, close, sale] = await receipts(b.id);
    await issue(await giveBuyer(close, '20:111222333'));
    await issue(sale);
    // Money taken after the sale is sold on its own.
    at('2030-03-27T16:50:00.000Z');
    await recordDeskPayment(database, staff, b.id, { method: 'cash' });
    const later = (await receipts(b.id)).at(-1)!;
    expect([later.kind, later.invoice_type, later.amount, later.referent_receipt_id]).toEqual([
      'later_sale',
      'Normal',
      2000,
      null,
    ]);
    await golden('later-sale-cash', later);
    at('2030-03-27T20:00:00.000Z');
    await recordRefund(database, staff, b.id, { method: 'cash', amount: 500, over_owed: true, note: 'Ушла раньше' });
    const refund = (await receipts(b.id)).at(-1)!;
    expect([refund.kind, refund.state, refund.referent_receipt_id, refund.buyer_id]).toEqual([
      'refund',
      'waiting',
      sale.id,
      '20:111222333',
    ]);
    await golden('refund-after-sale', refund);
  });

  it('an erased customer’s owed refund paid out: an Advance Refund of the advance behind their credit', async () => {
    await settings();
    at('2030-03-13T09:00:00.000Z');
    const b = await booking(await session('2030-03-28T17:00:00.000Z'));
    await recordDeskPayment(database, staff, b.id, { method: 'card' });
    const [advance] = await receipts(b.id);
    await issue(advance);
    await cancelRecord(database, staff, b.id, 'Не смогу');
    await withWriteTransaction(database, (trx) =>
      leaveOwed(trx, staff, b.telegramId, { credit: 3000, paid: 0, owed: 3000 }),
    );
    const owed = await database.db
      .selectFrom('owed_refunds')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // The erased customer's id is gone from where their advances are kept.
    expect(
      await database.db
        .selectFrom('fiscal_advances')
        .selectAll()
        .where('holder', '=', 'credit')
        .where('holder_id', '=', b.telegramId)
        .execute(),
    ).toEqual([]);
    at('2030-03-14T10:00:00.000Z');
    await payOwedRefund(database, staff, owed.id, { method: 'bank_transfer' });
    const payout = (await allReceipts()).at(-1)!;
    expect([payout.kind, payout.record_id, payout.referent_receipt_id, payout.state]).toEqual([
      'advance_refund',
      null,
      advance.id,
      'needs_buyer',
    ]);
    await golden('owed-refund-payout', await giveBuyer(payout, '20:444555666'));
  });
});

it('an erased customer with no credit left: where their credit held advances names nobody', async () => {
  await settings();
  at('2030-03-13T12:00:00.000Z');
  const first = await booking(await session('2030-03-28T18:00:00.000Z'));
  await recordDeskPayment(database, staff, first.id, { method: 'cash' });
  await cancelRecord(database, staff, first.id, 'Не смогу');
  await booking(await session('2030-03-29T18:00:00.000Z'), {}, first.telegramId);
  const heldBy = () =>
    database.db
      .selectFrom('fiscal_advances')
      .selectAll()
      .where('holder', '=', 'credit')
      .where('holder_id', '=', first.telegramId)
      .execute();
  expect(await heldBy()).toHaveLength(2);
  await withWriteTransaction(database, (trx) =>
    leaveOwed(trx, staff, first.telegramId, { credit: 0, paid: 0, owed: 0 }),
  );
  expect(await heldBy()).toEqual([]);
});

describe('certificates sold, under both settings', () => {
  it('sale: an Advance Sale at the sale, closed when the certificate pays a delivered booking', async () => {
    await settings({ fiscal_certificate_receipts: 'sale' });
    at('2030-03-14T09:00:00.000Z');
    const c = await issueCertificate(database, staff, { amount: 5000, method: 'card' });
    const sold = (await allReceipts()).at(-1)!;
    expect([sold.kind, sold.certificate_id, sold.record_id]).toEqual(['advance', c.id, null]);
    await golden('certificate-sale-advance', sold);
    await issue(sold);
    const b = await booking(await session('2030-03-29T17:00:00.000Z'), { certificate_code: c.code });
    at('2030-03-29T16:30:00.000Z');
    await setAttendance(database, staff, b.id, 'ATTENDED');
    const [close, sale] = await receipts(b.id);
    expect([close.referent_receipt_id, close.amount, partsOf(sale)]).toEqual([
      sold.id,
      3000,
      [{ paymentType: 'Card', amount: 3000 }],
    ]);
    await golden('certificate-sale-close', await giveBuyer(close, '20:777888999'));
  });

  it('redemption: nothing at the sale', async () => {
    await settings({ fiscal_certificate_receipts: 'redemption' });
    at('2030-03-15T09:00:00.000Z');
    const before = await allReceipts();
    await issueCertificate(database, staff, { amount: 3500, method: 'cash' });
    expect(await allReceipts()).toEqual(before);
  });
});

it('with fiscalization off nothing is written, whatever the money does', async () => {
  await settings({ fiscal_mode: 'off' });
  at('2030-03-16T09:00:00.000Z');
  const before = await allReceipts();
  const advancesBefore = await database.db.selectFrom('fiscal_advances').selectAll().execute();
  const b = await booking(await session('2030-03-30T17:00:00.000Z'));
  await recordDeskPayment(database, staff, b.id, { method: 'cash', amount: 1000 });
  await issueCertificate(database, staff, { amount: 3500, method: 'card' });
  at('2030-03-30T16:40:00.000Z');
  await recordDeskPayment(database, staff, b.id, { method: 'card' });
  await setAttendance(database, staff, b.id, 'ATTENDED');
  at('2030-03-30T17:30:00.000Z');
  expect(await deliverStartedSessions(database, new Date())).toBe(0);
  expect(await allReceipts()).toEqual(before);
  expect(await database.db.selectFrom('fiscal_advances').selectAll().execute()).toEqual(advancesBefore);
});

it('setting omit: the delivery’s close goes without the buyer’s ID at once, and a PFR that allows it signs it; money paid back still waits for the ID', async () => {
  await settings({ fiscal_close_buyer_id: 'omit' });
  await updateBusinessSettings(database.db, { refund_to: 'refund' });
  at('2030-03-06T10:00:00.000Z');
  const b = await booking(await session('2030-03-20T18:00:00.000Z'));
  await recordDeskPayment(database, staff, b.id, { method: 'card' });
  const [advance] = await receipts(b.id);
  at('2030-03-06T10:01:00.000Z');
  await issue(advance);
  at('2030-03-20T17:50:00.000Z');
  await setAttendance(database, staff, b.id, 'ATTENDED');
  const [, close, sale] = await receipts(b.id);
  expect([close.kind, close.state, close.buyer_id, close.referent_receipt_id]).toEqual([
    'close',
    'waiting',
    null,
    advance.id,
  ]);
  expect(await isReady(database.db, close)).toBe(true);
  await golden('delivery-close-omit', close);
  const body = await requestFor(database.db, close, RATES);
  expect(body).not.toHaveProperty('buyerId');
  // The fake PFR as the studio's device under either reading: refused by default, signed when allowed.
  const strict = await startFakePfr();
  const lenient = await startFakePfr({ advanceRefundBuyerId: 'optional' });
  try {
    const refused = await createLpfr({ url: strict.url, timeoutMs: 2000 })
      .issue(close.request_id, body)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FiscalRefused);
    expect((refused as FiscalRefused).errors).toEqual({ buyerId: ['2800'] });
    const signed = await createLpfr({ url: lenient.url, timeoutMs: 2000 }).issue(close.request_id, body);
    expect(signed.invoiceCounter).toMatch(/АР$/);
    expect(signed.journal).toContain('10: Аванс (Ђ)');
    expect(signed.journal).not.toContain('(Ђ) (Ђ)');
  } finally {
    await Promise.all([strict.close(), lenient.close()]);
  }
  await issue(close);
  await issue(sale);
  // Real money back after the sale names the buyer whatever the setting: nobody's ID is known, so it waits.
  at('2030-03-20T20:00:00.000Z');
  await recordRefund(database, staff, b.id, { method: 'card', amount: 500, over_owed: true, note: 'Ушла раньше' });
  const refund = (await receipts(b.id)).at(-1)!;
  expect([refund.kind, refund.state, refund.buyer_id]).toEqual(['refund', 'needs_buyer', null]);
  await updateBusinessSettings(database.db, { refund_to: 'credit' });
});
