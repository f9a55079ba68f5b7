import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { bookingPayload, inDays, telegramUser } from '../helpers/factories';
import {
  deliverUpdate,
  startFakeTelegram,
  successfulPaymentUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { botTestApp } from '../bot/setup';
import { partsOf } from '../../core/fiscal/receipts';
import { writeFiscalSettings } from '../../core/fiscal/settings';
import { deliverStartedSessions } from '../../core/jobs/fiscal-delivery';

/*
 * Random sequences of money operations through the real API and the bot's webhook (some at once), with
 * fiscalization on (lpfr), on one app per database; after every step the receipts must follow the
 * ledger: every real-money row has exactly one receipt (its own, or the delivery sale that covers it),
 * none is fiscalized twice, no advance is spent beyond what came in, and per payment type the receipts'
 * signed totals equal the ledger's real money. FISCAL_RUNS and FISCAL_SEED run more, or replay a failure.
 */

const RUNS = Number(process.env.FISCAL_RUNS ?? 120);
const SEED = Number(process.env.FISCAL_SEED ?? 31_31);
const REAL = ['cash', 'card', 'bank_transfer', 'telegram'];
const TYPE: Record<string, string> = { cash: 'Cash', card: 'Card', bank_transfer: 'WireTransfer', telegram: 'Card' };

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
let addressId: number;
let workshopId: number;

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake, { env: { PAYMENT_PROVIDER_TOKEN: '284685063:TEST:fiscal' } });
  staff = await t.auth();
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: staff, payload });
  addressId = (
    await post('/api/v1/address/', { title: 'Кнеза Милоша 1', map_link: 'https://maps.example/1', description: '' })
  ).json().id;
  workshopId = (await post('/api/v1/workshops/', { title: 'Паста', description: 'Паста', price: 2500 })).json().id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
}, 120_000);

type Op =
  | { t: 'book'; user: number; people: number; certificate: boolean }
  | { t: 'payDesk'; rec: number; method: 'cash' | 'card' | 'bank_transfer'; half: boolean }
  | { t: 'payTelegram'; rec: number; twice: boolean }
  | { t: 'party'; rec: number; people: number }
  | { t: 'cancel'; rec: number }
  | { t: 'restore'; rec: number }
  | { t: 'refund'; rec: number; method: 'cash' | 'card' | 'credit' }
  | { t: 'credit'; user: number; amount: number }
  | { t: 'redeem'; rec: number }
  | { t: 'checkin'; rec: number }
  | { t: 'started' }
  | { t: 'together'; ops: Op[] };

