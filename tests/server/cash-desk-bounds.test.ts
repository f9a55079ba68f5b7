import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';

let t: TestApp;
let staff: { authorization: string };
const DAY = 86_400_000;
const NOW = Date.now();
/** 3,000 ledger rows over the last 300 days, and 50 more 500 to 550 days ago (outside the default period). */
const RECENT = 3000;
const OLD = 50;

useTestApp(async (parts) => {
  ({ t, staff } = parts);
  const methods = ['cash', 'card', 'bank_transfer', 'telegram', 'credit', 'certificate'] as const;
  const row = (i: number, at: number) => ({
    record_id: null,
    telegram_id: null,
    // Every seventh row a refund, so received and refunded both count.
    amount: i % 7 === 0 ? -(100 + i) : 1000 + i,
    method: methods[i % methods.length],
    kind: i % 7 === 0 ? ('refund' as const) : ('payment' as const),
    recorded_by_kind: 'staff' as const,
    recorded_by_user_id: null,
    note: `row ${i}`,
    at: new Date(at).toISOString(),
  });
  const rows = [
    ...Array.from({ length: RECENT }, (_, i) => row(i, NOW - 60_000 - (i % 300) * DAY - i * 1000)),
    ...Array.from({ length: OLD }, (_, i) => row(RECENT + i, NOW - (500 + i) * DAY)),
  ];
  for (let i = 0; i < rows.length; i += 500)
    await t.database.db
      .insertInto('payments')
      .values(rows.slice(i, i + 500))
      .execute();
});

const desk = (query = '') => t.app.inject({ method: 'GET', url: `/api/v1/payments/${query}`, headers: staff });

/** The ledger's own sums over [from, to): per method, received and refunded (credit and certificates apart). */
async function ledgerSums(from: string, to: string) {
  const all = await t.database.db
    .selectFrom('payments')
    .select(['amount', 'method', 'at'])
    .where('at', '>=', from)
    .where('at', '<', to)
    .execute();
  const totals: Record<string, number> = {};
  let received = 0;
  let refunded = 0;
  for (const p of all) {
    totals[p.method] = (totals[p.method] ?? 0) + p.amount;
    if (p.method === 'credit' || p.method === 'certificate') continue;
    if (p.amount > 0) received += p.amount;
    else refunded -= p.amount;
  }
  return { totals, received, refunded, count: all.length };
}

describe('the cash desk over many rows', () => {
  it('answers one page, small, with totals for the whole period that equal the ledger', async () => {
    const res = await desk();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.payments).toHaveLength(20);
    expect(res.body.length).toBeLessThan(30_000);
    const sums = await ledgerSums(body.from, body.to);
    expect(body.count).toBe(RECENT);
    expect(sums.count).toBe(RECENT);
    expect(body.totals).toEqual(sums.totals);
    expect(body.received).toBe(sums.received);
    expect(body.refunded).toBe(sums.refunded);
  });

  it('without dates covers the 400 days ending a month from now: older rows stay out', async () => {
    const body = (await desk()).json();
    expect(Date.parse(body.to) - NOW).toBeGreaterThan(29 * DAY);
    expect(Date.parse(body.to) - NOW).toBeLessThan(31 * DAY);
    expect(Math.round((Date.parse(body.to) - Date.parse(body.from)) / DAY)).toBe(400);
    expect(body.payments.some((p: { note: string }) => Number(p.note.slice(4)) >= RECENT)).toBe(false);
    // Asked for, the old rows are there.
    const from = new Date(NOW - 560 * DAY).toISOString().slice(0, 10);
    const to = new Date(NOW - 450 * DAY).toISOString().slice(0, 10);
    const old = (await desk(`?from=${from}&to=${to}&limit=100`)).json();
    expect(old.payments.filter((p: { note: string }) => Number(p.note.slice(4)) >= RECENT)).toHaveLength(OLD);
  });

  it('pages through the period newest first: every row once, in order', async () => {
    const seen: { id: number; at: string }[] = [];
    for (let skip = 0; ; skip += 100) {
      const body = (await desk(`?skip=${skip}&limit=100`)).json();
      expect(body.count).toBe(RECENT);
      seen.push(...body.payments);
      if (body.payments.length < 100) break;
    }
    expect(seen).toHaveLength(RECENT);
    expect(new Set(seen.map((p) => p.id)).size).toBe(RECENT);
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1].at >= seen[i].at).toBe(true);
    expect((await desk('?limit=101')).statusCode).toBe(422);
  });

  it('a method filters the page, the count and the totals alike', async () => {
    const body = (await desk('?method=cash&limit=100')).json();
    const sums = await ledgerSums(body.from, body.to);
    expect(body.payments.every((p: { method: string }) => p.method === 'cash')).toBe(true);
    expect(body.totals).toEqual({ cash: sums.totals.cash });
    expect(body.count).toBe(RECENT / 6);
  });

  it('refuses more than 400 days with a Russian 422, the list and its CSV alike', async () => {
    const tooLong = 'Касса показывает не больше 400 дней за раз: выберите период короче';
    for (const query of ['?from=2026-01-01&to=2027-02-05', '?from=2000-01-01&to=2999-12-31']) {
      for (const url of ['/api/v1/payments/', '/api/v1/payments/export.csv']) {
        const res = await t.app.inject({ method: 'GET', url: url + query, headers: staff });
        expect(res.statusCode, url + query).toBe(422);
        expect(res.json()).toEqual({ detail: tooLong });
      }
    }
    for (const query of ['?from=2026-01-01&to=2027-02-04', '?from=2000-01-01', '?to=2999-12-31'])
      expect((await desk(query)).statusCode, query).toBe(200);
  });

  it('the CSV streams every row of the period, the same the list counts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/payments/export.csv', headers: staff });
    expect(res.statusCode).toBe(200);
    const lines: string[][] = parse(res.body, { delimiter: ';', bom: true });
    expect(lines).toHaveLength(RECENT + 1);
    const note = lines[0].indexOf('Комментарий');
    expect(new Set(lines.slice(1).map((l) => l[note])).size).toBe(RECENT);
  });
});
