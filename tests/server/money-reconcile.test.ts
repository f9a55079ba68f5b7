import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { createStaff, linkStaff } from '../bot/setup';
import { cancelExpiredHolds } from '../../core/payments/hold';
import { sweepUnreconciled } from '../../core/payments/reconcile';
import { createScheduler, jobs } from '../../core/jobs/scheduler';

/*
 * Stuck money is found and decided: the sweeper reports each piece once (an alert and a line on the
 * cash desk's card), staff decide it (credit, refund, keep), audited and written to the ledger, once
 * even when two decide at once.
 */

let t: TestApp;
let staff: { authorization: string };
let manager: { authorization: string };
const staffChat = 9_400_001;
useTestApp((parts) => ({ t, staff } = parts));

beforeAll(async () => {
  manager = await createStaff(t, 'manager-reconcile@example.com');
  await linkStaff(t, staff, staffChat, { userApply: true, userCancel: true, scheduled1d: false });
});

const settings = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: staff, payload });
beforeEach(async () => {
  expect((await settings({ prepayment: 'none', refund_to: 'refund' })).statusCode).toBe(200);
  // Each test reads only what it found: earlier findings are decided away.
  await t.database.db
    .updateTable('unreconciled_money')
    .set({ decision: 'settled', decided_at: new Date().toISOString() })
    .where('decided_at', 'is', null)
    .execute();
});

type User = ReturnType<typeof telegramUser>;
interface Item {
  id: number;
  kind: string;
  record_id: number | null;
  amount: number;
  name: string | null;
}
const pay = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/payments`, headers: staff, payload });
const ledger = (id: number) =>
  t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: staff }).then((r) => r.json());
const card = async (): Promise<Item[]> => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/payments/unreconciled', headers: staff });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
};
const decide = (id: number, payload: Record<string, unknown>, headers = staff) =>
  t.app.inject({ method: 'POST', url: `/api/v1/payments/unreconciled/${id}/decision`, headers, payload });
const credit = (user: User) =>
  t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) }).then((r) => r.json().balance as number);
const alerts = () =>
  t.database.db
    .selectFrom('notifications')
    .select('payload')
    .where('kind', '=', 'staff.money')
    .where('chat_id', '=', staffChat)
    .execute()
    .then((rows) => rows.map((r) => JSON.parse(String(r.payload))));

async function booking(price: number, people = 1) {
  const { schedule } = await createSession(t.app, staff, { price });
  const user = telegramUser();
  const res = await book(t.app, user, bookingPayload(schedule.id, { people_count: people }));
  expect(res.statusCode, res.body).toBe(201);
  return { user, id: res.json().record.id as number };
}

/** Paid 2 × 3000 in cash, then the party became 1: 3000 paid beyond the price, not yet decided. */
async function overpaid() {
  const b = await booking(3000, 2);
  expect((await pay(b.id, { method: 'cash' })).statusCode).toBe(201);
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/records/${b.id}`,
    headers: tma(b.user),
    payload: { people_count: 1 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return b;
}

/** Paid 1000 of a 4000 deposit by card, then cancelled by the hold with the money still on it. */
async function cancelledByHold() {
  expect((await settings({ prepayment: 'full', payment_hold_minutes: 30 })).statusCode).toBe(200);
  const b = await booking(4000);
  expect((await pay(b.id, { method: 'card', amount: 1000 })).statusCode).toBe(201);
  await t.database.db
    .updateTable('records')
    .set({ pay_by: new Date(Date.now() - 60_000).toISOString() })
    .where('id', '=', b.id)
    .execute();
  expect(await cancelExpiredHolds(t.database)).toBeGreaterThanOrEqual(1);
  expect((await ledger(b.id)).money).toMatchObject({ amount_paid: 1000, status: 'refund_owed' });
  return b;
}

