import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLpfr } from '../../core/fiscal/lpfr';
import type { InvoiceRequest } from '../../core/fiscal/protocol';
import { startFakePfr } from '../helpers/fake-pfr';

/*
 * Every golden request body (one per case of the mapping, tests/fixtures/fiscal) is one a PFR signs:
 * sent to the fake PFR, which checks the protocol's rules (labels, totals, a refund's buyer and
 * referent), each is issued with the counter letters of its type. The close under the studio's
 * `omit` reading goes to a PFR that takes an advance refund without the buyer.
 */

const GOLDEN = path.join(__dirname, '..', 'fixtures', 'fiscal');
const cases = fs
  .readdirSync(GOLDEN)
  .filter((f) => f.endsWith('.json'))
  .map(
    (f) =>
      [f.replace(/\.json$/, ''), JSON.parse(fs.readFileSync(path.join(GOLDEN, f), 'utf8')) as InvoiceRequest] as const,
  );

/** The counter's letters by invoice and transaction type. */
const LETTERS: Record<string, string> = {
  'Normal Sale': 'ПП',
  'Normal Refund': 'ПР',
  'Advance Sale': 'АП',
  'Advance Refund': 'АР',
  'Training Sale': 'ОП',
  'Training Refund': 'ОР',
};

let strict: Awaited<ReturnType<typeof startFakePfr>>;
let lenient: Awaited<ReturnType<typeof startFakePfr>>;
beforeAll(async () => {
  strict = await startFakePfr();
  lenient = await startFakePfr({ advanceRefundBuyerId: 'optional' });
});
afterAll(() => Promise.all([strict.close(), lenient.close()]));

describe('the golden bodies', () => {
  it('are there, one per case', () => expect(cases.length).toBeGreaterThanOrEqual(17));

  it.each(cases)('%s is signed by the PFR', async (name, body) => {
    const pfr = name.includes('omit') ? lenient : strict;
    const signed = await createLpfr({ url: pfr.url, timeoutMs: 5000 }).issue(randomUUID().replace(/-/g, ''), body);
    const paid = body.payment.reduce((sum, p) => sum + p.amount, 0);
    expect(signed.totalAmount).toBe(paid);
    expect(signed.invoiceCounter.endsWith(LETTERS[`${body.invoiceType} ${body.transactionType}`])).toBe(true);
    expect(signed.verificationUrl).toMatch(/^https?:\/\//);
  });
});