const rec = fc.nat(3);
const book = fc.record({
  t: fc.constant('book' as const),
  user: fc.nat(2),
  people: fc.integer({ min: 1, max: 3 }),
  certificate: fc.boolean(),
});
const single: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: book, weight: 3 },
  {
    arbitrary: fc.record({
      t: fc.constant('payDesk' as const),
      rec,
      method: fc.constantFrom('cash' as const, 'card' as const, 'bank_transfer' as const),
      half: fc.boolean(),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ t: fc.constant('payTelegram' as const), rec, twice: fc.boolean() }), weight: 3 },
  {
    arbitrary: fc.record({ t: fc.constant('party' as const), rec, people: fc.integer({ min: 1, max: 3 }) }),
    weight: 1,
  },
  { arbitrary: fc.record({ t: fc.constant('cancel' as const), rec }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('restore' as const), rec }), weight: 1 },
  {
    arbitrary: fc.record({
      t: fc.constant('refund' as const),
      rec,
      method: fc.constantFrom('cash' as const, 'card' as const, 'credit' as const),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ t: fc.constant('credit' as const), user: fc.nat(2), amount: fc.constantFrom(-1000, 700) }),
    weight: 1,
  },
  { arbitrary: fc.record({ t: fc.constant('redeem' as const), rec }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('checkin' as const), rec }), weight: 2 },
  { arbitrary: fc.constant({ t: 'started' as const }), weight: 1 },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: single, weight: 5 },
  {
    arbitrary: fc.record({
      t: fc.constant('together' as const),
      ops: fc.array(single, { minLength: 2, maxLength: 3 }),
    }),
    weight: 1,
  },
);
const scenario = fc.record({
  // Today's session (its door money and check-in are the delivery) or one in three days (advances only).
  today: fc.boolean(),
  prepayment: fc.constantFrom('none', 'deposit', 'full'),
  refund_to: fc.constantFrom('credit', 'refund'),
  certificates: fc.constantFrom('redemption' as const, 'sale' as const),
  first: book,
  ops: fc.array(op, { minLength: 1, maxLength: 6 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

type User = ReturnType<typeof telegramUser>;
interface World {
  schedule: number;
  date: string;
  users: User[];
  bookings: { id: number; user: User }[];
  certificate: () => Promise<string>;
}

let charges = 0;
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers: object, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: headers as Record<string, string>, payload });

/** A refusal is 4xx, never a 500. */
function answered<R extends { statusCode: number; body: string }>(what: string, res: R): R {
  if (res.statusCode >= 500) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  outcomes[`${what} ${res.statusCode}`] = (outcomes[`${what} ${res.statusCode}`] ?? 0) + 1;
  return res;
}
const outcomes: Record<string, number> = {};
/** The receipts the sequences wrote, by case and state (printed: every case must occur). */
const kinds: Record<string, number> = {};

async function start(s: Scenario): Promise<World> {
  const db = t.database.db;
  // Each sequence checks its own money: the ledgers and receipts before it are emptied.
  await db.deleteFrom('fiscal_advances').execute();
  await db.deleteFrom('fiscal_receipts').execute();
  await db.deleteFrom('certificate_entries').execute();
  await db.deleteFrom('certificates').execute();
  await db.deleteFrom('payments').execute();
  await db.deleteFrom('rate_limits').execute();
  await writeFiscalSettings(db, {
    fiscal_mode: 'lpfr',
    fiscal_label_workshop: 'Ђ',
    fiscal_certificate_receipts: s.certificates,
  });
  expect(
    (
      await inject('PUT', '/business-settings/', staff, {
        prepayment: s.prepayment,
        deposit_percent: 50,
        refund_to: s.refund_to,
      })
    ).statusCode,
  ).toBe(200);
  const date = s.today ? new Date(Date.now() + 30 * 60_000).toISOString() : inDays(3);
  const schedule = await inject('POST', '/schedule/', staff, {
    date,
    capacity: 4,
    workshop_id: workshopId,
    address_id: addressId,
  });
  expect(schedule.statusCode, schedule.body).toBe(201);
  let certificate: Promise<string> | undefined;
  return {
    schedule: schedule.json().id,
    date,
    users: [telegramUser(), telegramUser(), telegramUser()],
    bookings: [],
    certificate: () =>
      (certificate ??= inject('POST', '/certificates/', staff, { amount: 3000, method: 'card' }).then(
        (res) => answered('certificate', res).json().code as string,
      )),
  };
}

async function run(w: World, o: Op): Promise<void> {
  if (o.t === 'together') {
    await Promise.all(o.ops.map((x) => run(w, x)));
    return;
  }
  if (o.t === 'book') {
    const res = answered(
      'book',
      await inject(
        'POST',
        '/records/',
        tma(w.users[o.user]),
        bookingPayload(w.schedule, {
          people_count: o.people,
          ...(o.certificate && { certificate_code: await w.certificate() }),
        }),
      ),
    );
    if (res.statusCode === 201) w.bookings.push({ id: res.json().record.id, user: w.users[o.user] });
    return;
  }
  if (o.t === 'credit') {
    answered(
      'credit',
      await inject('POST', `/customers/${w.users[o.user].id}/credit`, staff, { amount: o.amount, reason: 'Проверка' }),
    );
    return;
  }
  if (o.t === 'started') {
    // The scheduler's tick just after the session began.
    answered('started', { statusCode: 200, body: '' });
    await deliverStartedSessions(t.database, new Date(Date.parse(w.date) + 60_000));
    return;
  }
  const b = w.bookings[o.rec % Math.max(1, w.bookings.length)];
  if (!b) return;
  switch (o.t) {
    case 'payDesk': {
      const m = (await inject('GET', `/records/${b.id}/payments`, staff)).json().money;
      const amount = o.half ? Math.floor(m.balance / 2) : undefined;
      if (amount !== undefined && amount <= 0) return;
      answered('payDesk', await inject('POST', `/records/${b.id}/payments`, staff, { method: o.method, amount }));
      return;
    }
    case 'payTelegram': {
      const m = (await inject('GET', `/records/${b.id}/payments`, staff)).json().money;
      if (!(m.pay_now > 0)) return;
      const update = successfulPaymentUpdate(
        tgUser(b.user.id),
        `record:${b.id}`,
        m.pay_now * 100,
        `fiscal-${charges++}`,
      );
      const copies = o.twice ? [update, update] : [update];
      const codes = await Promise.all(copies.map((u) => deliverUpdate(t.app, t.config.webhookSecret!, u)));
      expect(codes).toEqual(copies.map(() => 200));
      answered('payTelegram', { statusCode: 200, body: '' });
      return;
    }
    case 'party':
      answered('party', await inject('PUT', `/records/${b.id}`, tma(b.user), { people_count: o.people }));
      return;
    case 'cancel':
      answered('cancel', await inject('PUT', `/records/cancel/${b.id}`, staff, { cancel_reason: 'Не смогу' }));
      return;
    case 'restore':
      answered('restore', await inject('PUT', `/records/restore/${b.id}`, staff));
      return;
    case 'refund': {
      // What is owed back, if a booking owes any; else a goodwill refund of some of what one paid in money.
      const owed = [];
      for (const x of w.bookings)
        if ((await inject('GET', `/records/${x.id}/payments`, staff)).json().money.balance < 0) owed.push(x);
      const body =
        owed.length > 0 ? { method: o.method } : { method: o.method, amount: 500, over_owed: true, note: 'Проверка' };
      const target = owed.length > 0 ? owed[o.rec % owed.length] : b;
      answered('refund', await inject('POST', `/records/${target.id}/refunds`, staff, body));
      return;
    }
    case 'redeem':
      answered('redeem', await inject('POST', `/records/${b.id}/certificate`, staff, { code: await w.certificate() }));
      return;
    case 'checkin':
      answered('checkin', await inject('PUT', `/records/${b.id}/attendance`, staff, { attendance: 'ATTENDED' }));
      return;
  }
}

let checking = 0;

/** What must hold between the ledger and the receipts. */
async function breaks(certificates: Scenario['certificates']): Promise<string[]> {
  const db = t.database.db;
  const out: string[] = [];
  const ledger = await db.selectFrom('payments').selectAll().orderBy('id').execute();
  const receipts = await db.selectFrom('fiscal_receipts').selectAll().orderBy('id').execute();
  const certificateSales = new Set(
    (await db.selectFrom('certificate_entries').select('payment_id').where('kind', '=', 'sale').execute()).map(
      (e) => e.payment_id,
    ),
  );
  // Under `redemption` a certificate's sale is no receipt's: its redemption is (as Voucher).
  const uncounted = (p: (typeof ledger)[number]) => certificates === 'redemption' && certificateSales.has(p.id);
  const byKey = new Map(receipts.map((r) => [r.receipt_key, r]));
  const sales = receipts.filter((r) => r.kind === 'sale');
  const expected: Record<string, number> = {};
  for (const p of ledger.filter((x) => REAL.includes(x.method))) {
    const own = byKey.has(`payment:${p.id}`) ? 1 : 0;
    const covering = sales.filter(
      (s) => s.payment_id === p.id || (s.covers !== null && (JSON.parse(s.covers) as number[]).includes(p.id)),
    ).length;
    const want = uncounted(p) ? 0 : 1;
    if (own + covering !== want)
      out.push(`ledger row ${p.id} (${p.method} ${p.amount}) has ${own + covering} receipts, not ${want}`);
    if (!uncounted(p)) expected[TYPE[p.method]] = (expected[TYPE[p.method]] ?? 0) + p.amount;
  }
  // Nothing twice: a ledger row is some receipt's own at most once, a booking delivered at most once.
  const owners = receipts.filter((r) => r.payment_id !== null).map((r) => r.payment_id);
  if (new Set(owners).size !== owners.length) out.push('a ledger row is the own row of two receipts');
  const got: Record<string, number> = {};
  for (const r of receipts) {
    const sign = r.transaction_type === 'Refund' ? -1 : 1;
    const parts = partsOf(r);
    if (parts.reduce((s, p) => s + p.amount, 0) !== r.amount) out.push(`receipt ${r.id}: parts do not make its amount`);
    for (const p of parts) got[p.paymentType] = (got[p.paymentType] ?? 0) + sign * p.amount;
  }
  for (const type of ['Cash', 'Card', 'WireTransfer'])
    if ((got[type] ?? 0) !== (expected[type] ?? 0))
      out.push(`${type}: receipts ${got[type] ?? 0}, ledger ${expected[type] ?? 0}`);
  for (const type of Object.keys(got))
    if (!['Cash', 'Card', 'WireTransfer', 'Voucher'].includes(type)) out.push(`unexpected payment type ${type}`);
  if ((got.Voucher ?? 0) < 0) out.push('more Voucher refunded than sold');
  // No advance is spent beyond what it took in, and no holder holds less than nothing of one.
  const parts = await db.selectFrom('fiscal_advances').selectAll().execute();
  const advances = new Map(receipts.filter((r) => r.kind === 'advance').map((r) => [r.id, r.amount]));
  const left = new Map<number, number>();
  const held = new Map<string, number>();
  for (const p of parts) {
    left.set(p.advance_id, (left.get(p.advance_id) ?? 0) + p.amount);
    const k = `${p.holder}:${p.holder_id}:${p.advance_id}`;
    held.set(k, (held.get(k) ?? 0) + p.amount);
  }
  for (const [id, amount] of left)
    if (amount < 0 || amount > (advances.get(id) ?? 0))
      out.push(`advance ${id}: ${amount} left of ${advances.get(id)}`);
  for (const [k, amount] of held) if (amount < 0) out.push(`${k} holds ${amount}`);
  return out;
}

async function holds(step: string, s: Scenario) {
  const t0 = Date.now();
  const found = await breaks(s.certificates);
  checking += Date.now() - t0;
  expect(found, `after ${step}`).toEqual([]);
}

describe(`fiscal receipts follow the money (fast-check, seed ${SEED})`, () => {
  it(`after every step of ${RUNS} random sequences, some at once`, async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const w = await start(s);
        for (const [i, o] of [s.first, ...s.ops].entries()) {
          await run(w, o);
          await holds(`step ${i + 1}: ${JSON.stringify(o)}`, s);
        }
        for (const r of await t.database.db.selectFrom('fiscal_receipts').select(['kind', 'state']).execute())
          kinds[`${r.kind} ${r.state}`] = (kinds[`${r.kind} ${r.state}`] ?? 0) + 1;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(
      `fiscal invariants: ${RUNS} sequences on ${t.database.dialect} in ${Date.now() - started} ms (checks ${checking} ms)`,
      outcomes,
      kinds,
    );
  }, 600_000);
});
