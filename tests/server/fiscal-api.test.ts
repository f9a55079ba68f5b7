import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FiscalReceiptPublic, FiscalReport, FiscalStatus } from '../../contract/fiscal';
import type { CashDesk, RecordLedger } from '../../contract/money';
import { startOfStudioDay } from '../../contract/format';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { startFakePfr, type FakePfr } from '../helpers/fake-pfr';
import { useTestApp } from '../helpers/use-test-app';
import { createFiscalSender } from '../../core/jobs/fiscal-sender';
import { createLpfr } from '../../core/fiscal/lpfr';
import { createStaff } from '../bot/setup';

/*
 * What staff see and do of fiscal receipts, over HTTP on a real database with a fake PFR on loopback:
 * the owner's settings (audited, labels only the PFR's), the PFR's state and PIN, each ledger row's
 * receipt in the booking's ledger and Касса with «без чека», a number typed in manual mode (once, even
 * from two requests at once), a refund's buyer ID, and the daily report that must add up to the ledger.
 */

let t: TestApp;
let owner: { authorization: string };
let manager: { authorization: string };
let host: { authorization: string };
let pfr: FakePfr;

useTestApp((parts) => ({ t, staff: owner } = parts));
beforeAll(async () => {
  pfr = await startFakePfr({ pin: '4321' });
  manager = await createStaff(t, 'fiscal-manager@example.com');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/users/',
    headers: owner,
    payload: { email: 'fiscal-host@example.com', password: 'password-123', is_active: true, role: 'host' },
  });
  expect(res.statusCode, res.body).toBe(201);
  host = await t.auth('fiscal-host@example.com', 'password-123');
});
afterAll(() => pfr?.close());

const api = (method: 'GET' | 'POST' | 'PUT', url: string, headers = owner, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });

const settings = async (update: object, headers = owner) => api('PUT', '/fiscal/settings', headers, update);

/** A booking of a fresh session and a cash payment of `amount` taken for it at the desk: the ledger after. */
async function paidBooking(amount: number, method = 'cash') {
  const { schedule } = await createSession(t.app, owner, { price: 3000 });
  const created = await book(t.app, telegramUser(), bookingPayload(schedule.id));
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().record.id as number;
  const paid = await api('POST', `/records/${id}/payments`, owner, { amount, method });
  expect(paid.statusCode, paid.body).toBe(201);
  return { id, ledger: paid.json<RecordLedger>() };
}

/** The receipt the ledger wrote with a row (the fiscal outbox, in the row's transaction). */
async function receiptOf(paymentId: number) {
  return t.database.db
    .selectFrom('fiscal_receipts')
    .selectAll()
    .where('receipt_key', '=', `payment:${paymentId}`)
    .executeTakeFirstOrThrow();
}

const receiptRequestId = (r: { request_id: string }) => r.request_id;

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: t.config.businessTimezone }).format(new Date());

/**
 * A start later on the studio's (Belgrade) day of now, so money taken now is taken on the session's day
 * (door money) at whatever hour the test runs: at most 30 minutes ahead, a minute before midnight at the
 * latest; in the last three minutes of the day it waits for the next.
 */
async function laterToday(): Promise<string> {
  const untilMidnight = () => {
    const parts = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Belgrade',
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date());
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return (24 * 3600 - (part('hour') * 3600 + part('minute') * 60 + part('second'))) * 1000;
  };
  if (untilMidnight() < 3 * 60_000) await new Promise((r) => setTimeout(r, untilMidnight() + 2_000));
  return new Date(Date.now() + Math.min(30 * 60_000, untilMidnight() - 60_000)).toISOString();
}

