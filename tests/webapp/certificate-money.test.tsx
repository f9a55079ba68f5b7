import { describe, expect, it } from 'vitest';
import { moneyOf, type LedgerEntry } from '../../contract/money';

const booking = { state: 'ACTIVE' as const, people_count: 2, unit_price: 3500, price_override: null, pay_by: null };
const settings = { prepayment: 'none' as const, deposit_percent: 30 };

describe('what a gift certificate paid of a booking', () => {
  it('is the sum of its certificate rows, beside cash, and what a cancel gave back is taken off', () => {
    const ledger: LedgerEntry[] = [
      { amount: 5000, method: 'certificate', kind: 'payment' },
      { amount: 2000, method: 'cash', kind: 'payment' },
    ];
    expect(moneyOf(booking, ledger, settings)).toMatchObject({ paid_by_certificate: 5000, amount_paid: 7000 });
    const cancelled = { ...booking, state: 'CANCELLED' as const };
    const returned: LedgerEntry[] = [...ledger, { amount: -5000, method: 'certificate', kind: 'refund' }];
    expect(moneyOf(cancelled, returned, settings).paid_by_certificate).toBe(0);
    expect(moneyOf(booking, [{ amount: 7000, method: 'cash', kind: 'payment' }], settings).paid_by_certificate).toBe(0);
  });
});
