import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderNotification } from '../../bot/messages';
import { createLpfr } from '../../core/fiscal/lpfr';
import { writeFiscalSettings } from '../../core/fiscal/settings';
import { createFiscalSender, enterPin, fiscalHealth, type FiscalSender } from '../../core/jobs/fiscal-sender';
import { readNotification, type StaffFiscalPayload } from '../../core/notify/notifications';
import { consumeLinkToken, createLinkToken } from '../../core/staff/telegram-link';
import { nowIso } from '../../db/database';
import { getFiscalReceipt, insertFiscalReceipt, type FiscalReceiptInsert } from '../../db/repositories/fiscal';
import type { TestApp } from '../helpers/app';
import { startFakePfr, type FakePfr } from '../helpers/fake-pfr';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { useTestApp } from '../helpers/use-test-app';

/*
 * The fiscal sender against the fake PFR on loopback (the real lpfr adapter over HTTP), on the test
 * app's database: receipts issued once, the same RequestId and body on every retry, a lost answer
 * looked up instead of sent again, the PIN and outages told to staff once, refusals set aside.
 */

let t: TestApp;
let owner: { authorization: string };
let pfr: FakePfr;
const OWNER_CHAT = 8_310_001;
const MANAGER_CHAT = 8_310_002;
const HOST_CHAT = 8_310_003;
const DECIDERS = [OWNER_CHAT, MANAGER_CHAT].sort();
const SILENT = { info() {}, warn() {}, error() {}, debug() {} };

async function linkedStaff(email: string, role: 'manager' | 'host', chat: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/users/',
    headers: owner,
    payload: { email, password: 'password-123', is_active: true, role },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { token } = await createLinkToken(t.database, res.json().id);
  await consumeLinkToken(t.database, token, { id: chat });
}

useTestApp(async (parts) => {
  ({ t, staff: owner } = parts);
  pfr = await startFakePfr();
  const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: owner })).json();
  const { token } = await createLinkToken(t.database, me.id);
  await consumeLinkToken(t.database, token, { id: OWNER_CHAT });
  await linkedStaff('fiscal-manager@example.com', 'manager', MANAGER_CHAT);
  await linkedStaff('fiscal-host@example.com', 'host', HOST_CHAT);
  await writeFiscalSettings(t.database.db, {
    fiscal_mode: 'lpfr',
    fiscal_pfr_url: pfr.url,
    fiscal_label_workshop: 'Ђ',
    fiscal_cashier: 'Ана',
  });
});
afterAll(() => pfr?.close());

const senders: FiscalSender[] = [];
function sender(opts: { pin?: string; timeoutMs?: number; [k: string]: unknown } = {}) {
  const { pin, ...options } = opts;
  const s = createFiscalSender({
    database: t.database,
    log: SILENT,
    pin,
    portFor: (url) => createLpfr({ url, timeoutMs: opts.timeoutMs ?? 2_000 }),
    options: { pollMs: 50, baseDelayMs: 50, maxDelayMs: 200, pinCheckMs: 100, ...options },
  });
  senders.push(s);
  return s;
}

/** Every alert of a test is read from the id the test began at. */
let firstNotification = 0;
beforeEach(async () => {
  pfr.reset();
  const last = await t.database.db
    .selectFrom('notifications')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  firstNotification = Number(last?.id ?? 0);
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.stop()));
  // Each test leaves the PFR answering and every receipt decided.
  expect((await fiscalHealth(t.database.db)).state).toBe('ok');
  expect((await fiscalHealth(t.database.db)).waiting).toBe(0);
});

async function alerts(event?: StaffFiscalPayload['event']) {
  const rows = await t.database.db
    .selectFrom('notifications')
    .selectAll()
    .where('kind', '=', 'staff.fiscal')
    .where('id', '>', firstNotification)
    .orderBy('id')
    .execute();
  return rows
    .map((r) => ({ chat: Number(r.chat_id), payload: JSON.parse(r.payload) as StaffFiscalPayload, row: r }))
    .filter((a) => event === undefined || a.payload.event === event);
}
const chatsOf = (list: { chat: number }[]) => list.map((a) => a.chat).sort();
const RC = {
  publicUrl: 'https://studio.example',
  timezone: 'Europe/Belgrade',
  businessName: 'Студия',
  calendarPath: (id: number) => `/ics/${id}`,
};
const textOf = (a: { row: { kind: string; payload: string } }) =>
  (renderNotification(readNotification(a.row.kind, a.row.payload), RC) as { text: string }).text;

