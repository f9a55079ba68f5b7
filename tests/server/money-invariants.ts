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
import { checkMoneyInvariants } from '../../core/payments/invariants';

/*
 * Random sequences of money operations through the real API and the bot's webhook, some of them at
 * once, on one app per database; after each step the money invariants must hold. A sequence has its
 * own session, customers, certificate and promo code; between sequences the ledgers are emptied, so
 * each check reads one sequence's money. MONEY_RUNS and MONEY_SEED run more, or replay a failure.
 * The 500 sequences a database gets are two halves of their own seeds in two files, so the two run
 * side by side on their own databases.
 */

/** Registers the property over `runs` sequences from `seed` (the file's share of the 500). */
export function moneyInvariants(seed: number, runs: number): void {
  const RUNS = Number(process.env.MONEY_RUNS ?? runs);
  const SEED = Number(process.env.MONEY_SEED ?? seed);

  let fake: FakeTelegram;
  let t: TestApp;
  let staff: { authorization: string };
  let addressId: number;
  /** A workshop per price, and the promo codes: made once, used by every sequence. */
  const workshops = new Map<number, number>();
  const promos = new Map<string, string>();

  beforeAll(async () => {
    fake = await startFakeTelegram();
    t = await botTestApp(fake, { env: { PAYMENT_PROVIDER_TOKEN: '284685063:TEST:invariants' } });
    staff = await t.auth();
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: staff, payload });
    addressId = (
      await post('/api/v1/address/', { title: 'Кнеза Милоша 1', map_link: 'https://maps.example/1', description: '' })
    ).json().id;
    for (const price of PRICES)
      workshops.set(
        price,
        (await post('/api/v1/workshops/', { title: 'Паста', description: 'Паста', price })).json().id,
      );
    for (const d of DISCOUNTS) {
      const res = await post('/api/v1/promo-codes/', {
        code: `INV${d.kind.toUpperCase()}`,
        ...d,
        once_per_customer: false,
      });
      expect(res.statusCode, res.body).toBe(201);
      promos.set(d.kind, res.json().code);
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  }, 120_000);

  const PRICES = [1000, 2500, 3000];
  const DISCOUNTS = [
    { kind: 'percent', value: 10 },
    { kind: 'fixed', value: 700 },
  ] as const;

  type User = ReturnType<typeof telegramUser>;
  type Op =
    | { t: 'book'; user: number; people: number; promo: boolean; certificate: boolean }
    | { t: 'payDesk'; rec: number; half: boolean }
    | { t: 'payTelegram'; rec: number; twice: boolean }
    | { t: 'party'; rec: number; people: number }
    | { t: 'cancel'; rec: number }
    | { t: 'restore'; rec: number }
    | { t: 'refund'; rec: number; method: 'cash' | 'credit' }
    | { t: 'credit'; user: number; amount: number }
    | { t: 'redeem'; rec: number }
    | { t: 'together'; ops: Op[] };

  const rec = fc.nat(3);
  const book = fc.record({
    t: fc.constant('book' as const),
    user: fc.nat(2),
    people: fc.integer({ min: 1, max: 3 }),
    promo: fc.boolean(),
    certificate: fc.boolean(),
  });
  const single: fc.Arbitrary<Op> = fc.oneof(
    { arbitrary: book, weight: 3 },
    { arbitrary: fc.record({ t: fc.constant('payDesk' as const), rec, half: fc.boolean() }), weight: 3 },
    { arbitrary: fc.record({ t: fc.constant('payTelegram' as const), rec, twice: fc.boolean() }), weight: 3 },
    {
      arbitrary: fc.record({ t: fc.constant('party' as const), rec, people: fc.integer({ min: 1, max: 3 }) }),
      weight: 2,
    },
    { arbitrary: fc.record({ t: fc.constant('cancel' as const), rec }), weight: 2 },
    { arbitrary: fc.record({ t: fc.constant('restore' as const), rec }), weight: 1 },
    {
      arbitrary: fc.record({
        t: fc.constant('refund' as const),
        rec,
        method: fc.constantFrom('cash' as const, 'credit' as const),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('credit' as const),
        user: fc.nat(2),
        amount: fc.constantFrom(-1500, -500, 700, 2500),
      }),
      weight: 1,
    },
    { arbitrary: fc.record({ t: fc.constant('redeem' as const), rec }), weight: 1 },
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
    prepayment: fc.constantFrom('none', 'deposit', 'full'),
    refund_to: fc.constantFrom('credit', 'refund'),
    price: fc.constantFrom(...PRICES),
    capacity: fc.integer({ min: 2, max: 4 }),
    certificate: fc.constantFrom(1500, 4000),
    discount: fc.constantFrom(...DISCOUNTS.map((d) => d.kind)),
    // Each sequence starts with a booking, so the operations after it have one to act on.
    first: book,
    ops: fc.array(op, { minLength: 1, maxLength: 5 }),
  });
  type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

  /** One sequence's world: its session, customers, bookings, certificate code and promo code. */
  interface World {
    schedule: number;
    users: User[];
    bookings: { id: number; user: User }[];
    certificate: () => Promise<string>;
    promo: string;
  }

  let charges = 0;
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers: object, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: headers as Record<string, string>, payload });

  /** Whatever it answers, the server keeps its footing: a refusal is 4xx, never a 500. */
  function answered<R extends { statusCode: number; body: string }>(what: string, res: R): R {
    if (res.statusCode >= 500) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
    outcomes[`${what} ${res.statusCode}`] = (outcomes[`${what} ${res.statusCode}`] ?? 0) + 1;
    return res;
  }
  /** How often each operation was answered with each status (printed: the sequences must do something). */
  const outcomes: Record<string, number> = {};

  async function start(s: Scenario): Promise<World> {
    // Reset cheaply: the ledgers of the sequences before are emptied (their bookings stay, never acted on again).
    await t.database.db.deleteFrom('certificate_entries').execute();
    await t.database.db.deleteFrom('certificates').execute();
    await t.database.db.deleteFrom('payments').execute();
    // The customers' rate limits (bookings, certificate codes) hold for real people, not for 500 sequences from one address.
    await t.database.db.deleteFrom('rate_limits').execute();
    const settings = await inject('PUT', '/business-settings/', staff, {
      prepayment: s.prepayment,
      deposit_percent: 50,
      refund_to: s.refund_to,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const schedule = await inject('POST', '/schedule/', staff, {
      date: inDays(3),
      capacity: s.capacity,
      workshop_id: workshops.get(s.price),
      address_id: addressId,
    });
    expect(schedule.statusCode, schedule.body).toBe(201);
    let certificate: Promise<string> | undefined;
    return {
      schedule: schedule.json().id,
      users: [telegramUser(), telegramUser(), telegramUser()],
      bookings: [],
      // Sold when an operation first needs it.
      certificate: () =>
        (certificate ??= inject('POST', '/certificates/', staff, { amount: s.certificate, method: 'cash' }).then(
          (res) => answered('certificate', res).json().code as string,
        )),
      promo: promos.get(s.discount)!,
    };
  }

  async function run(w: World, o: Op): Promise<void> {
    if (o.t === 'together') {
      await Promise.all(o.ops.map((x) => run(w, x)));
      return;
    }
    if (o.t === 'book') {
      const user = w.users[o.user];
      const res = answered(
        'book',
        await inject(
          'POST',
          '/records/',
          tma(user),
          bookingPayload(w.schedule, {
            people_count: o.people,
            ...(o.promo && { promo_code: w.promo }),
            ...(o.certificate && { certificate_code: await w.certificate() }),
          }),
        ),
      );
      if (res.statusCode === 201) w.bookings.push({ id: res.json().record.id, user });
      return;
    }
    if (o.t === 'credit') {
      answered(
        'credit',
        await inject('POST', `/customers/${w.users[o.user].id}/credit`, staff, {
          amount: o.amount,
          reason: 'Проверка',
        }),
      );
      return;
    }
    const b = w.bookings[o.rec % Math.max(1, w.bookings.length)];
    if (!b) return;
    switch (o.t) {
      case 'payDesk': {
        const m = (await inject('GET', `/records/${b.id}/payments`, staff)).json().money;
        const amount = o.half ? Math.floor(m.balance / 2) : undefined;
        if (amount !== undefined && amount <= 0) return;
        answered('payDesk', await inject('POST', `/records/${b.id}/payments`, staff, { method: 'cash', amount }));
        return;
      }
      case 'payTelegram': {
        const m = (await inject('GET', `/records/${b.id}/payments`, staff)).json().money;
        if (!(m.pay_now > 0)) return;
        const update = successfulPaymentUpdate(
          tgUser(b.user.id),
          `record:${b.id}`,
          m.pay_now * 100,
          `inv-${charges++}`,
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
        answered('cancel', await inject('PUT', `/records/cancel/${b.id}`, tma(b.user), { cancel_reason: 'Не смогу' }));
        return;
      case 'restore':
        answered('restore', await inject('PUT', `/records/restore/${b.id}`, tma(b.user)));
        return;
      case 'refund': {
        // A booking that owes money back, if there is one (a refund of nothing is only refused).
        const owed = [];
        for (const x of w.bookings)
          if ((await inject('GET', `/records/${x.id}/payments`, staff)).json().money.balance < 0) owed.push(x);
        const target = owed.length > 0 ? owed[o.rec % owed.length] : b;
        answered('refund', await inject('POST', `/records/${target.id}/refunds`, staff, { method: o.method }));
        return;
      }
      case 'redeem':
        answered(
          'redeem',
          await inject('POST', `/records/${b.id}/certificate`, staff, { code: await w.certificate() }),
        );
        return;
    }
  }

  let checking = 0;
  async function holds(step: string) {
    const t0 = Date.now();
    const breaks = await checkMoneyInvariants(t.database.db);
    checking += Date.now() - t0;
    expect(breaks, `after ${step}`).toEqual([]);
  }

  describe(`money invariants (fast-check, seed ${SEED})`, () => {
    it(`hold after every step of ${RUNS} random sequences of money operations, some at once`, async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(scenario, async (s) => {
          const w = await start(s);
          await holds('the start');
          for (const [i, o] of [s.first, ...s.ops].entries()) {
            await run(w, o);
            await holds(`step ${i + 1}: ${JSON.stringify(o)}`);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      console.log(
        `money invariants: ${RUNS} sequences on ${t.database.dialect} in ${Date.now() - started} ms (checks ${checking} ms)`,
        outcomes,
      );
    }, 600_000);
  });
}
