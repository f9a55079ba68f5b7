import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PromoCodeCreate, Stats } from '../../contract';
import { toZonedInput } from '../../contract/format';
import { startTestServer } from '../helpers/server';
import { book, bookingPayload, createSession, inDays, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

// A listening server: the use limit is tested with real parallel HTTP requests (SQLite file, or PostgreSQL
// with TEST_DATABASE_URL).
let s: Awaited<ReturnType<typeof startTestServer>>;
let owner: { authorization: string };
let manager: { authorization: string };
beforeAll(async () => {
  s = await startTestServer();
  owner = await s.auth();
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/v1/users/',
    headers: owner,
    payload: { email: 'manager@example.com', password: 'manager-password-1', role: 'manager', is_active: true },
  });
  expect(res.statusCode, res.body).toBe(201);
  manager = await s.auth('manager@example.com', 'manager-password-1');
});
afterAll(() => s.close());

type User = ReturnType<typeof telegramUser>;
let seq = 0;
const uniqueCode = (prefix: string) => `${prefix}${seq++}`;

const createCode = (payload: Partial<PromoCodeCreate>, headers = owner) =>
  s.app.inject({
    method: 'POST',
    url: '/api/v1/promo-codes/',
    headers,
    payload: { code: uniqueCode('SALE'), kind: 'percent', value: 10, ...payload },
  });
async function code(payload: Partial<PromoCodeCreate>) {
  const res = await createCode(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; code: string; uses: number };
}
const quote = (user: User, payload: Record<string, unknown>) =>
  s.app.inject({ method: 'POST', url: '/api/v1/records/quote', headers: tma(user), payload });
const cancel = (id: number, user: User) =>
  s.app.inject({
    method: 'PUT',
    url: `/api/v1/records/cancel/${id}`,
    headers: tma(user),
    payload: { cancel_reason: 'Заболела' },
  });