describe('Настройки → Фискализация', () => {
  it('the owner saves them (audited); a manager reads but cannot change them; a host does neither', async () => {
    const before = await api('GET', '/fiscal/settings');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({ fiscal_mode: 'off', fiscal_training: false });

    const saved = await settings({ fiscal_mode: 'manual', fiscal_cashier: 'Ана' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ fiscal_mode: 'manual', fiscal_cashier: 'Ана' });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'fiscal_settings')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!)).toMatchObject({ fiscal_mode: 'manual', fiscal_cashier: 'Ана' });
    expect(JSON.parse(audit.before!)).toMatchObject({ fiscal_mode: 'off' });

    const asManager = await settings({ fiscal_mode: 'off' }, manager);
    expect(asManager.statusCode).toBe(403);
    expect((await api('GET', '/fiscal/settings', manager)).json()).toMatchObject({ fiscal_mode: 'manual' });
    expect((await api('GET', '/fiscal/settings', host)).statusCode).toBe(403);
    expect((await api('GET', '/fiscal/status', host)).statusCode).toBe(403);
    expect((await api('GET', `/fiscal/report?date=${today()}`, host)).statusCode).toBe(403);
    expect((await api('POST', '/fiscal/pin', manager, { pin: '4321' })).statusCode).toBe(403);
  });

  it('refuses bad input with 422 in Russian and changes nothing', async () => {
    const cases: [object, RegExp][] = [
      [{ fiscal_mode: 'cloud' }, /Выберите: выключено, L-PFR\/V-PFR или вручную/],
      [{ fiscal_pfr_url: 'localhost' }, /Адрес PFR/],
      [{ fiscal_cashier: 'x'.repeat(51) }, /Кассир: не больше 50 символов/],
      [{ fiscal_label_workshop: 'ABC' }, /одна или две буквы/],
      [{ fiscal_certificate_receipts: 'never' }, /когда выдавать чек за сертификат/],
      [{ fiscal_close_buyer_id: 'never' }, /нужен ли документ покупателя для закрытия аванса/],
      [{ fiscal_close_buyer_id: null }, /нужен ли документ покупателя для закрытия аванса/],
      // lpfr needs the PFR's address.
      [{ fiscal_mode: 'lpfr', fiscal_pfr_url: '' }, /Укажите адрес PFR/],
    ];
    for (const [body, detail] of cases) {
      const res = await settings(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail).toMatch(detail);
    }
    expect((await api('GET', '/fiscal/settings')).json()).toMatchObject({
      fiscal_mode: 'manual',
      fiscal_cashier: 'Ана',
    });
  });

  it('the buyer’s ID on the delivery’s advance refund: asked by default, the owner may choose to leave it out and back', async () => {
    expect((await api('GET', '/fiscal/settings')).json()).toMatchObject({ fiscal_close_buyer_id: 'ask' });
    const omit = await settings({ fiscal_close_buyer_id: 'omit' });
    expect(omit.statusCode, omit.body).toBe(200);
    expect(omit.json()).toMatchObject({ fiscal_close_buyer_id: 'omit', fiscal_mode: 'manual' });
    expect((await api('GET', '/fiscal/settings', manager)).json()).toMatchObject({ fiscal_close_buyer_id: 'omit' });
    expect((await settings({ fiscal_close_buyer_id: 'ask' }, manager)).statusCode).toBe(403);
    const ask = await settings({ fiscal_close_buyer_id: 'ask' });
    expect(ask.statusCode, ask.body).toBe(200);
    expect((await api('GET', '/fiscal/settings')).json()).toMatchObject({ fiscal_close_buyer_id: 'ask' });
  });

  it('in lpfr mode a tax label must be one of the PFR’s current rates, checked with the PFR', async () => {
    const unknown = await settings({ fiscal_mode: 'lpfr', fiscal_pfr_url: pfr.url, fiscal_label_workshop: 'Ж' });
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect(unknown.json().detail).toBe('Налоговой метки «Ж» нет среди текущих ставок PFR: выберите метку из списка');
    expect((await api('GET', '/fiscal/settings')).json()).toMatchObject({ fiscal_mode: 'manual' });

    const ok = await settings({ fiscal_mode: 'lpfr', fiscal_pfr_url: pfr.url, fiscal_label_workshop: 'Ђ' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ fiscal_mode: 'lpfr', fiscal_label_workshop: 'Ђ' });
  });

  it('the status tells the PFR’s labels, environment and PIN; the PIN goes to the PFR and nowhere else', async () => {
    pfr.pinRequired = true;
    const locked = await api('GET', '/fiscal/status');
    expect(locked.statusCode, locked.body).toBe(200);
    const s = locked.json<FiscalStatus>();
    expect(s.mode).toBe('lpfr');
    expect(s.pfr).toMatchObject({ reachable: true, pin_required: true });
    expect(s.pfr!.labels.map((l) => l.label)).toEqual(expect.arrayContaining(['Ђ', 'Е', 'Г', 'А']));
    expect(s.pfr!.labels.find((l) => l.label === 'Ђ')).toMatchObject({ rate: 20 });

    const badFormat = await api('POST', '/fiscal/pin', owner, { pin: '12' });
    expect(badFormat.statusCode).toBe(422);
    expect(badFormat.json().detail).toMatch(/PIN: четыре цифры/);
    const wrong = await api('POST', '/fiscal/pin', owner, { pin: '1111' });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().detail).toMatch(/PFR не принял PIN/);
    const right = await api('POST', '/fiscal/pin', owner, { pin: '4321' });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json<FiscalStatus>().pfr).toMatchObject({ reachable: true, pin_required: false });
    expect(pfr.pinRequired).toBe(false);

    // Neither the settings, the log nor anything else keeps it.
    const everything = JSON.stringify([
      await t.database.db.selectFrom('audit_log').selectAll().execute(),
      await t.database.db
        .selectFrom('settings')
        .selectAll()
        .execute()
        .catch(() => []),
      (await api('GET', '/fiscal/settings')).json(),
    ]);
    expect(everything).not.toContain('4321');
    expect(everything).toContain('принят');

    const env = (await api('GET', '/fiscal/status')).json<FiscalStatus>();
    expect(env.pfr?.environment).toBeTruthy();
  });

  it('«Проверить связь» says when an address does not answer, without saving it', async () => {
    const res = await api('POST', '/fiscal/check', owner, { fiscal_pfr_url: 'http://127.0.0.1:9' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ reachable: false, error: 'PFR по адресу http://127.0.0.1:9 не отвечает' });
    expect((await api('POST', '/fiscal/check', owner, { fiscal_pfr_url: pfr.url })).json()).toMatchObject({
      reachable: true,
    });
    expect((await api('POST', '/fiscal/check', manager, { fiscal_pfr_url: pfr.url })).statusCode).toBe(403);
    expect((await api('GET', '/fiscal/settings')).json().fiscal_pfr_url).toBe(pfr.url);
  });
});

