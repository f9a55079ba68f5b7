import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { createStaff } from '../bot/setup';
import { checkMoneyInvariants } from '../../core/payments/invariants';

/*
 * What an erased customer's credit left owed back waits on the cash desk's «Несверенные деньги» card
 * until staff record it paid out («Выплачено»): once, even when two staff press it at once, as one
 * ledger row of money out, audited; the desk then owes it no more.
 */

let t: TestApp;
let staff: { authorization: string };
let manager: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));
beforeAll(async () => {
  manager = await createStaff(t, 'manager-owed@example.com');
});

interface Owed {
  id: number;
  amount: number;
}
const card = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/payments/unreconciled', headers: staff });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().owed_refunds as Owed[];
};
const desk = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/payments/', headers: staff });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { refunds_owed: number; refunded: number; totals: Record<string, number> };
};
const paid = (id: number, method: string, headers = staff) =>
  t.app.inject({ method: 'POST', url: `/api/v1/payments/owed-refunds/${id}/paid`, headers, payload: { method } });

/** A customer with `amount` of studio credit erases their data (staff do it at their request); the refund owed. */
async function erasedWithCredit(telegramId: number, amount: number): Promise<Owed> {
  const credit = await t.app.inject({
    method: 'POST',
    url: `/api/v1/customers/${telegramId}/credit`,
    headers: staff,
    payload: { amount, reason: 'Компенсация за перенос' },
  });
  expect(credit.statusCode, credit.body).toBe(200);
  const before = new Set((await card()).map((o) => o.id));
  const erased = await t.app.inject({ method: 'DELETE', url: `/api/v1/customers/${telegramId}/data`, headers: staff });
  expect(erased.statusCode, erased.body).toBe(200);
  const fresh = (await card()).filter((o) => !before.has(o.id));
  expect(fresh).toMatchObject([{ amount }]);
  return fresh[0]!;
}

describe('«Выплачено» on a refund owed to an erased customer', () => {
  it('two staff at once pay it once: one ledger row out, audited, off the card and off what the desk owes', async () => {
    for (let round = 0; round < 4; round++) {
      const amount = 1000 + round * 250;
      const owed = await erasedWithCredit(781_000_100 + round, amount);
      const deskBefore = await desk();
      const method = (['cash', 'card', 'bank_transfer'] as const)[round % 3];

      const answers = await Promise.all([paid(owed.id, method), paid(owed.id, method, manager)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const refused = answers.find((a) => a.statusCode === 409)!;
      expect(refused.json().detail).toBe('Этот возврат уже выплачен: обновите страницу');
      // The answer is the card without it.
      const ok = answers.find((a) => a.statusCode === 200)!;
      expect(ok.json().owed_refunds.map((o: Owed) => o.id)).not.toContain(owed.id);
      expect((await card()).map((o) => o.id)).not.toContain(owed.id);

      const row = await t.database.db
        .selectFrom('owed_refunds')
        .selectAll()
        .where('id', '=', owed.id)
        .executeTakeFirstOrThrow();
      expect(row.refunded_at).not.toBeNull();
      const out = await t.database.db
        .selectFrom('payments')
        .selectAll()
        .where('id', '=', row.refund_payment_id!)
        .executeTakeFirstOrThrow();
      expect(out).toMatchObject({ amount: -amount, method, kind: 'refund', record_id: null, telegram_id: null });
      const payouts = await t.database.db
        .selectFrom('payments')
        .select('id')
        .where('amount', '=', -amount)
        .where('method', '=', method)
        .where('record_id', 'is', null)
        .execute();
      expect(payouts).toHaveLength(1);

      const deskAfter = await desk();
      expect(deskBefore.refunds_owed - deskAfter.refunds_owed).toBe(amount);
      expect(deskAfter.refunded - deskBefore.refunded).toBe(amount);
      const audit = await t.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity', '=', 'owed_refund')
        .where('entity_id', '=', owed.id)
        .execute();
      expect(audit).toHaveLength(1);
      expect(await checkMoneyInvariants(t.database.db)).toEqual([]);

      // Pressed again later, from a stale card: refused, nothing moves.
      const again = await paid(owed.id, 'cash');
      expect(again.statusCode).toBe(409);
      expect((await desk()).refunded).toBe(deskAfter.refunded);
    }
  });

  it('asks how it was paid and knows no other refund', async () => {
    const owed = await erasedWithCredit(781_000_200, 700);
    const bad = await paid(owed.id, 'credit');
    expect(bad.statusCode).toBe(422);
    expect((await paid(999_999, 'cash')).statusCode).toBe(404);
    expect((await card()).map((o) => o.id)).toContain(owed.id);
  });
});