const restore = (id: number, user: User) =>
  s.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${id}`, headers: tma(user) });
const studioDay = (offsetDays: number) =>
  toZonedInput(Date.now() + offsetDays * 86_400_000, s.config.businessTimezone).slice(0, 10);
const listed = async (id: number) =>
  (await s.app.inject({ method: 'GET', url: '/api/v1/promo-codes/', headers: owner }))
    .json()
    .data.find((c: { id: number }) => c.id === id);

describe('managing promo codes', () => {
  it('creates a code in any case once, validates it, and lets only the owner manage codes', async () => {
    const { workshop } = await createSession(s.app, owner);
    const res = await createCode({
      code: ' vesna-2026 ',
      kind: 'fixed',
      value: 500,
      valid_from: studioDay(0),
      valid_to: studioDay(30),
      workshop_ids: [workshop.id],
      max_uses: 10,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'VESNA-2026',
      kind: 'fixed',
      value: 500,
      valid_from: studioDay(0),
      valid_to: studioDay(30),
      workshop_ids: [workshop.id],
      max_uses: 10,
      once_per_customer: true,
      first_time_only: false,
      is_active: true,
      uses: 0,
    });
    const dup = await createCode({ code: 'Vesna-2026' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe('Промокод с таким кодом уже есть');

    const bad: [Partial<PromoCodeCreate>, number, RegExp][] = [
      [{ kind: 'percent', value: 150 }, 422, /от 1 до 100/],
      [{ value: 0 }, 422, /больше нуля/],
      [{ code: 'a b' }, 422, /Промокод: от 3 до 32/],
      [{ valid_from: studioDay(5), valid_to: studioDay(1) }, 422, /раньше даты начала/],
      [{ workshop_ids: [999_999] }, 400, /Такого мастер-класса нет/],
    ];
    const before = (await s.app.inject({ method: 'GET', url: '/api/v1/promo-codes/', headers: owner })).json().count;
    for (const [payload, status, detail] of bad) {
      const r = await createCode(payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(status);
      expect(r.json().detail).toMatch(detail);
    }
    expect((await s.app.inject({ method: 'GET', url: '/api/v1/promo-codes/', headers: owner })).json().count).toBe(
      before,
    );

    // Prices are a business setting: a manager may neither see nor change codes.
    expect((await createCode({}, manager)).statusCode).toBe(403);
    expect((await s.app.inject({ method: 'GET', url: '/api/v1/promo-codes/', headers: manager })).statusCode).toBe(403);
    const id = res.json().id;
    const patch = (headers: typeof owner, payload: Record<string, unknown>) =>
      s.app.inject({ method: 'PATCH', url: `/api/v1/promo-codes/${id}`, headers, payload });
    expect((await patch(manager, { is_active: false })).statusCode).toBe(403);
    expect((await patch(owner, { kind: 'percent' })).json().detail).toMatch(/от 1 до 100/);
    const off = await patch(owner, { is_active: false, max_uses: null });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ is_active: false, max_uses: null, value: 500 });
    // The log keeps who created and who switched off the code, with the changed fields.
    const log = (
      await s.app.inject({ method: 'GET', url: `/api/v1/audit/?entity=promo_code&entity_id=${id}`, headers: owner })
    ).json();
    expect(log.data.map((e: { action: string }) => e.action).sort()).toEqual(['created', 'updated']);
    expect(
      (await s.app.inject({ method: 'PATCH', url: '/api/v1/promo-codes/999999', headers: owner, payload: {} }))
        .statusCode,
    ).toBe(404);
  });
});

describe('the price quote and bookings with a code', () => {
  it('quotes the price with a percent code and refuses codes it cannot take, in Russian', async () => {
    const { schedule } = await createSession(s.app, owner, { price: 3000 });
    const anna = telegramUser();
    const plain = await quote(anna, { schedule_id: schedule.id, people_count: 2 });
    expect(plain.json()).toEqual({ price: 6000, discount: 0, total: 6000, promo_code: null });
    const c = await code({ kind: 'percent', value: 15 });
    const q = await quote(anna, { schedule_id: schedule.id, people_count: 2, promo_code: c.code.toLowerCase() });
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json()).toEqual({ price: 6000, discount: 900, total: 5100, promo_code: c.code });
    const unknown = await quote(anna, { schedule_id: schedule.id, people_count: 2, promo_code: 'NOSUCHCODE' });
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().detail).toBe('Промокод не найден');
    expect((await quote(anna, { schedule_id: 999_999, promo_code: c.code })).statusCode).toBe(404);
  });

  it('makes the discount a part of the price (percent and fixed), in the view, the ledger and the bookings CSV', async () => {
    const { schedule } = await createSession(s.app, owner, { price: 3000, date: inDays(2) });
    const percent = await code({ kind: 'percent', value: 10 });
    const fixed = await code({ kind: 'fixed', value: 1000 });
    const anna = telegramUser();
    const boris = telegramUser();
    const a = await book(s.app, anna, bookingPayload(schedule.id, { people_count: 2, promo_code: percent.code }));
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json().record).toMatchObject({ promo_code: percent.code, discount: 600 });
    expect(a.json().money).toMatchObject({
      price: 5400,
      unit_price: 3000,
      discount: 600,
      amount_due: 5400,
      amount_paid: 0,
    });
    const b = await book(s.app, boris, bookingPayload(schedule.id, { name: 'Борис', promo_code: fixed.code }));
    expect(b.json().money).toMatchObject({ price: 2000, discount: 1000 });

    // The discount is no payment: the ledger holds nothing, and a payment of the balance is the discounted price.
    const aId = a.json().record.id;
    const ledger = (
      await s.app.inject({ method: 'GET', url: `/api/v1/records/${aId}/payments`, headers: owner })
    ).json();
    expect(ledger.payments).toEqual([]);
    expect(ledger.money).toMatchObject({ price: 5400, discount: 600, balance: 5400 });
    expect(ledger.promo_code).toBe(percent.code);
    const paid = await s.app.inject({
      method: 'POST',
      url: `/api/v1/records/${aId}/payments`,
      headers: owner,
      payload: { method: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().payments.map((p: { amount: number }) => p.amount)).toEqual([5400]);
    expect(paid.json()).toMatchObject({ promo_code: percent.code, money: { discount: 600 } });
    expect(paid.json().money).toMatchObject({ status: 'paid', balance: 0 });

    // A party change re-computes a percent discount; a fixed one stays (never above the price).
    const grown = await s.app.inject({
      method: 'PUT',
      url: `/api/v1/records/${aId}`,
      headers: tma(anna),
      payload: { people_count: 3 },
    });
    expect(grown.json().money).toMatchObject({ price: 8100, discount: 900, balance: 2700 });

    const csv = await s.app.inject({
      method: 'GET',
      url: `/api/v1/records/export.csv?from=${studioDay(1)}&to=${studioDay(3)}`,
      headers: owner,
    });
    const rows: string[][] = parse(csv.body, { delimiter: ';', bom: true });
    const header = rows[0];
    const col = (name: string) => header.indexOf(name);
    expect(header.slice(5, 9)).toEqual(['Количество', 'Цена', 'Скидка', 'Промокод']);
    const withCode = (c: string) => rows.find((r) => r[col('Промокод')] === c)!;
    expect([
      withCode(percent.code)[col('Имя')],
      withCode(percent.code)[col('Цена')],
      withCode(percent.code)[col('Скидка')],
    ]).toEqual(['Анна', '8100', '900']);
    expect([
      withCode(fixed.code)[col('Имя')],
      withCode(fixed.code)[col('Цена')],
      withCode(fixed.code)[col('Скидка')],
    ]).toEqual(['Борис', '2000', '1000']);
  });

  it('applies a code limited to workshops only to their sessions', async () => {
    const pasta = await createSession(s.app, owner, { price: 2000 });
    const other = await createSession(s.app, owner, { price: 2000 });
    const c = await code({ workshop_ids: [pasta.workshop.id], kind: 'percent', value: 50 });
    const u = telegramUser();
    const refused = await book(s.app, u, bookingPayload(other.schedule.id, { promo_code: c.code }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Промокод не действует для этого мастер-класса');
    // Nothing was written: the customer can book that session without the code.
    expect((await book(s.app, u, bookingPayload(other.schedule.id))).json().money.price).toBe(2000);
    const ok = await book(s.app, u, bookingPayload(pasta.schedule.id, { promo_code: c.code }));
    expect(ok.json().money).toMatchObject({ price: 1000, discount: 1000 });
  });

  it('takes a code only within its days', async () => {
    const { schedule } = await createSession(s.app, owner);
    const later = await code({ valid_from: studioDay(1) });
    const past = await code({ valid_from: studioDay(-10), valid_to: studioDay(-1) });
    const today = await code({ valid_from: studioDay(0), valid_to: studioDay(0) });
    const u = telegramUser();
    const q = (c: string) => quote(u, { schedule_id: schedule.id, promo_code: c });
    expect((await q(later.code)).json().detail).toBe('Промокод ещё не действует');
    expect((await q(past.code)).json().detail).toBe('Срок действия промокода истёк');
    expect((await q(today.code)).statusCode).toBe(200);
    const refused = await book(s.app, u, bookingPayload(schedule.id, { promo_code: past.code }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Срок действия промокода истёк');
  });

  it('keeps a first-visit code for customers who never booked', async () => {
    const one = await createSession(s.app, owner);
    const two = await createSession(s.app, owner);
    const c = await code({ first_time_only: true, once_per_customer: false });
    const regular = telegramUser();
    await book(s.app, regular, bookingPayload(one.schedule.id));
    const refused = await book(s.app, regular, bookingPayload(two.schedule.id, { promo_code: c.code }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Промокод только для тех, кто записывается к нам впервые');
    const newcomer = telegramUser();
    expect((await quote(newcomer, { schedule_id: two.schedule.id, promo_code: c.code })).statusCode).toBe(200);
    expect((await book(s.app, newcomer, bookingPayload(two.schedule.id, { promo_code: c.code }))).statusCode).toBe(201);
  });

  it('is used once per customer; a cancelled booking gives its use back', async () => {
    const one = await createSession(s.app, owner);
    const two = await createSession(s.app, owner);
    const c = await code({});
    const u = telegramUser();
    const first = await book(s.app, u, bookingPayload(one.schedule.id, { promo_code: c.code }));
    expect(first.statusCode).toBe(201);
    const again = await book(s.app, u, bookingPayload(two.schedule.id, { promo_code: c.code }));
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Вы уже использовали этот промокод');
    expect((await quote(u, { schedule_id: two.schedule.id, promo_code: c.code })).json().detail).toBe(
      'Вы уже использовали этот промокод',
    );
    expect((await cancel(first.json().record.id, u)).statusCode).toBe(200);
    expect((await listed(c.id)).uses).toBe(0);
    const now = await book(s.app, u, bookingPayload(two.schedule.id, { promo_code: c.code }));
    expect(now.statusCode, now.body).toBe(201);
    // The first booking comes back at the full price: its use is taken by the second one.
    const back = await restore(first.json().record.id, u);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().record).toMatchObject({ promo_code: null, discount: 0 });
    expect(back.json().money.price).toBe(3500);
    expect((await listed(c.id)).uses).toBe(1);
  });

  it('stops at the total limit, and a restore takes the use again while one is left', async () => {
    const { schedule } = await createSession(s.app, owner);
    const c = await code({ max_uses: 1 });
    const anna = telegramUser();
    const boris = telegramUser();
    const a = await book(s.app, anna, bookingPayload(schedule.id, { promo_code: c.code }));
    expect(a.statusCode).toBe(201);
    const b = await book(s.app, boris, bookingPayload(schedule.id, { promo_code: c.code }));
    expect(b.statusCode).toBe(409);
    expect(b.json().detail).toBe('Промокод закончился: все использования уже разобрали');
    await cancel(a.json().record.id, anna);
    const back = await restore(a.json().record.id, anna);
    expect(back.json().record).toMatchObject({ promo_code: c.code, discount: 350 });
    expect((await listed(c.id)).uses).toBe(1);
  });

  describe('given seats count for whoever redeemed the code', () => {
    const giveTo = async (giver: User, recordId: number, friend: User) => {
      const link = await s.app.inject({ method: 'POST', url: `/api/v1/records/${recordId}/gift`, headers: tma(giver) });
      expect(link.statusCode, link.body).toBe(200);
      const token = /start=gift_([\w-]+)$/.exec(link.json().url as string)![1];
      const accepted = await s.app.inject({
        method: 'POST',
        url: `/api/v1/gifts/${token}/accept`,
        headers: tma(friend),
        payload: { name: 'Мария', has_allergy: false, consent: true },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
    };

    it('a once-per-customer first-visit code is used once, however many seats with it are given away', async () => {
      const sessions = await Promise.all(Array.from({ length: 4 }, () => createSession(s.app, owner)));
      const c = await code({ once_per_customer: true, first_time_only: true });
      const u = telegramUser();
      const first = await book(s.app, u, bookingPayload(sessions[0].schedule.id, { promo_code: c.code }));
      expect(first.statusCode, first.body).toBe(201);
      await giveTo(u, first.json().record.id, telegramUser());
      for (const { schedule } of sessions.slice(1)) {
        const again = await book(s.app, u, bookingPayload(schedule.id, { promo_code: c.code }));
        expect(again.statusCode, again.body).toBe(409);
        expect(again.json().detail).toBe('Вы уже использовали этот промокод');
      }
      expect((await listed(c.id)).uses).toBe(1);
    });

    it('a first-visit code: whoever redeemed it on a seat they gave away is no newcomer', async () => {
      const one = await createSession(s.app, owner);
      const two = await createSession(s.app, owner);
      const c = await code({ first_time_only: true, once_per_customer: false });
      const u = telegramUser();
      const friend = telegramUser();
      const first = await book(s.app, u, bookingPayload(one.schedule.id, { promo_code: c.code }));
      expect(first.statusCode, first.body).toBe(201);
      await giveTo(u, first.json().record.id, friend);
      const again = await book(s.app, u, bookingPayload(two.schedule.id, { promo_code: c.code }));
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json().detail).toBe('Промокод только для тех, кто записывается к нам впервые');
    });

    it('a friend given a seat booked with a once-per-customer code may still redeem it once themselves', async () => {
      const one = await createSession(s.app, owner);
      const two = await createSession(s.app, owner);
      const three = await createSession(s.app, owner);
      const c = await code({ once_per_customer: true });
      const u = telegramUser();
      const friend = telegramUser();
      const first = await book(s.app, u, bookingPayload(one.schedule.id, { promo_code: c.code }));
      await giveTo(u, first.json().record.id, friend);
      const own = await book(s.app, friend, bookingPayload(two.schedule.id, { promo_code: c.code }));
      expect(own.statusCode, own.body).toBe(201);
      expect(own.json().record).toMatchObject({ promo_code: c.code, discount: 350 });
      const twice = await book(s.app, friend, bookingPayload(three.schedule.id, { promo_code: c.code }));
      expect(twice.json().detail).toBe('Вы уже использовали этот промокод');
      expect((await listed(c.id)).uses).toBe(2);
    });
  });

  it('a switched-off code is refused', async () => {
    const { schedule } = await createSession(s.app, owner);
    const c = await code({});
    await s.app.inject({
      method: 'PATCH',
      url: `/api/v1/promo-codes/${c.id}`,
      headers: owner,
      payload: { is_active: false },
    });
    const res = await book(s.app, telegramUser(), bookingPayload(schedule.id, { promo_code: c.code }));
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('Промокод не найден');
  });
});

describe('concurrency', () => {
  const post = (user: User, payload: unknown) =>
    fetch(`${s.url}/api/v1/records/`, {
      method: 'POST',
      headers: { ...tma(user), 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });

  it('gives exactly the limit of uses to simultaneous bookings', async () => {
    // Each customer books a session of their own, so no session's lock lines them up: only the code's does.
    const LIMIT = 3;
    const users = Array.from({ length: 24 }, () => telegramUser());
    const sessions = await Promise.all(users.map(() => createSession(s.app, owner)));
    const c = await code({ max_uses: LIMIT });
    const responses = await Promise.all(
      users.map((u, i) => post(u, bookingPayload(sessions[i].schedule.id, { promo_code: c.code }))),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((st) => st === 201)).toHaveLength(LIMIT);
    expect(statuses.filter((st) => st === 409)).toHaveLength(users.length - LIMIT);
    expect((await listed(c.id)).uses).toBe(LIMIT);
    const held = await s.database.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('promo_code_id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(Number(held.n)).toBe(LIMIT);
  });

  it('gives one customer booking several sessions at once the code once', async () => {
    const sessions = await Promise.all(Array.from({ length: 6 }, () => createSession(s.app, owner)));
    const c = await code({ once_per_customer: true });
    const u = telegramUser();
    const responses = await Promise.all(
      sessions.map(({ schedule }) => post(u, bookingPayload(schedule.id, { promo_code: c.code }))),
    );
    expect(responses.map((r) => r.status).filter((st) => st === 201)).toHaveLength(1);
    expect((await listed(c.id)).uses).toBe(1);
  });

  it('a customer who gave their seat away, booking several sessions at once with the code, gets none', async () => {
    for (let round = 0; round < 3; round++) {
      const sessions = await Promise.all(Array.from({ length: 5 }, () => createSession(s.app, owner)));
      const c = await code({ once_per_customer: true, first_time_only: true });
      const u = telegramUser();
      const first = await book(s.app, u, bookingPayload(sessions[0].schedule.id, { promo_code: c.code }));
      const link = await s.app.inject({
        method: 'POST',
        url: `/api/v1/records/${first.json().record.id}/gift`,
        headers: tma(u),
      });
      const token = /start=gift_([\w-]+)$/.exec(link.json().url as string)![1];
      const accepted = await s.app.inject({
        method: 'POST',
        url: `/api/v1/gifts/${token}/accept`,
        headers: tma(telegramUser()),
        payload: { name: 'Мария', has_allergy: false, consent: true },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const responses = await Promise.all(
        sessions.slice(1).map(({ schedule }) => post(u, bookingPayload(schedule.id, { promo_code: c.code }))),
      );
      expect(responses.map((r) => r.status)).toEqual([409, 409, 409, 409]);
      expect((await listed(c.id)).uses).toBe(1);
    }
  });
});

describe('the dashboard', () => {
  it('shows bookings, people, revenue and discounts per promo code', async () => {
    const { schedule } = await createSession(s.app, owner, { price: 2000, date: inDays(20) });
    const c = await code({ kind: 'percent', value: 25, once_per_customer: false });
    const other = await code({ kind: 'fixed', value: 300 });
    const a = telegramUser();
    const b = telegramUser();
    const x = telegramUser();
    await book(s.app, a, bookingPayload(schedule.id, { people_count: 2, promo_code: c.code })); // 3000
    await book(s.app, b, bookingPayload(schedule.id, { promo_code: c.code })); // 1500
    const gone = (await book(s.app, x, bookingPayload(schedule.id, { promo_code: other.code }))).json().record.id;
    await cancel(gone, x);
    const stats: Stats = (
      await s.app.inject({
        method: 'GET',
        url: `/api/v1/stats/?from=${studioDay(19)}&to=${studioDay(21)}`,
        headers: owner,
      })
    ).json();
    expect(stats.promo_codes).toEqual([
      { promo_code_id: c.id, code: c.code, bookings: 2, people: 3, revenue: 4500, discount: 1500 },
    ]);
  });
});