describe('receipts on payments, manual mode', () => {
  beforeAll(async () => {
    expect((await settings({ fiscal_mode: 'manual' })).statusCode).toBe(200);
  });

  it('the ledger and Касса show each row’s receipt; «без чека» lists what waits; a number is typed once, even twice at once', async () => {
    const { id, ledger } = await paidBooking(1000);
    const paymentId = ledger.payments[0].id;
    const receipt = await receiptOf(paymentId);

    const read = (await api('GET', `/records/${id}/payments`)).json<RecordLedger>();
    expect(read.fiscal).toEqual({ mode: 'manual', training: false });
    expect(read.payments[0].receipt).toMatchObject({
      id: receipt.id,
      type: 'advance',
      state: 'waiting',
      invoice_number: null,
      amount: 1000,
    });

    const missing = async () =>
      (await api('GET', `/payments/?receipt=missing&limit=100`)).json<CashDesk>().payments.map((p) => p.id);
    expect(await missing()).toContain(paymentId);

    const bad = await api('POST', `/fiscal/receipts/${receipt.id}/manual`, manager, { invoice_number: '12345' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/XXXXXXXX-XXXXXXXX-N/);
    expect(
      (await api('POST', `/fiscal/receipts/${receipt.id}/manual`, host, { invoice_number: 'AB' })).statusCode,
    ).toBe(403);

    const number = 'RX4F7Y5L-RX4F7Y5L-138';
    const both = await Promise.all([
      api('POST', `/fiscal/receipts/${receipt.id}/manual`, manager, { invoice_number: number }),
      api('POST', `/fiscal/receipts/${receipt.id}/manual`, owner, { invoice_number: 'rx4f7y5l-rx4f7y5l-139' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const won = both.find((r) => r.statusCode === 200)!.json<FiscalReceiptPublic>();
    expect(won).toMatchObject({ state: 'issued', type: 'advance' });
    expect(both.find((r) => r.statusCode === 409)!.json().detail).toBe(
      'У этого чека уже есть номер: обновите страницу',
    );

    const after = (await api('GET', `/records/${id}/payments`)).json<RecordLedger>();
    expect(after.payments[0].receipt).toMatchObject({ state: 'issued', invoice_number: won.invoice_number });
    expect(await missing()).not.toContain(paymentId);

    // A number another receipt carries is refused.
    const other = await receiptOf((await paidBooking(500)).ledger.payments[0].id);
    const taken = await api('POST', `/fiscal/receipts/${other.id}/manual`, owner, {
      invoice_number: won.invoice_number,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe(`Номер ${won.invoice_number} уже указан у другого чека`);
    expect(
      (await api('POST', '/fiscal/receipts/2000000000/manual', owner, { invoice_number: number })).statusCode,
    ).toBe(404);

    // The CSV carries the receipt.
    const csv = await api('GET', '/payments/export.csv');
    expect(csv.body).toContain('Чек;Вид чека;Состояние чека');
    expect(csv.body).toContain(`${won.invoice_number};Аванс;Выдан`);
  });

  it('two different receipts given one number at once: one gets it', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await receiptOf((await paidBooking(700)).ledger.payments[0].id);
      const b = await receiptOf((await paidBooking(800)).ledger.payments[0].id);
      const number = `AAAA000${round}-BBBB0000-${round + 1}`;
      const res = await Promise.all([
        api('POST', `/fiscal/receipts/${a.id}/manual`, owner, { invoice_number: number }),
        api('POST', `/fiscal/receipts/${b.id}/manual`, manager, { invoice_number: number }),
      ]);
      expect(res.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const holders = await t.database.db
        .selectFrom('fiscal_receipts')
        .select('id')
        .where('invoice_number', '=', number)
        .execute();
      expect(holders).toHaveLength(1);
    }
  });

  it('the day’s report adds issued receipts up per payment type beside the ledger, and names what keeps them apart', async () => {
    const date = today();
    const first = await api('GET', `/fiscal/report?date=${date}`);
    expect(first.statusCode, first.body).toBe(200);
    const day = {
      from: startOfStudioDay(date, t.config.businessTimezone),
      to: startOfStudioDay(date, t.config.businessTimezone, 1),
    };
    // The day's receipts wait for their numbers: the report says the day does not agree yet, and why.
    const open = first.json<FiscalReport>();
    expect(open.agrees).toBe(false);
    expect(open.pending.length).toBeGreaterThan(0);
    expect(open.pending.every((r) => r.state === 'waiting' && r.mode === 'manual')).toBe(true);
    // Every one typed from the studio's register: then the day agrees.
    let n = 500;
    for (const r of open.pending) {
      const typed = await api('POST', `/fiscal/receipts/${r.id}/manual`, owner, {
        invoice_number: `CCCC1111-DDDD2222-${n++}`,
      });
      expect(typed.statusCode, typed.body).toBe(200);
    }
    const report = (await api('GET', `/fiscal/report?date=${date}`)).json<FiscalReport>();
    expect(report.pending).toEqual([]);
    expect(report.unreceipted).toEqual([]);
    expect(report.agrees).toBe(true);
    const cash = report.totals.find((x) => x.payment_type === 'Cash')!;
    const ledgerCash = await t.database.db
      .selectFrom('payments')
      .select((eb) => eb.fn.sum<number>('amount').as('sum'))
      .where('method', '=', 'cash')
      .where('at', '>=', day.from)
      .where('at', '<', day.to)
      .executeTakeFirstOrThrow();
    expect(cash).toEqual({
      payment_type: 'Cash',
      receipts: Number(ledgerCash.sum),
      ledger: Number(ledgerCash.sum),
      difference: 0,
    });
    const sales = report.rows.filter((x) => x.transaction_type === 'Sale').reduce((s, x) => s + x.amount, 0);
    const refunds = report.rows.filter((x) => x.transaction_type === 'Refund').reduce((s, x) => s + x.amount, 0);
    expect(sales - refunds).toBe(report.totals.reduce((s, x) => s + x.receipts, 0));

    // One more payment whose receipt waits: the day no longer agrees, and the report says which.
    const { ledger } = await paidBooking(900, 'card');
    const waiting = await receiptOf(ledger.payments[0].id);
    const apart = (await api('GET', `/fiscal/report?date=${date}`)).json<FiscalReport>();
    expect(apart.agrees).toBe(false);
    expect(apart.totals.find((x) => x.payment_type === 'Card')).toMatchObject({ difference: -900 });
    expect(apart.pending).toMatchObject([
      { id: waiting.id, state: 'waiting', amount: 900, payment_id: ledger.payments[0].id },
    ]);

    // Money taken while fiscalization was off has no receipt at all: the report names it.
    expect((await settings({ fiscal_mode: 'off' })).statusCode).toBe(200);
    const { ledger: bare } = await paidBooking(300, 'card');
    expect((await settings({ fiscal_mode: 'manual' })).statusCode).toBe(200);
    const none = (await api('GET', `/fiscal/report?date=${date}`)).json<FiscalReport>();
    expect(none.unreceipted).toMatchObject([{ payment_id: bare.payments[0].id, amount: 300, exempt: false }]);
    expect(none.totals.find((x) => x.payment_type === 'Card')).toMatchObject({ difference: -1200 });

    for (const q of ['', 'date=2026-13-01', 'date=yesterday', 'date=0999-01-01']) {
      const res = await api('GET', `/fiscal/report?${q}`);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().detail).toMatch(/Укажите дату/);
    }
  });

  it('a receipt in full: 404 for none, its number and whose it is', async () => {
    const { ledger } = await paidBooking(400);
    const r = await receiptOf(ledger.payments[0].id);
    const res = await api('GET', `/fiscal/receipts/${r.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: r.id,
      type: 'advance',
      invoice_type: 'Advance',
      transaction_type: 'Sale',
      customer_name: 'Анна Петрова',
      workshop_title: 'Паста',
      journal: null,
    });
    expect((await api('POST', `/fiscal/receipts/${r.id}/print`)).statusCode).toBe(409);

    // Issued: its first print is the original, every later one a copy; two first prints at once make one original.
    await api('POST', `/fiscal/receipts/${r.id}/manual`, owner, { invoice_number: 'EEEE1111-FFFF2222-7' });
    const prints = await Promise.all([1, 2, 3].map(() => api('POST', `/fiscal/receipts/${r.id}/print`, manager)));
    expect(prints.map((p) => p.statusCode)).toEqual([200, 200, 200]);
    expect(prints.map((p) => p.json().copy).sort()).toEqual([false, true, true]);
    const again = (await api('POST', `/fiscal/receipts/${r.id}/print`)).json();
    expect(again).toMatchObject({ copy: true, invoice_number: 'EEEE1111-FFFF2222-7' });
    expect(again.printed_at).toBeTruthy();
    expect((await api('POST', `/fiscal/receipts/${r.id}/print`, host)).statusCode).toBe(403);
    expect((await api('GET', '/fiscal/receipts/2000000000')).statusCode).toBe(404);
    expect((await api('GET', '/fiscal/receipts/0')).json().detail).toBe('Такого чека нет');
    expect((await api('GET', `/fiscal/receipts/${r.id}`, host)).statusCode).toBe(403);
  });
  // Last: its lpfr receipts wait for a sender, so the day's report above would not agree with them.
  it('a refund waiting for the buyer’s ID takes it from staff, checked by the rulebook’s code', async () => {
    // Sent to a PFR, a refund waits for its buyer's ID (the studio's own register asks for it in manual mode).
    expect((await settings({ fiscal_mode: 'lpfr' })).statusCode).toBe(200);
    const { id, ledger } = await paidBooking(1200);
    const refund = await api('POST', `/records/${id}/refunds`, owner, {
      amount: 1200,
      method: 'cash',
      over_owed: true,
      note: 'Отказ',
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const refundRow = refund.json<RecordLedger>().payments.find((p) => p.amount < 0)!;
    const sale = await receiptOf(ledger.payments[0].id);
    const r = await receiptOf(refundRow.id);
    expect((await settings({ fiscal_mode: 'manual' })).statusCode).toBe(200);

    const shown = (await api('GET', `/records/${id}/payments`)).json<RecordLedger>();
    expect(shown.payments.find((p) => p.id === refundRow.id)?.receipt).toMatchObject({
      type: 'advance_refund',
      state: 'needs_buyer',
    });
    const bad: [object, RegExp][] = [
      [{ code: '10', number: '12345' }, /ПИБ: 9 цифр/],
      [{ code: '10', number: '123456789' }, /ПИБ: контрольная цифра не сходится/],
      [{ code: '30', number: 'AB1' }, /Пасош \(иностранный\): от 5 до 17 букв и цифр/],
      [{ code: '11', number: '123' }, /ЈМБГ: 13 цифр/],
      [{ code: '20', number: '12345678' }, /9 цифр/],
      [{ code: '99', number: '123456789' }, /Выберите вид документа/],
      [{ code: '23' }, /Укажите номер документа/],
    ];
    for (const [body, detail] of bad) {
      const res = await api('POST', `/fiscal/receipts/${r.id}/buyer`, manager, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail).toMatch(detail);
    }
    const ok = await api('POST', `/fiscal/receipts/${r.id}/buyer`, manager, { code: '20', number: '123 456 789' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ state: 'waiting', has_buyer_id: true, referent: { id: sale.id } });
    const stored = await t.database.db
      .selectFrom('fiscal_receipts')
      .select('buyer_id')
      .where('id', '=', r.id)
      .executeTakeFirstOrThrow();
    expect(stored.buyer_id).toBe('20:123456789');
    const again = await api('POST', `/fiscal/receipts/${r.id}/buyer`, manager, { code: '20', number: '123456789' });
    expect(again.statusCode).toBe(409);
    // The log says a document was given, never its number.
    const log = JSON.stringify(
      await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'fiscal_receipt').execute(),
    );
    expect(log).toContain('buyer_id_code');
    expect(log).not.toContain('123456789');
  });
});

describe('receipts the PFR issued (lpfr)', () => {
  it('the ledger shows the PFR’s number; the receipt carries its journal, QR code and URL; the day agrees once all are issued', async () => {
    expect((await settings({ fiscal_mode: 'lpfr', fiscal_label_workshop: 'Ђ' })).statusCode).toBe(200);
    const { id, ledger } = await paidBooking(1500, 'card');
    const waiting = (await api('GET', `/records/${id}/payments`)).json<RecordLedger>().payments[0].receipt!;
    expect(waiting).toMatchObject({ state: 'waiting', mode: 'lpfr', invoice_number: null });

    const sender = createFiscalSender({
      database: t.database,
      log: { info() {}, warn() {}, error() {}, debug() {} },
      portFor: (url) => createLpfr({ url, timeoutMs: 2_000 }),
      options: { pollMs: 50, baseDelayMs: 50, maxDelayMs: 200 },
    });
    await sender.drain();

    const issued = (await api('GET', `/records/${id}/payments`)).json<RecordLedger>().payments[0].receipt!;
    expect(issued).toMatchObject({ id: waiting.id, state: 'issued', type: 'advance' });
    expect(issued.invoice_number).toBe(
      pfr.invoiceFor(receiptRequestId(await receiptOf(ledger.payments[0].id)))!.result.invoiceNumber,
    );

    const full = (await api('GET', `/fiscal/receipts/${issued.id}`)).json<FiscalReceiptPublic>();
    expect(full.journal).toContain('АВАНС ПРОДАЈА');
    expect(full.journal).toContain(issued.invoice_number);
    expect(full.verification_qr).toMatch(/^data:image\/gif;base64,R0lGOD/);
    expect(full.verification_url).toMatch(/^https?:\/\//);
    expect(full.sdc_time).toBeTruthy();

    // What the sender had (this booking's, and the refund whose buyer staff typed above) is issued; what
    // waits is manual mode's, typed from the register now.
    const before = (await api('GET', `/fiscal/report?date=${today()}`)).json<FiscalReport>();
    expect(before.pending.filter((r) => r.mode === 'lpfr')).toEqual([]);
    let n = 900;
    for (const r of before.pending)
      await api('POST', `/fiscal/receipts/${r.id}/manual`, owner, { invoice_number: `GGGG1111-HHHH2222-${n++}` });
    const report = (await api('GET', `/fiscal/report?date=${today()}`)).json<FiscalReport>();
    expect(report.pending).toEqual([]);
    // Only the money taken while fiscalization was off has no receipt.
    expect(report.unreceipted.map((u) => u.amount)).toEqual([300]);
    expect(report.totals.find((x) => x.payment_type === 'Card')).toMatchObject({ difference: -300 });
    expect(report.totals.find((x) => x.payment_type === 'Cash')).toMatchObject({ difference: 0 });
    expect(report.rows).toContainEqual(
      expect.objectContaining({ invoice_type: 'Advance', transaction_type: 'Sale', payment_type: 'Card' }),
    );
  });

  it('a booking delivered at the door: its advance closed and its sale covering the door money; the day still agrees', async () => {
    const { schedule } = await createSession(t.app, owner, { price: 3000, date: await laterToday() });
    const created = await book(t.app, telegramUser(), bookingPayload(schedule.id));
    const id = created.json().record.id as number;
    // A transfer first (an advance), then the rest in cash at the door on the session's day (the delivery).
    const transfer = await api('POST', `/records/${id}/payments`, owner, { amount: 1000, method: 'bank_transfer' });
    expect(transfer.statusCode, transfer.body).toBe(201);
    const door = await api('POST', `/records/${id}/payments`, owner, { method: 'cash' });
    expect(door.statusCode, door.body).toBe(201);
    const sender = createFiscalSender({
      database: t.database,
      log: { info() {}, warn() {}, error() {}, debug() {} },
      portFor: (url) => createLpfr({ url, timeoutMs: 2_000 }),
      options: { pollMs: 50, baseDelayMs: 50, maxDelayMs: 200 },
    });
    await sender.drain();
    // Closing the advance is a refund: it names the buyer, typed by staff here; the sale waits for it.
    const waiting = (await api('GET', `/records/${id}/payments`)).json<RecordLedger>();
    expect(waiting.receipts.map((r) => [r.type, r.state])).toEqual([
      ['advance', 'issued'],
      ['advance_refund', 'needs_buyer'],
      ['sale', 'waiting'],
    ]);
    const close = waiting.receipts[1];
    const typed = await api('POST', `/fiscal/receipts/${close.id}/buyer`, manager, {
      code: '11',
      number: '0101990710006',
    });
    expect(typed.statusCode, typed.body).toBe(200);
    await sender.drain();

    const ledger = (await api('GET', `/records/${id}/payments`)).json<RecordLedger>();
    const [byTransfer, atDoor] = ledger.payments;
    expect(byTransfer.receipt).toMatchObject({ type: 'advance', state: 'issued', payment_type: 'WireTransfer' });
    expect(atDoor.receipt).toMatchObject({ type: 'sale', state: 'issued', amount: 3000 });
    expect(ledger.receipts.map((r) => [r.type, r.state])).toEqual([
      ['advance', 'issued'],
      ['advance_refund', 'issued'],
      ['sale', 'issued'],
    ]);
    const missing = (await api('GET', `/payments/?receipt=missing&limit=100`)).json<CashDesk>().payments;
    expect(missing.map((p) => p.id)).not.toContain(atDoor.id);

    const report = (await api('GET', `/fiscal/report?date=${today()}`)).json<FiscalReport>();
    expect(report.unreceipted.map((u) => u.payment_id)).not.toContain(atDoor.id);
    expect(report.pending).toEqual([]);
    expect(report.totals.find((x) => x.payment_type === 'WireTransfer')).toEqual({
      payment_type: 'WireTransfer',
      receipts: 1000,
      ledger: 1000,
      difference: 0,
    });
    expect(report.totals.find((x) => x.payment_type === 'Cash')).toMatchObject({ difference: 0 });
    expect(report.rows).toContainEqual(
      expect.objectContaining({
        invoice_type: 'Advance',
        transaction_type: 'Refund',
        payment_type: 'WireTransfer',
        amount: 1000,
      }),
    );
    expect(report.rows).toContainEqual(
      expect.objectContaining({ invoice_type: 'Normal', transaction_type: 'Sale', payment_type: 'Cash', amount: 2000 }),
    );
  }, 240_000); // Near midnight it first waits for the next day (laterToday).
});
