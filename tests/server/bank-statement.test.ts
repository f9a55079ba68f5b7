import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { bookingReference } from '../../core/payments/ips-qr';
import { parseAmount, parseStatement } from '../../core/payments/bank-statement-csv';
import { referenceCertificateCode, referenceRecordId } from '../../core/payments/bank-statement';

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

beforeEach(async () => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/business-settings/',
    headers: staff,
    payload: { prepayment: 'none' },
  });
  expect(res.statusCode, res.body).toBe(200);
});

const HEADER = 'Datum;Naziv;Mesto;Svrha;Šifra;Duguje;Potražuje;Poziv na broj';
/** A statement as a Serbian bank exports it: a title, the header, one line per transfer in. */
const statement = (...lines: { amount: string; reference: string; payer?: string; purpose?: string }[]) =>
  [
    'Izvod broj 231 za račun 160-0000000123456-78',
    HEADER,
    ...lines.map(
      (l) =>
        `27.11.2026;${l.payer ?? 'Ana Petrović'};Beograd;${l.purpose ?? 'Master-klas'};289;;${l.amount};${l.reference}`,
    ),
  ].join('\r\n');

const upload = (text: string, columns?: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/bank-statement',
    headers: staff,
    payload: { text, ...(columns && { columns }) },
  });
const lines = (status = 'unmatched') =>
  t.app
    .inject({ method: 'GET', url: `/api/v1/payments/bank-lines?status=${status}&limit=100`, headers: staff })
    .then((r) => r.json());
const transfersOf = (recordId: number) =>
  t.database.db
    .selectFrom('payments')
    .selectAll()
    .where('record_id', '=', recordId)
    .where('method', '=', 'bank_transfer')
    .execute();
const money = (id: number, user: ReturnType<typeof telegramUser>) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(user) }).then((r) => r.json().money);

async function booking(price = 3500) {
  const { schedule } = await createSession(t.app, staff, { price });
  const user = telegramUser();
  const res = await book(t.app, user, bookingPayload(schedule.id));
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().record.id as number, user };
}

describe('reading a statement', () => {
  it('reads the sample Serbian export: credit lines with whole dinars, debits skipped, references decoded', () => {
    const text = readFileSync(new URL('../fixtures/bank-statement.csv', import.meta.url), 'utf8');
    const { lines, skipped } = parseStatement(text);
    expect(skipped).toBe(1);
    expect(lines.map((l) => [l.booked_on, l.amount, l.payer, l.reference])).toEqual([
      ['2026-11-26', 3500, 'Ana Petrović', '97 62-12'],
      ['2026-11-27', 5000, 'Marko Jovanović', ''],
      ['2026-11-27', 3000, 'Jelena Ilić', '97 835'],
    ]);
    expect(referenceRecordId(lines[0].reference)).toBe(12);
    expect(referenceRecordId(lines[2].reference)).toBe(5);
    // A wrong control number names no booking.
    expect(referenceRecordId('97 63-12')).toBeNull();
    expect(referenceCertificateCode(lines[1].reference, lines[1].purpose)).toBe('ABCDEFGHJKLM');
    expect(new Set(lines.map((l) => l.key)).size).toBe(3);
    expect(parseStatement(text).lines.map((l) => l.key)).toEqual(lines.map((l) => l.key));
  });

  it('reads amounts as banks print them', () => {
    expect(['3.500,00', '3500,00', '3500.00', '3,500.00', '3.500', '1.234.567,00', '3500'].map(parseAmount)).toEqual([
      3500, 3500, 3500, 3500, 3500, 1234567, 3500,
    ]);
    expect(['3.500,50', 'abc', ''].map(parseAmount)).toEqual([null, null, null]);
  });
});