let keys = 0;
async function receipt(over: Partial<FiscalReceiptInsert> = {}) {
  const amount = over.amount ?? 3000;
  const row = await insertFiscalReceipt(t.database.db, {
    parts: JSON.stringify([{ amount, paymentType: over.payment_type ?? 'Cash' }]),
    receipt_key: `test:${++keys}:${randomUUID()}`,
    kind: 'advance',
    invoice_type: 'Advance',
    transaction_type: 'Sale',
    amount: 3000,
    payment_type: 'Cash',
    esir_time: nowIso(),
    request_id: randomUUID().replaceAll('-', ''),
    mode: 'lpfr',
    training: 0,
    next_attempt_at: nowIso(),
    ...over,
  });
  return row!;
}
const reread = async (id: number) => (await getFiscalReceipt(t.database.db, id))!;

const posts = (requestId: string) =>
  pfr.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/invoices' && r.requestId === requestId);
const lookups = (requestId: string) =>
  pfr.requests.filter((r) => r.method === 'GET' && r.path === `/api/v3/invoices/${requestId}`);

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 8_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const issued = (...ids: number[]) =>
  until(`receipts ${ids.join(', ')} issued`, async () =>
    (await Promise.all(ids.map(reread))).every((r) => r.state === 'issued'),
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the fiscal sender', () => {
  it('issues a receipt once and keeps the PFR’s answer on the row; a receipt that refers to another waits for it', async () => {
    const sale = await receipt({ next_attempt_at: new Date(Date.now() + 3600_000).toISOString() });
    const refund = await receipt({
      kind: 'refund',
      invoice_type: 'Normal',
      transaction_type: 'Refund',
      buyer_id: '20:123456789',
      referent_receipt_id: sale.id,
    });
    const s = sender();
    // The refund is due, but the sale it refers to is not issued yet.
    expect(await s.runOnce()).toBe(0);
    expect(pfr.requests.filter((r) => r.method === 'POST')).toEqual([]);

    await t.database.db
      .updateTable('fiscal_receipts')
      .set({ next_attempt_at: nowIso() })
      .where('id', '=', sale.id)
      .execute();
    // One row a step, the first first; the refund is not leased meanwhile.
    expect(await s.runOnce()).toBe(1);
    expect(await reread(sale.id)).toMatchObject({ state: 'issued' });
    expect(await reread(refund.id)).toMatchObject({ state: 'waiting', claimed_by: null, attempts: 0 });
    expect(await s.drain()).toBe(1);
    expect(pfr.invoices).toHaveLength(2);
    const [a, b] = [await reread(sale.id), await reread(refund.id)];
    const signed = pfr.invoiceFor(sale.request_id)!.result;
    expect(a).toMatchObject({
      state: 'issued',
      invoice_number: signed.invoiceNumber,
      invoice_counter: signed.invoiceCounter,
      verification_url: signed.verificationUrl,
      verification_qr: signed.verificationQRCode,
      journal: signed.journal,
      total_amount: 3000,
      attempts: 1,
      claimed_by: null,
      locked_until: null,
    });
    expect(Date.parse(a.sdc_time!)).toBe(Date.parse(signed.sdcDateTime));
    expect(a.issued_at).not.toBeNull();
    // The body sent is the one kept; the refund names the sale's PFR number.
    expect(JSON.parse(a.request!)).toEqual(posts(sale.request_id)[0].body);
    expect(JSON.parse(b.request!)).toMatchObject({
      transactionType: 'Refund',
      referentDocumentNumber: signed.invoiceNumber,
      referentDocumentDT: a.sdc_time,
    });
    expect(b.state).toBe('issued');
    expect(posts(sale.request_id)).toHaveLength(1);
    expect(posts(refund.request_id)).toHaveLength(1);
    // Issued receipts are not sent again.
    expect(await s.runOnce()).toBe(0);
    expect(pfr.invoices).toHaveLength(2);
    expect(await alerts()).toEqual([]);
  });

  it('5xx twice, then the PFR recovers: the same RequestId and exactly the first body every time, one receipt, nobody paged for a blip', async () => {
    pfr.failNext('5xx', 2);
    const row = await receipt({ amount: 4500, payment_type: 'Card' });
    const s = sender();
    s.start();
    await until('the first attempt', () => posts(row.request_id).length >= 1);
    // Settings changed meanwhile do not change a body already sent.
    await writeFiscalSettings(t.database.db, { fiscal_cashier: 'Другой кассир' });
    try {
      await issued(row.id);
    } finally {
      await writeFiscalSettings(t.database.db, { fiscal_cashier: 'Ана' });
    }
    const sent = posts(row.request_id);
    expect(sent.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(sent.map((r) => r.body)).toEqual([sent[0].body, sent[0].body, sent[0].body]);
    expect(sent[0].body).toMatchObject({ cashier: 'Ана', payment: [{ amount: 4500, paymentType: 'Card' }] });
    const after = await reread(row.id);
    expect(JSON.parse(after.request!)).toEqual(sent[0].body);
    expect(after.attempts).toBe(3);
    expect(pfr.invoices.filter((i) => i.requestId === row.request_id)).toHaveLength(1);
    expect(await alerts()).toEqual([]);
  });

  it('a timeout after the PFR signed (it never answers): the next attempt looks the request up and stores it, not sent again', async () => {
    pfr.failNext('timeout');
    const row = await receipt();
    const s = sender({ timeoutMs: 300 });
    expect(await s.runOnce()).toBe(1);
    expect((await reread(row.id)).state).toBe('waiting');
    expect((await fiscalHealth(t.database.db)).state).toBe('unreachable');
    expect(pfr.invoices).toHaveLength(1);
    await sleep(80); // the backoff
    expect(await s.runOnce()).toBe(1);
    const after = await reread(row.id);
    expect(after).toMatchObject({
      state: 'issued',
      invoice_number: pfr.invoiceFor(row.request_id)!.result.invoiceNumber,
    });
    expect(posts(row.request_id)).toHaveLength(1);
    expect(lookups(row.request_id).map((r) => r.status)).toEqual([200]);
    expect(pfr.invoices).toHaveLength(1);
  });

  it('the answer lost after signing (the connection dropped): looked up, one receipt', async () => {
    pfr.failNext('drop');
    const row = await receipt();
    const s = sender();
    s.start();
    await issued(row.id);
    expect(posts(row.request_id)).toHaveLength(1);
    expect(lookups(row.request_id)).toHaveLength(1);
    expect(pfr.invoices).toHaveLength(1);
  });

  it('PIN required: receipts wait, owners and managers are told once; the PIN entered by an owner sends them; a later outage is told again', async () => {
    pfr.pinRequired = true;
    const rows = [await receipt(), await receipt(), await receipt()];
    const s = sender();
    s.start();
    await until('the PIN outage', async () => (await fiscalHealth(t.database.db)).state === 'pin_required');
    await sleep(500); // several PIN checks
    for (const r of rows) expect((await reread(r.id)).state).toBe('waiting');
    expect(pfr.invoices).toEqual([]);
    const told = await alerts();
    expect(told.map((a) => a.payload.event)).toEqual(['pin_required', 'pin_required']);
    expect(chatsOf(told)).toEqual(DECIDERS);
    expect(told[0].payload.waiting).toBe(3);
    expect(textOf(told[0])).toContain('просит PIN-код');
    expect(textOf(told[0])).toContain('ждут: 3');
    expect(await fiscalHealth(t.database.db)).toMatchObject({ state: 'pin_required', waiting: 3 });

    expect(await enterPin(t.database, createLpfr({ url: pfr.url }), '0000')).toBe('2100');
    expect(await enterPin(t.database, createLpfr({ url: pfr.url }), '1234')).toBe('0100');
    await issued(...rows.map((r) => r.id));
    expect(pfr.invoices).toHaveLength(3);
    await until('the recovery told', async () => (await alerts('recovered')).length === 2);
    expect(chatsOf(await alerts('recovered'))).toEqual(DECIDERS);
    expect(await fiscalHealth(t.database.db)).toMatchObject({ state: 'ok', waiting: 0 });

    // A second outage is another outage: told again.
    pfr.pinRequired = true;
    const later = await receipt();
    await until('the second PIN alert', async () => (await alerts('pin_required')).length === 4);
    await sleep(300);
    expect(await alerts('pin_required')).toHaveLength(4);
    expect(await enterPin(t.database, createLpfr({ url: pfr.url }), '1234')).toBe('0100');
    await issued(later.id);
    expect(pfr.invoices).toHaveLength(4);
    for (const r of [...rows, later]) expect(pfr.invoices.filter((i) => i.requestId === r.request_id)).toHaveLength(1);
  });

  it('PIN required with FISCAL_PFR_PIN configured: the sender enters it itself and nobody is paged', async () => {
    pfr.pinRequired = true;
    const row = await receipt();
    const s = sender({ pin: '1234' });
    s.start();
    await issued(row.id);
    expect(pfr.requests.filter((r) => r.path === '/api/v3/pin')).toHaveLength(1);
    expect(await alerts()).toEqual([]);
  });

  it('a configured PIN the PFR refuses is entered once per outage by all instances together, and staff are told to enter it', async () => {
    pfr.pinRequired = true;
    const row = await receipt();
    const a = sender({ pin: '9999' });
    const b = sender({ pin: '9999' });
    a.start();
    b.start();
    await until('the PIN alert', async () => (await alerts('pin_required')).length === 2);
    await sleep(600); // many PIN checks by both
    expect(pfr.requests.filter((r) => r.path === '/api/v3/pin')).toHaveLength(1);
    const told = await alerts();
    expect(told.map((x) => x.payload)).toMatchObject([
      { event: 'pin_required', pin_refused: true },
      { event: 'pin_required', pin_refused: true },
    ]);
    expect(textOf(told[0])).toContain('не принял PIN-код');
    expect(await enterPin(t.database, createLpfr({ url: pfr.url }), '1234')).toBe('0100');
    await issued(row.id);
    expect(pfr.invoices).toHaveLength(1);
  });

  it('the PFR unreachable (stopped): receipts wait, staff are told once only after it lasts; back but locked, they are told the PIN; then it all goes out', async () => {
    const port = pfr.port;
    await pfr.close();
    const row = await receipt();
    const s = sender({ timeoutMs: 500, unreachableAlertMs: 1_500, maxDelayMs: 300 });
    s.start();
    try {
      await until('the outage seen', async () => (await fiscalHealth(t.database.db)).state === 'unreachable');
      await sleep(700);
      // A blip pages nobody.
      expect(await alerts()).toEqual([]);
      await until('the unreachable alert', async () => (await alerts('unreachable')).length === 2, 5_000);
      const told = await alerts('unreachable');
      expect(chatsOf(told)).toEqual(DECIDERS);
      expect(textOf(told[0])).toContain('не отвечает');
      await sleep(1_000);
      expect(await alerts()).toHaveLength(2);
      expect((await reread(row.id)).state).toBe('waiting');
      expect((await reread(row.id)).last_error).toContain('ECONNREFUSED');
    } finally {
      // Restarted, an L-PFR asks for its PIN again.
      pfr = await startFakePfr({ port, from: pfr, pinRequired: true });
    }
    await until('the PIN alert', async () => (await alerts('pin_required')).length === 2);
    expect(await alerts('recovered')).toEqual([]);
    expect(await enterPin(t.database, createLpfr({ url: pfr.url }), '1234')).toBe('0100');
    await issued(row.id);
    expect(posts(row.request_id)).toHaveLength(1);
    await until('the recovery told', async () => (await alerts('recovered')).length === 2);
    expect((await alerts()).map((a) => a.payload.event)).toEqual([
      'unreachable',
      'unreachable',
      'pin_required',
      'pin_required',
      'recovered',
      'recovered',
    ]);
  });

  it('a receipt the PFR refuses leaves the queue with its codes, told once; the next receipts go on', async () => {
    // A refund without the buyer's ID: the PFR answers 2800 for buyerId.
    const original = await receipt();
    const bad = await receipt({
      kind: 'refund',
      invoice_type: 'Normal',
      transaction_type: 'Refund',
      amount: 1500,
      referent_receipt_id: original.id,
    });
    const next = await receipt();
    const s = sender();
    expect(await s.drain()).toBe(3);
    const refused = await reread(bad.id);
    expect(refused.state).toBe('refused');
    expect(refused.last_error).toContain('buyerId: 2800');
    expect((await reread(next.id)).state).toBe('issued');
    const told = await alerts('refused');
    expect(chatsOf(told)).toEqual(DECIDERS);
    expect(told[0].payload).toMatchObject({ receipt_id: bad.id, amount: 1500, transaction_type: 'Refund' });
    expect(textOf(told[0])).toContain(`чеке №${bad.id} (возврат`);
    expect(textOf(told[0])).toContain('buyerId: 2800');
    expect(await s.runOnce()).toBe(0);
    expect(await alerts()).toHaveLength(2);
    expect((await fiscalHealth(t.database.db)).refused).toBe(1);
  });

  it('a receipt that cannot be built as the settings stand (a tax label the PFR lacks) waits, told once; sent once the label is fixed', async () => {
    await writeFiscalSettings(t.database.db, { fiscal_label_workshop: 'Ж' });
    const rows = [await receipt(), await receipt()];
    const s = sender();
    s.start();
    try {
      await until('the alert', async () => (await alerts('not_sent')).length === 2);
      await sleep(600); // several retries of both rows
      const told = await alerts();
      expect(told.map((a) => a.payload.event)).toEqual(['not_sent', 'not_sent']);
      expect(textOf(told[0])).toContain('«Ж»');
      for (const r of rows) expect((await reread(r.id)).state).toBe('waiting');
      expect(pfr.requests.filter((r) => r.method === 'POST')).toEqual([]);
    } finally {
      await writeFiscalSettings(t.database.db, { fiscal_label_workshop: 'Ђ' });
    }
    await issued(...rows.map((r) => r.id));
  });

  it('nothing is sent in another fiscal mode; the rows wait for lpfr again', async () => {
    await writeFiscalSettings(t.database.db, { fiscal_mode: 'manual' });
    const row = await receipt();
    const s = sender();
    try {
      expect(await s.runOnce()).toBe(0);
      expect(pfr.requests).toEqual([]);
    } finally {
      await writeFiscalSettings(t.database.db, { fiscal_mode: 'lpfr' });
    }
    expect(await s.drain()).toBe(1);
    expect((await reread(row.id)).state).toBe('issued');
  });

  it('a booking paid at the desk while the PFR is slow: the payment answers at once, its advance receipt follows once', async () => {
    const { schedule } = await createSession(t.app, owner, { price: 3000 });
    const customer = telegramUser();
    const booked = await book(t.app, customer, bookingPayload(schedule.id));
    const recordId = booked.json().record.id as number;
    pfr.delayMs = 1_500;
    const s = sender({ timeoutMs: 5_000 });
    s.start();
    const started = Date.now();
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${recordId}/payments`,
      headers: owner,
      payload: { method: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    // Nothing in the booking's transaction waits for the PFR.
    expect(Date.now() - started).toBeLessThan(1_000);
    const rows = await t.database.db
      .selectFrom('fiscal_receipts')
      .selectAll()
      .where('record_id', '=', recordId)
      .execute();
    expect(rows).toMatchObject([{ kind: 'advance', state: 'waiting', amount: 3000, payment_type: 'Cash' }]);
    await issued(rows[0].id);
    expect(pfr.invoices.filter((i) => i.requestId === rows[0].request_id)).toHaveLength(1);
    expect(pfr.invoiceFor(rows[0].request_id)!.request).toMatchObject({
      invoiceType: 'Advance',
      transactionType: 'Sale',
      payment: [{ amount: 3000, paymentType: 'Cash' }],
    });
    // The customer hears of it with the receipt's issue: asked once whether to get receipts in Telegram.
    const told = await t.database.db
      .selectFrom('notifications')
      .select(['kind', 'payload'])
      .where('chat_id', '=', customer.id)
      .where('kind', 'like', 'fiscal.%')
      .execute();
    expect(told.map((n) => [n.kind, JSON.parse(n.payload).receipt_id])).toEqual([['fiscal.consent', rows[0].id]]);
  });

  it('stop() lets the send in flight finish and stores its answer', async () => {
    pfr.delayMs = 400;
    const row = await receipt();
    const s = sender();
    s.start();
    await until('the send in flight', () => posts(row.request_id).length === 1);
    await s.stop();
    expect((await reread(row.id)).state).toBe('issued');
  });
});