describe('the sweeper', () => {
  it('finds money the booking does not account for, each once: one alert and one line, not repeated each tick', async () => {
    const over = await overpaid();
    const hold = await cancelledByHold();
    // Paid while queued (as before queued bookings refused payment): a ledger row on a queued booking.
    const { schedule } = await createSession(t.app, staff, { price: 2000, capacity: 1 });
    await book(t.app, telegramUser(), bookingPayload(schedule.id));
    const queued = await book(t.app, telegramUser(), bookingPayload(schedule.id));
    expect(queued.json().record.state).toBe('QUEUED');
    const queuedId = queued.json().record.id as number;
    await t.database.db
      .insertInto('payments')
      .values({
        record_id: queuedId,
        telegram_id: null,
        amount: 2000,
        method: 'telegram',
        kind: 'payment',
        recorded_by_kind: 'customer',
        recorded_by_user_id: null,
        telegram_payment_charge_id: `queued-${queuedId}`,
        provider_payment_charge_id: null,
        note: null,
        at: new Date().toISOString(),
      })
      .execute();
    // A hold past pay_by that the hold job did not settle.
    const late = await booking(1500);
    await t.database.db
      .updateTable('records')
      .set({ pay_by: new Date(Date.now() - 3600_000).toISOString() })
      .where('id', '=', late.id)
      .execute();

    const before = (await alerts()).length;
    expect(await sweepUnreconciled(t.database)).toBe(4);
    expect(await sweepUnreconciled(t.database)).toBe(0);
    const lines = await card();
    expect(lines.map((l) => [l.kind, l.record_id, l.amount])).toEqual([
      ['overpaid', over.id, 3000],
      ['cancelled_paid', hold.id, 1000],
      ['queued_paid', queuedId, 2000],
      ['hold_overdue', late.id, 0],
    ]);
    expect(lines[0].name).toBe('Анна Петрова');
    const told = (await alerts()).slice(before);
    expect(told.map((a) => [a.problem, a.record_id, a.amount])).toEqual([
      ['overpaid', over.id, 3000],
      ['cancelled_paid', hold.id, 1000],
      ['queued_paid', queuedId, 2000],
      ['hold_overdue', late.id, 0],
    ]);
    // The hold job settles the late hold: its line leaves the card at the next sweep.
    await cancelExpiredHolds(t.database);
    await sweepUnreconciled(t.database);
    expect((await card()).map((l) => l.kind)).toEqual(['overpaid', 'cancelled_paid', 'queued_paid']);
  });

  it('runs as a scheduler job', async () => {
    await overpaid();
    const log = { info() {}, warn() {}, error() {}, debug() {} };
    const done = await createScheduler({ jobs: jobs(t.database), log }).runOnce(new Date());
    expect(done['unreconciled-money']).toBe(1);
  });
});

describe('a staff decision', () => {
  it('«На баланс клиента» moves the money to the customer’s credit, audited; the line does not come back', async () => {
    const b = await cancelledByHold();
    await sweepUnreconciled(t.database);
    const [line] = await card();
    const res = await decide(line.id, { decision: 'credit' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([]);
    expect(await credit(b.user)).toBe(1000);
    const l = await ledger(b.id);
    expect(l.money).toMatchObject({ amount_paid: 0, status: 'credited' });
    expect(l.payments.at(-1)).toMatchObject({
      amount: -1000,
      method: 'credit',
      kind: 'refund',
      recorded_by_kind: 'staff',
    });
    const journal = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audit/?entity=unreconciled&entity_id=${line.id}`,
      headers: staff,
    });
    expect(journal.json().data).toMatchObject([
      { entity: 'unreconciled', action: 'updated', after: { decision: 'credit', moved: 1000 } },
    ]);
    expect(await sweepUnreconciled(t.database)).toBe(0);
    expect(await card()).toEqual([]);
  });

  it('«Вернуть» records the refund the way the money came; «Оставить» needs a reason and writes nothing', async () => {
    const a = await overpaid();
    const b = await overpaid();
    await sweepUnreconciled(t.database);
    const [first, second] = await card();
    expect((await decide(first.id, { decision: 'refund' })).statusCode).toBe(200);
    const la = await ledger(a.id);
    expect(la.money).toMatchObject({ amount_paid: 3000, balance: 0 });
    expect(la.payments.at(-1)).toMatchObject({ amount: -3000, method: 'cash', kind: 'refund' });
    expect((await decide(second.id, { decision: 'keep' })).statusCode).toBe(422);
    const keep = await decide(second.id, { decision: 'keep', reason: 'Клиент оставил чаевые' });
    expect(keep.statusCode, keep.body).toBe(200);
    expect((await ledger(b.id)).payments).toHaveLength(1);
    // Kept: the same money is not found again.
    const before = (await alerts()).length;
    expect(await sweepUnreconciled(t.database)).toBe(0);
    expect((await alerts()).length).toBe(before);
    expect(await card()).toEqual([]);
  });

  it('two staff deciding the same line at once apply it once; the other is told it is decided (several rounds)', async () => {
    for (let round = 0; round < 4; round++) {
      const b = await cancelledByHold();
      await sweepUnreconciled(t.database);
      const line = (await card()).find((l) => l.record_id === b.id)!;
      const answers = await Promise.all([
        decide(line.id, { decision: 'credit' }),
        decide(line.id, { decision: 'refund' }, manager),
        decide(line.id, { decision: 'credit' }, manager),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
      expect(answers.find((r) => r.statusCode === 409)!.json().detail).toBe(
        'По этим деньгам уже решено: обновите страницу',
      );
      const l = await ledger(b.id);
      expect(l.payments.filter((p: { kind: string }) => p.kind === 'refund')).toHaveLength(1);
      expect(l.money.amount_paid).toBe(0);
    }
  });

  it('a line that does not exist is 404', async () => {
    expect((await decide(999_999, { decision: 'credit' })).statusCode).toBe(404);
  });
});