describe('importing a statement', () => {
  it('records a transfer matched by the IPS reference and amount once; the same statement again changes nothing', async () => {
    const { id, user } = await booking(3500);
    const text = statement({ amount: '3.500,00', reference: bookingReference(id) });
    const first = await upload(text);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ lines: 1, matched: 1, unmatched: 0, already: 0 });
    expect(await transfersOf(id)).toMatchObject([{ amount: 3500, kind: 'payment', recorded_by_kind: 'staff' }]);
    expect(await money(id, user)).toMatchObject({ amount_paid: 3500, balance: 0, status: 'paid' });
    const again = await upload(text);
    expect(again.json()).toEqual({ lines: 1, matched: 0, unmatched: 0, already: 1 });
    expect(await transfersOf(id)).toHaveLength(1);
    const matched = await lines('matched');
    expect(matched.data.find((l: { record_id: number }) => l.record_id === id)).toMatchObject({
      amount: 3500,
      status: 'matched',
      booked_on: '2026-11-27',
    });
  });

  it('two imports of one statement at once record each transfer once', async () => {
    for (let round = 0; round < 4; round++) {
      const a = await booking(2000);
      const b = await booking(4500);
      const text = statement(
        { amount: '2.000,00', reference: bookingReference(a.id) },
        { amount: '4.500,00', reference: bookingReference(b.id), payer: 'Marko' },
        { amount: '999,00', reference: 'nepoznato', payer: `Neko ${round}` },
      );
      const results = await Promise.all([upload(text), upload(text), upload(text)]);
      for (const r of results) expect(r.statusCode, r.body).toBe(200);
      const sum = results
        .map((r) => r.json())
        .reduce((s, r) => ({ m: s.m + r.matched, u: s.u + r.unmatched }), {
          m: 0,
          u: 0,
        });
      expect(sum).toEqual({ m: 2, u: 1 });
      expect(await transfersOf(a.id)).toHaveLength(1);
      expect(await transfersOf(b.id)).toHaveLength(1);
    }
  });

  it('a wrong amount stays unmatched and listed with the booking its reference names', async () => {
    const { id, user } = await booking(3500);
    const res = await upload(statement({ amount: '3.000,00', reference: bookingReference(id), payer: 'Jelena Ilić' }));
    expect(res.json()).toMatchObject({ matched: 0, unmatched: 1 });
    expect(await transfersOf(id)).toHaveLength(0);
    expect(await money(id, user)).toMatchObject({ amount_paid: 0, status: 'unpaid' });
    const listed = (await lines()).data.find((l: { reference: string }) => l.reference === bookingReference(id));
    expect(listed).toMatchObject({ amount: 3000, payer: 'Jelena Ilić', status: 'unmatched', reference_record_id: id });
  });

  it('a deposit paid by the QR amount ends the seat hold', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { prepayment: 'deposit', deposit_percent: 30 },
    });
    expect(put.statusCode, put.body).toBe(200);
    const { id, user } = await booking(5000);
    expect(await money(id, user)).toMatchObject({ pay_now: 1500 });
    expect((await money(id, user)).pay_by).not.toBeNull();
    await upload(statement({ amount: '1.500,00', reference: bookingReference(id) }));
    expect(await money(id, user)).toMatchObject({ amount_paid: 1500, status: 'deposit_paid', pay_by: null });
  });

  it('staff attach an unmatched line to a booking by number (once, audited) or dismiss one with a reason', async () => {
    const { id, user } = await booking(3500);
    await upload(
      statement(
        { amount: '3.500,00', reference: 'uplata za radionicu', payer: 'Petar Petrović' },
        { amount: '120,00', reference: '', payer: 'Banka', purpose: 'Kamata' },
      ),
    );
    const open = (await lines()).data;
    const line = open.find((l: { payer: string }) => l.payer === 'Petar Petrović');
    const interest = open.find((l: { payer: string }) => l.payer === 'Banka');
    const attach = (recordId: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/payments/bank-lines/${line.id}/attach`,
        headers: staff,
        payload: { record_id: recordId },
      });
    // Two staff at once: one attaches, the other is told it is done.
    const [a, b] = await Promise.all([attach(id), attach(id)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const done = a.statusCode === 200 ? a : b;
    expect(done.json()).toMatchObject({ status: 'attached', record_id: id, amount: 3500 });
    expect((a.statusCode === 409 ? a : b).json().detail).toBe('Эта строка выписки уже разобрана');
    expect(await transfersOf(id)).toMatchObject([{ amount: 3500 }]);
    expect(await money(id, user)).toMatchObject({ status: 'paid' });
    const dismiss = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payments/bank-lines/${interest.id}/dismiss`,
      headers: staff,
      payload: { reason: 'Проценты банка' },
    });
    expect(dismiss.statusCode, dismiss.body).toBe(200);
    expect(dismiss.json()).toMatchObject({ status: 'dismissed', dismiss_reason: 'Проценты банка' });
    const left = (await lines()).data.map((l: { id: number }) => l.id);
    expect(left).not.toContain(line.id);
    expect(left).not.toContain(interest.id);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'bank_line')
      .where('entity_id', 'in', [line.id, interest.id])
      .execute();
    expect(audit).toHaveLength(2);
    // A line for more than the booking still owes is refused.
    const other = await booking(1000);
    await upload(statement({ amount: '2.000,00', reference: 'x', payer: 'Više' }));
    const more = (await lines()).data.find((l: { payer: string }) => l.payer === 'Više');
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payments/bank-lines/${more.id}/attach`,
      headers: staff,
      payload: { record_id: other.id },
    });
    expect(refused.statusCode).toBe(409);
    expect(await transfersOf(other.id)).toHaveLength(0);
  });

  it('pays a gift certificate waiting for its transfer, named in the purpose, for its amount', async () => {
    const buyer = telegramUser();
    const amounts = await t.app.inject({ method: 'GET', url: '/api/v1/certificates/options', headers: tma(buyer) });
    const amount = amounts.json().amounts[0] as number;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/purchase',
      headers: tma(buyer),
      payload: { amount },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { code } = await t.database.db
      .selectFrom('certificates')
      .select('code')
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    const printed = `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
    const text = statement({ amount: `${amount},00`, reference: '', purpose: `Sertifikat ${printed.toLowerCase()}` });
    expect((await upload(text)).json()).toMatchObject({ matched: 1 });
    expect((await upload(text)).json()).toMatchObject({ matched: 0, already: 1 });
    const c = await t.database.db
      .selectFrom('certificates')
      .selectAll()
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    expect(c).toMatchObject({ pay_method: 'bank_transfer' });
    expect(c.paid_at).not.toBeNull();
  });

  it('takes other column names and a comma-separated file; names the columns it cannot find', async () => {
    const { id } = await booking(2500);
    const text = [
      'Value date,Counterparty,Credit,Payment reference,Bank ref',
      `2026-11-27,Ana,"2,500.00",${bookingReference(id)},TX-1`,
    ].join('\n');
    const columns = {
      date: 'Value date',
      payer: 'Counterparty',
      amount: 'Credit',
      reference: 'Payment reference',
      id: 'Bank ref',
    };
    expect((await upload(text, columns)).json()).toMatchObject({ matched: 1 });
    expect((await upload(text, columns)).json()).toMatchObject({ already: 1 });
    expect(await transfersOf(id)).toHaveLength(1);
    const missing = await upload(text);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toContain('Datum');
  });
});
