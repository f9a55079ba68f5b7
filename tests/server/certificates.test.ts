import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CERTIFICATE_ALPHABET, type CertificateIssue, type CertificateView } from '../../contract';
import { remindExpiringCertificates, settleExpiredCertificates } from '../../core/certificates/expiry';
import { CERTIFICATE_ATTEMPTS } from '../../core/ledger/certificate-attempts';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { startTestServer } from '../helpers/server';
import { tma } from '../helpers/telegram';

// A listening server on a fresh database (SQLite file, or PostgreSQL with TEST_DATABASE_URL): the last
// balance is spent by real parallel HTTP requests.
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
// Every test types codes from 127.0.0.1: each starts with fresh attempt windows.
beforeEach(async () => {
  await s.database.db.deleteFrom('rate_limits').where('key', 'like', 'certificate-code%').execute();
});

type User = ReturnType<typeof telegramUser>;

const issue = (payload: Partial<CertificateIssue> = {}, headers = manager) =>
  s.app.inject({
    method: 'POST',
    url: '/api/v1/certificates/',
    headers,
    payload: { amount: 5000, method: 'cash', recipient_name: 'Мария', greeting: 'С днём рождения!', ...payload },
  });
async function certificate(payload: Partial<CertificateIssue> = {}): Promise<CertificateView> {
  const res = await issue(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const view = async (code: string): Promise<CertificateView> => {
  const res = await s.app.inject({ method: 'GET', url: `/api/v1/certificates/${code}`, headers: manager });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const check = (user: User, code: string, remoteAddress?: string) =>
  s.app.inject({
    method: 'POST',
    url: '/api/v1/certificates/check',
    headers: tma(user),
    payload: { code },
    ...(remoteAddress && { remoteAddress }),
  });
const ledger = (id: number) =>
  s.app.inject({ method: 'GET', url: `/api/v1/records/${id}/payments`, headers: owner }).then((r) => r.json());
const desk = () => s.app.inject({ method: 'GET', url: '/api/v1/payments/', headers: owner }).then((r) => r.json());
const recordCount = async () =>
  Number(
    (
      await s.database.db
        .selectFrom('records')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function bookWith(code: string | null, price = 3000, people = 1, user = telegramUser()) {
  const { schedule } = await createSession(s.app, owner, { price });
  const res = await book(s.app, user, bookingPayload(schedule.id, { people_count: people, certificate_code: code }));
  return { res, user, schedule };
}

describe('issuing', () => {
  it('gives a readable 4-4-4 code of 12 unambiguous symbols, a sale in the ledger and the cash desk, a 12-month expiry', async () => {
    const before = await desk();
    const c = await certificate({ amount: 7000, method: 'card', buyer_name: 'Пётр' });
    expect(c.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    for (const ch of c.code.replaceAll('-', '')) expect(CERTIFICATE_ALPHABET).toContain(ch);
    expect(c.code).not.toMatch(/[01OI]/);
    expect(c).toMatchObject({
      amount: 7000,
      balance: 7000,
      status: 'active',
      buyer_name: 'Пётр',
      recipient_name: 'Мария',
      greeting: 'С днём рождения!',
      pay_method: 'card',
      url: `/gift/${c.code}`,
    });
    const months = (Date.parse(c.expires_at) - Date.now()) / (30.4 * 86_400_000);
    expect(months).toBeGreaterThan(11.5);
    expect(months).toBeLessThan(12.5);
    expect(c.entries).toMatchObject([{ kind: 'sale', amount: 7000, recorded_by_kind: 'staff' }]);
    // The sale is money received at the desk.
    const after = await desk();
    expect(after.received - before.received).toBe(7000);
    expect(after.certificates.sold - before.certificates.sold).toBe(7000);
    expect(after.certificates.outstanding - before.certificates.outstanding).toBe(7000);
    expect(after.payments[0]).toMatchObject({ amount: 7000, method: 'card', record_id: null });
  });

  it('finds a certificate by its code in any case, with or without dashes, and by recipient or buyer', async () => {
    const c = await certificate({ recipient_name: 'Зоран Уникальный', buyer_name: 'Милица Покупатель' });
    const raw = c.code.replaceAll('-', '');
    expect((await view(raw.toLowerCase())).id).toBe(c.id);
    expect((await view(`${raw.slice(0, 4)} ${raw.slice(4, 8)} ${raw.slice(8)}`.toLowerCase())).id).toBe(c.id);
    const search = async (q: string) =>
      (
        await s.app.inject({ method: 'GET', url: `/api/v1/certificates/?q=${encodeURIComponent(q)}`, headers: manager })
      ).json().data as { id: number }[];
    expect((await search('уникальный')).map((x) => x.id)).toEqual([c.id]);
    expect((await search('покупатель')).map((x) => x.id)).toEqual([c.id]);
    expect((await search(c.code.slice(5, 9).toLowerCase())).map((x) => x.id)).toContain(c.id);
    const missing = await s.app.inject({ method: 'GET', url: '/api/v1/certificates/ABCDEFGHJKLM', headers: manager });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe('Сертификат с таким кодом не найден');
  });

  it('refuses a bad amount or a past expiry in Russian and writes nothing', async () => {
    const count = (await s.app.inject({ method: 'GET', url: '/api/v1/certificates/', headers: owner })).json().count;
    const small = await issue({ amount: 50 });
    expect(small.statusCode).toBe(422);
    expect(small.body).toContain('Сумма сертификата — от 100\u00a0RSD');
    const past = await issue({ expires_at: new Date(Date.now() - 86_400_000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().detail).toBe('Срок действия должен быть в будущем');
    expect((await s.app.inject({ method: 'GET', url: '/api/v1/certificates/', headers: owner })).json().count).toBe(
      count,
    );
  });
});

describe('redeeming', () => {
  it('pays a booking in part: the certificate keeps the rest', async () => {
    const c = await certificate({ amount: 5000 });
    const { res } = await bookWith(c.code.toLowerCase(), 3000);
    expect(res.statusCode, res.body).toBe(201);
    const l = await ledger(res.json().record.id);
    expect(l.payments).toMatchObject([{ amount: 3000, method: 'certificate', kind: 'payment' }]);
    expect(l.money).toMatchObject({ status: 'paid', balance: 0 });
    const after = await view(c.code);
    expect(after.balance).toBe(2000);
    expect(after.entries.map((e) => [e.kind, e.amount, e.record_id])).toEqual([
      ['sale', 5000, null],
      ['redemption', -3000, res.json().record.id],
    ]);
    const d = await desk();
    // Spending a certificate is not new money.
    expect(d.payments.find((p: { record_id: number }) => p.record_id === res.json().record.id)).toMatchObject({
      method: 'certificate',
    });
  });

  it('pays a booking in whole up to its balance: the rest is due as usual, and a used-up code is refused', async () => {
    const c = await certificate({ amount: 2000 });
    const { res } = await bookWith(c.code, 3500);
    expect(res.statusCode, res.body).toBe(201);
    const l = await ledger(res.json().record.id);
    expect(l.money).toMatchObject({ amount_paid: 2000, balance: 1500 });
    expect((await view(c.code)).status).toBe('used');
    const records = await recordCount();
    const again = await bookWith(c.code);
    expect(again.res.statusCode).toBe(409);
    expect(again.res.json().detail).toBe('Сертификат уже израсходован');
    // Refused before anything was written: no booking.
    expect(await recordCount()).toBe(records);
  });

  it('gives a cancelled booking’s certificate part back to the certificate, never to credit', async () => {
    const settings = await s.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: owner,
      payload: { refund_to: 'credit' },
    });
    expect(settings.statusCode).toBe(200);
    const c = await certificate({ amount: 4000 });
    const { res, user } = await bookWith(c.code, 2500);
    const id = res.json().record.id;
    expect((await view(c.code)).balance).toBe(1500);
    const cancel = await s.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${id}`,
      headers: tma(user),
      payload: { cancel_reason: 'Заболела' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const back = await view(c.code);
    expect(back.balance).toBe(4000);
    expect(back.entries.at(-1)).toMatchObject({ kind: 'return', amount: 2500, record_id: id });
    const l = await ledger(id);
    expect(l.payments.map((p: { amount: number; method: string }) => [p.amount, p.method])).toEqual([
      [2500, 'certificate'],
      [-2500, 'certificate'],
    ]);
    const credit = await s.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) });
    expect(credit.json()).toEqual({ balance: 0 });
  });

  it('pays the difference when the party grows and takes back the excess when it shrinks', async () => {
    const c = await certificate({ amount: 5000 });
    const { res, user } = await bookWith(c.code, 2000);
    const id = res.json().record.id;
    const people = (n: number) =>
      s.app.inject({ method: 'PUT', url: `/api/v1/records/${id}`, headers: tma(user), payload: { people_count: n } });
    expect((await people(2)).statusCode).toBe(200);
    expect((await ledger(id)).money).toMatchObject({ amount_paid: 4000, balance: 0 });
    expect((await view(c.code)).balance).toBe(1000);
    expect((await people(1)).statusCode).toBe(200);
    expect((await ledger(id)).money).toMatchObject({ amount_paid: 2000, balance: 0 });
    expect((await view(c.code)).balance).toBe(3000);
  });

  it('lets staff pay an existing booking from a certificate, once', async () => {
    const c = await certificate({ amount: 1000 });
    const { res } = await bookWith(null, 3000);
    const id = res.json().record.id;
    const redeem = (code: string) =>
      s.app.inject({ method: 'POST', url: `/api/v1/records/${id}/certificate`, headers: manager, payload: { code } });
    const r = await redeem(c.code);
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().money).toMatchObject({ amount_paid: 1000, balance: 2000 });
    const c2 = await certificate({ amount: 5000 });
    const paid = await redeem(c2.code);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().money).toMatchObject({ amount_paid: 3000, balance: 0 });
    expect((await view(c2.code)).balance).toBe(3000);
    const again = await redeem(c2.code);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Запись уже оплачена полностью');
  });

  it('refuses unknown, malformed, expired and voided codes with a clear Russian message', async () => {
    const anna = telegramUser();
    const c = await certificate({ amount: 3000 });
    const ok = await check(anna, c.code.toLowerCase().replaceAll('-', ' '));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      code: c.code,
      kind: 'amount',
      balance: 3000,
      places_left: null,
      expires_at: c.expires_at,
      pays: null,
      places_used: null,
    });
    const cases: [string, number, string][] = [
      ['ABCD-EFGH-JKLM', 404, 'Сертификат с таким кодом не найден'],
      ['ABCD', 400, 'Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM'],
      ['ABCD-EFGH-JKL0', 400, 'Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM'],
    ];
    for (const [code, status, detail] of cases) {
      const r = await check(anna, code);
      expect(r.statusCode, code).toBe(status);
      expect(r.json().detail).toBe(detail);
    }
    const records = await recordCount();
    expect((await bookWith('ABCD')).res.statusCode).toBe(400);
    expect(await recordCount()).toBe(records);
  });
});

describe('void and expiry', () => {
  it('the owner voids with a reason (a manager may not): the rest is written off and the code refused', async () => {
    const c = await certificate({ amount: 3000 });
    await bookWith(c.code, 1000);
    const voidAs = (headers: typeof owner, payload: { reason: string }) =>
      s.app.inject({ method: 'POST', url: `/api/v1/certificates/${c.code}/void`, headers, payload });
    expect((await voidAs(manager, { reason: 'Ошибка' })).statusCode).toBe(403);
    const noReason = await voidAs(owner, { reason: ' ' });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.body).toContain('Укажите причину');
    const before = await desk();
    const v = await voidAs(owner, { reason: 'Продан по ошибке' });
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json()).toMatchObject({ status: 'voided', balance: 0, void_reason: 'Продан по ошибке' });
    expect(v.json().entries.at(-1)).toMatchObject({ kind: 'void', amount: -2000, note: 'Продан по ошибке' });
    const after = await desk();
    expect(after.certificates.outstanding - before.certificates.outstanding).toBe(-2000);
    expect(after.certificates.voided - before.certificates.voided).toBe(2000);
    const r = await check(telegramUser(), c.code);
    expect(r.statusCode).toBe(409);
    expect(r.json().detail).toBe('Сертификат аннулирован');
    expect((await voidAs(owner, { reason: 'Ещё раз' })).statusCode).toBe(409);
  });

  it('writes off an expired balance once and reports it; an expired code is refused', async () => {
    const c = await certificate({ amount: 2500 });
    await s.database.db
      .updateTable('certificates')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', c.id)
      .execute();
    const r = await check(telegramUser(), c.code);
    expect(r.statusCode).toBe(409);
    expect(r.json().detail).toBe('Срок действия сертификата истёк');
    const before = await desk();
    expect(await settleExpiredCertificates(s.database)).toBeGreaterThanOrEqual(1);
    expect(await settleExpiredCertificates(s.database)).toBe(0);
    const v = await view(c.code);
    expect(v.status).toBe('expired');
    expect(v.entries.filter((e) => e.kind === 'expiry')).toMatchObject([{ amount: -2500 }]);
    const after = await desk();
    expect(after.certificates.expired - before.certificates.expired).toBe(2500);
    // Reported to staff, not dropped silently: an alert row (none are linked here) and the audit log.
    const audit = await s.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'certificate')
      .where('entity_id', '=', c.id)
      .execute();
    expect(audit.some((a) => String(a.after).includes('written_off'))).toBe(true);
  });

  it('reminds a linked recipient once, 30 days before expiry', async () => {
    const c = await certificate({ amount: 3000 });
    const recipient = 7_700_001;
    await s.database.db
      .updateTable('certificates')
      .set({ recipient_telegram_id: recipient, expires_at: new Date(Date.now() + 20 * 86_400_000).toISOString() })
      .where('id', '=', c.id)
      .execute();
    const far = await certificate({ amount: 3000 });
    await s.database.db
      .updateTable('certificates')
      .set({ recipient_telegram_id: recipient + 1 })
      .where('id', '=', far.id)
      .execute();
    await Promise.all([remindExpiringCertificates(s.database), remindExpiringCertificates(s.database)]);
    await remindExpiringCertificates(s.database);
    const sent = await s.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('kind', '=', 'certificate.expiring')
      .execute();
    expect(sent.map((n) => Number(n.chat_id))).toEqual([recipient]);
    expect(JSON.parse(String(sent[0].payload))).toMatchObject({ code: c.code, balance: 3000 });
  });
});

describe('concurrency', () => {
  const post = (user: User, payload: unknown) =>
    fetch(`${s.url}/api/v1/records/`, {
      method: 'POST',
      headers: { ...tma(user), 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });

  it('simultaneous bookings never spend more than the certificate holds', async () => {
    // Each customer books a session of their own: only the certificate's lock lines them up.
    const c = await certificate({ amount: 5000 });
    const users = Array.from({ length: 8 }, () => telegramUser());
    const sessions = await Promise.all(users.map(() => createSession(s.app, owner, { price: 2000 })));
    const responses = await Promise.all(
      users.map((u, i) => post(u, bookingPayload(sessions[i].schedule.id, { certificate_code: c.code }))),
    );
    const statuses = responses.map((r) => r.status);
    // 2000 + 2000 + the last 1000: three bookings paid from it, the rest refused as used up.
    expect(statuses.filter((st) => st === 201)).toHaveLength(3);
    expect(statuses.filter((st) => st === 409)).toHaveLength(5);
    const v = await view(c.code);
    expect(v.balance).toBe(0);
    expect(v.entries.filter((e) => e.kind === 'redemption').reduce((sum, e) => sum - e.amount, 0)).toBe(5000);
    const spent = await s.database.db
      .selectFrom('payments')
      .select((eb) => eb.fn.sum<number | string>('amount').as('n'))
      .where('method', '=', 'certificate')
      .where('note', 'like', `%${c.code}%`)
      .executeTakeFirstOrThrow();
    expect(Number(spent.n)).toBe(5000);
  });
});

describe('guessing', () => {
  it('limits codes typed per Telegram user, then per address, with 429 in Russian', async () => {
    const guesser = telegramUser();
    const good = await certificate({ amount: 1000 });
    for (let i = 0; i < CERTIFICATE_ATTEMPTS.per_user; i++)
      expect((await check(guesser, 'ABCD-EFGH-JKLM')).statusCode).toBe(404);
    const limited = await check(guesser, good.code);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toBe('Слишком много попыток ввести код. Попробуйте позже');
    // Another user from the same address still may, until the address's own limit.
    expect((await check(telegramUser(), good.code)).statusCode).toBe(200);
    const address = '10.9.8.7';
    let last = 0;
    for (let i = 0; i <= CERTIFICATE_ATTEMPTS.per_address; i++)
      last = (await check(telegramUser(), 'ABCDEFGHJKLM', address)).statusCode;
    expect(last).toBe(429);
    expect((await check(telegramUser(), good.code, address)).statusCode).toBe(429);
  });
});

describe('bought in the mini-app without Telegram payments', () => {
  it('offers the studio’s own list of amounts', async () => {
    const put = (certificate_amounts: number[]) =>
      s.app.inject({
        method: 'PUT',
        url: '/api/v1/business-settings/',
        headers: owner,
        payload: { certificate_amounts },
      });
    expect((await put([50])).statusCode).toBe(422);
    expect((await put([2000, 2000])).json().detail).toBeDefined();
    expect((await put([2000, 4500])).statusCode).toBe(200);
    const buyer = telegramUser();
    const options = await s.app.inject({ method: 'GET', url: '/api/v1/certificates/options', headers: tma(buyer) });
    expect(options.json().amounts).toEqual([2000, 4500]);
    const refused = await s.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/purchase',
      headers: tma(buyer),
      payload: { amount: 5000 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toBe('Выберите сумму из списка');
    expect((await put([3500, 5000, 7000, 10000])).statusCode).toBe(200);
  });

  it('is a request staff confirm when paid; then the buyer has it, with its code', async () => {
    const buyer = telegramUser();
    const options = await s.app.inject({ method: 'GET', url: '/api/v1/certificates/options', headers: tma(buyer) });
    expect(options.json()).toMatchObject({ telegram: false, months: 12 });
    const amount = options.json().amounts[0] as number;
    const notOffered = await s.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/purchase',
      headers: tma(buyer),
      payload: { amount: amount + 1 },
    });
    expect(notOffered.statusCode).toBe(400);
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/purchase',
      headers: tma(buyer),
      payload: { amount, recipient_name: 'Ивана', greeting: 'Для тебя' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ amount, status: 'pending', invoice_url: null });
    const mine = async () =>
      (await s.app.inject({ method: 'GET', url: '/api/v1/me/certificates', headers: tma(buyer) })).json().data;
    expect(await mine()).toMatchObject([{ id: res.json().id, code: null, status: 'pending', balance: 0 }]);
    const row = await s.database.db
      .selectFrom('certificates')
      .select('code')
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    // Not usable before it is paid.
    const early = await check(telegramUser(), row.code);
    expect(early.json().detail).toBe('Сертификат ещё не оплачен');
    const confirmed = await s.app.inject({
      method: 'POST',
      url: `/api/v1/certificates/${row.code}/confirm`,
      headers: manager,
      payload: { method: 'bank_transfer' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'active', balance: amount, pay_method: 'bank_transfer' });
    const [c] = await mine();
    expect(c).toMatchObject({ status: 'active', balance: amount, code: confirmed.json().code });
    const told = await s.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('kind', '=', 'certificate.ready')
      .where('chat_id', '=', buyer.id)
      .execute();
    expect(told).toHaveLength(1);
    const twice = await s.app.inject({
      method: 'POST',
      url: `/api/v1/certificates/${row.code}/confirm`,
      headers: manager,
      payload: { method: 'cash' },
    });
    expect(twice.statusCode).toBe(409);
  });
});

describe('erasure', () => {
  it('forgets who bought, received and was greeted, and keeps the amounts and the balance', async () => {
    const buyer = telegramUser();
    const amount = (
      await s.app.inject({ method: 'GET', url: '/api/v1/certificates/options', headers: tma(buyer) })
    ).json().amounts[0];
    const bought = await s.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/purchase',
      headers: tma(buyer),
      payload: { amount, recipient_name: 'Ирина Стереть', greeting: 'Секретное пожелание' },
    });
    const id = bought.json().id;
    const forget = await s.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(buyer) });
    expect(forget.statusCode, forget.body).toBeLessThan(300);
    const row = await s.database.db
      .selectFrom('certificates')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      buyer_telegram_id: null,
      buyer_name: null,
      recipient_name: null,
      greeting: null,
      amount,
    });
  });
});

describe('the card page', () => {
  it('is a printable page with the business, amount, recipient, greeting, code, expiry and how to use it', async () => {
    const c = await certificate({ amount: 5000, recipient_name: 'Ана <Б>', greeting: 'Счастья & вкусного!' });
    const res = await fetch(`${s.url}/gift/${c.code.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain(s.config.businessName);
    expect(html).toContain('Подарочный сертификат');
    expect(html).toContain('5\u00a0000\u00a0RSD');
    expect(html).toContain('Ана &lt;Б&gt;');
    expect(html).toContain('Счастья &amp; вкусного!');
    expect(html).toContain(c.code);
    expect(html).toMatch(/Действует до/);
    expect(html).toContain('У меня есть сертификат');
    expect(html).toContain('@media print');
    expect(html).not.toMatch(/<script/i);
    const missing = await fetch(`${s.url}/gift/ABCDEFGHJKLM`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Сертификат с таким кодом не найден');
    const mistyped = await fetch(`${s.url}/gift/ABC`);
    expect(mistyped.status).toBe(400);
    expect(mistyped.headers.get('content-type')).toContain('text/html');
  });

  it('is in the language of the link, else of the browser, else Russian; a refusal too', async () => {
    const c = await certificate({ amount: 5000, recipient_name: 'Ana', greeting: 'Srećno!' });
    const open = async (query: string, acceptLanguage?: string) => {
      const res = await fetch(`${s.url}/gift/${c.code}${query}`, {
        headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      });
      // The studio's name is as configured: the rest is in the reader's language.
      return { status: res.status, html: (await res.text()).replaceAll(s.config.businessName, '') };
    };
    const en = await open('?lang=en', 'sr-RS,sr;q=0.9');
    expect(en.html).toContain('<html lang="en-GB">');
    for (const text of ['Gift certificate', '5,000\u00a0RSD', 'For: <strong>Ana', 'Valid until', 'How to use it'])
      expect(en.html).toContain(text);
    expect(en.html).toContain('“I have a gift certificate”');
    expect(en.html).not.toMatch(/[а-яё]/i);

    const sr = await open('', 'de-DE,sr;q=0.8,en;q=0.5');
    expect(sr.html).toContain('<html lang="sr-Latn">');
    for (const text of [
      'Poklon-sertifikat',
      '5.000\u00a0din.',
      'Za: <strong>Ana',
      'Važi do',
      '„Imam poklon-sertifikat“',
    ])
      expect(sr.html).toContain(text);
    expect(sr.html).not.toMatch(/[а-яё]/i);

    const ru = await open('?lang=de', 'de');
    expect(ru.html).toContain('<html lang="ru">');
    expect(ru.html).toContain('5\u00a0000\u00a0RSD');

    const missing = await fetch(`${s.url}/gift/ABCDEFGHJKLM?lang=en`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('No certificate has this code');
  });
});

describe('places certificates ("N places on any workshop", priced when used)', () => {
  const issuePlaces = (payload: Record<string, unknown>) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/',
      headers: manager,
      payload: { method: 'cash', recipient_name: 'Мария', ...payload },
    });
  async function places(n: number, pricePaid = 3000 * n): Promise<CertificateView> {
    const res = await issuePlaces({ places: n, price_paid: pricePaid });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  const entries = async (code: string) =>
    (await view(code)).entries.map((e) => [e.kind, e.places, e.amount, e.record_id]);
  const people = (id: number, user: User, n: number) =>
    s.app.inject({ method: 'PUT', url: `/api/v1/records/${id}`, headers: tma(user), payload: { people_count: n } });
  const cancel = (id: number, user: User) =>
    s.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${id}`,
      headers: tma(user),
      payload: { cancel_reason: 'Не получится' },
    });
  const promo = async (payload: Record<string, unknown>) => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/promo-codes/',
      headers: owner,
      payload: { code: `PL${Math.random().toString(36).slice(2, 8)}`, once_per_customer: false, ...payload },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().code as string;
  };

  it('is issued with the places and what the buyer paid: the sale is money received, its places held apart', async () => {
    const before = await desk();
    const c = await places(2, 5000);
    expect(c).toMatchObject({
      kind: 'places',
      places: 2,
      places_left: 2,
      balance: 2,
      amount: 5000,
      status: 'active',
      pay_method: 'cash',
    });
    expect(c.entries).toMatchObject([{ kind: 'sale', places: 2, amount: 5000 }]);
    const after = await desk();
    expect(after.received - before.received).toBe(5000);
    expect(after.certificates.sold - before.certificates.sold).toBe(5000);
    // What an amount certificate owes is RSD; a places certificate's value is unknown until used.
    expect(after.certificates.outstanding).toBe(before.certificates.outstanding);
    expect(after.certificates.outstanding_places - before.certificates.outstanding_places).toBe(2);
    const listed = (
      await s.app.inject({ method: 'GET', url: '/api/v1/certificates/?status=active', headers: manager })
    ).json().data;
    expect(listed.find((x: { id: number }) => x.id === c.id)).toMatchObject({ kind: 'places', places_left: 2 });
    // An amount certificate says it is one.
    expect(await certificate({ amount: 1000 })).toMatchObject({ kind: 'amount', places: null, places_left: null });
  });

  it('is refused in Russian (422) without exactly one of amount and places, or without what was paid', async () => {
    const count = async () =>
      (await s.app.inject({ method: 'GET', url: '/api/v1/certificates/', headers: owner })).json().count;
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'Укажите сумму сертификата или количество мест'],
      [{ amount: 5000, places: 2, price_paid: 5000 }, 'Сертификат — либо на сумму, либо на места: укажите что-то одно'],
      [{ places: 2 }, 'Укажите, сколько заплатил покупатель'],
      [{ places: 0, price_paid: 1000 }, 'Мест: от 1 до 20'],
      [{ places: 21, price_paid: 1000 }, 'Мест: от 1 до 20'],
      [{ places: 1.5, price_paid: 1000 }, 'Количество мест — целое число'],
      [{ amount: 5000, price_paid: 4000 }, 'поле «Оплачено» только для мест'],
    ];
    for (const [payload, message] of cases) {
      const res = await issuePlaces(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.body, JSON.stringify(payload)).toContain(message);
    }
    expect(await count()).toBe(before);
  });

  it('pays a larger party in part: 2 places of 3 people at the unit price, the rest is due', async () => {
    const c = await places(2);
    const before = await desk();
    const { res } = await bookWith(c.code, 3000, 3);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().record.id;
    const l = await ledger(id);
    expect(l.payments).toMatchObject([{ amount: 6000, method: 'certificate', kind: 'payment' }]);
    expect(l.money).toMatchObject({ price: 9000, amount_paid: 6000, balance: 3000, paid_by_certificate: 6000 });
    const v = await view(c.code);
    expect(v).toMatchObject({ status: 'used', balance: 0, places_left: 0 });
    expect(await entries(c.code)).toEqual([
      ['sale', 2, 6000, null],
      ['redemption', -2, -6000, id],
    ]);
    // Redeemed at the RSD value the places covered.
    const after = await desk();
    expect(after.certificates.redeemed - before.certificates.redeemed).toBe(6000);
    expect(after.certificates.outstanding_places - before.certificates.outstanding_places).toBe(-2);
  });

  it('pays a booking in whole and keeps the places left', async () => {
    const c = await places(5);
    const { res } = await bookWith(c.code, 2500, 2);
    const l = await ledger(res.json().record.id);
    expect(l.money).toMatchObject({ price: 5000, amount_paid: 5000, balance: 0, status: 'paid' });
    expect(await view(c.code)).toMatchObject({ status: 'active', places_left: 3 });
  });

  it('values each place at the unit price after its share of a promo discount, as the check says first', async () => {
    const { schedule } = await createSession(s.app, owner, { price: 3000 });
    const percent = await promo({ kind: 'percent', value: 10 });
    const c = await places(2);
    const user = telegramUser();
    const asked = await s.app.inject({
      method: 'POST',
      url: '/api/v1/certificates/check',
      headers: tma(user),
      payload: { code: c.code, schedule_id: schedule.id, people_count: 3, promo_code: percent },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // 3 × 3000 − 10% = 8100: 2700 a person, 2 places.
    expect(asked.json()).toMatchObject({ kind: 'places', balance: 2, places_left: 2, pays: 5400, places_used: 2 });
    const res = await book(
      s.app,
      user,
      bookingPayload(schedule.id, { people_count: 3, certificate_code: c.code, promo_code: percent }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect((await ledger(res.json().record.id)).money).toMatchObject({ price: 8100, amount_paid: 5400, balance: 2700 });

    // A fixed discount is shared by the party: (3 × 3000 − 500) × 2/3.
    const fixed = await promo({ kind: 'fixed', value: 500 });
    const c2 = await places(2);
    const { schedule: other } = await createSession(s.app, owner, { price: 3000 });
    const booked = await book(
      s.app,
      telegramUser(),
      bookingPayload(other.id, { people_count: 3, certificate_code: c2.code, promo_code: fixed }),
    );
    expect((await ledger(booked.json().record.id)).money).toMatchObject({ price: 8500, amount_paid: 5667 });
  });

  it('gives the places back on a cancel, to the certificate, never to credit', async () => {
    const c = await places(3);
    const { res, user } = await bookWith(c.code, 2000, 2);
    const id = res.json().record.id;
    expect((await view(c.code)).places_left).toBe(1);
    expect((await cancel(id, user)).statusCode).toBe(200);
    expect(await view(c.code)).toMatchObject({ status: 'active', places_left: 3 });
    expect((await entries(c.code)).at(-1)).toEqual(['return', 2, 4000, id]);
    expect((await ledger(id)).money).toMatchObject({ amount_paid: 0, paid_by_certificate: 0 });
    const credit = await s.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(user) });
    expect(credit.json()).toEqual({ balance: 0 });
  });

  it('takes another place when the party grows and gives places back when it shrinks', async () => {
    const c = await places(4);
    const { res, user } = await bookWith(c.code, 2000, 2);
    const id = res.json().record.id;
    expect((await people(id, user, 3)).statusCode).toBe(200);
    expect((await ledger(id)).money).toMatchObject({ price: 6000, amount_paid: 6000, balance: 0 });
    expect((await view(c.code)).places_left).toBe(1);
    // Grows past what it holds: its last place, the rest is due.
    expect((await people(id, user, 5)).statusCode).toBe(200);
    expect((await ledger(id)).money).toMatchObject({ price: 10000, amount_paid: 8000, balance: 2000 });
    expect((await view(c.code)).places_left).toBe(0);
    // Shrinks: what the certificate paid beyond the new price goes back to it first, as places.
    expect((await people(id, user, 1)).statusCode).toBe(200);
    expect((await ledger(id)).money).toMatchObject({ price: 2000, amount_paid: 2000, balance: 0 });
    expect(await view(c.code)).toMatchObject({ status: 'active', places_left: 3 });
    expect((await entries(c.code)).at(-1)).toEqual(['return', 3, 6000, id]);
  });

  it('a smaller party takes back the certificate’s part first, as whole places, like an amount certificate', async () => {
    const c = await places(2);
    const { res, user } = await bookWith(c.code, 3000, 3);
    const id = res.json().record.id;
    const cash = await s.app.inject({
      method: 'POST',
      url: `/api/v1/records/${id}/payments`,
      headers: manager,
      payload: { method: 'cash' },
    });
    expect(cash.statusCode, cash.body).toBe(201);
    expect((await people(id, user, 2)).statusCode).toBe(200);
    const l = await ledger(id);
    expect(l.money).toMatchObject({ price: 6000, amount_paid: 6000, balance: 0, paid_by_certificate: 3000 });
    expect((await view(c.code)).places_left).toBe(1);
    expect((await entries(c.code)).at(-1)).toEqual(['return', 1, 3000, id]);
  });

  it('pays a queued booking when it becomes ACTIVE, and staff may pay a booking with one', async () => {
    const { schedule } = await createSession(s.app, owner, { price: 2000, capacity: 2 });
    const first = telegramUser();
    const held = await book(s.app, first, bookingPayload(schedule.id, { people_count: 2 }));
    const c = await places(2);
    const second = telegramUser();
    const queued = await book(
      s.app,
      second,
      bookingPayload(schedule.id, { people_count: 2, certificate_code: c.code }),
    );
    expect(queued.json().record.state).toBe('QUEUED');
    expect((await view(c.code)).places_left).toBe(2);
    expect((await cancel(held.json().record.id, first)).statusCode).toBe(200);
    expect((await ledger(queued.json().record.id)).money).toMatchObject({ amount_paid: 4000, balance: 0 });
    expect((await view(c.code)).places_left).toBe(0);

    const c2 = await places(1);
    const { res } = await bookWith(null, 3000, 2);
    const r = await s.app.inject({
      method: 'POST',
      url: `/api/v1/records/${res.json().record.id}/certificate`,
      headers: manager,
      payload: { code: c2.code },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().money).toMatchObject({ amount_paid: 3000, balance: 3000, paid_by_certificate: 3000 });
  });

  it('writes off the places left at expiry and reports them; a void writes off places too', async () => {
    const c = await places(3);
    await bookWith(c.code, 2000, 1);
    await s.database.db
      .updateTable('certificates')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', c.id)
      .execute();
    const before = await desk();
    await settleExpiredCertificates(s.database);
    const v = await view(c.code);
    expect(v).toMatchObject({ status: 'expired', balance: 0, places_left: 0 });
    expect(v.entries.filter((e) => e.kind === 'expiry')).toMatchObject([{ places: -2, amount: 0 }]);
    const after = await desk();
    expect(after.certificates.expired_places - before.certificates.expired_places).toBe(2);
    expect(after.certificates.expired).toBe(before.certificates.expired);
    // Reported as today: the audit log (and staff's alert, rendered in tests/bot) say what was written off.
    const audit = await s.database.db
      .selectFrom('audit_log')
      .select('after')
      .where('entity', '=', 'certificate')
      .where('entity_id', '=', c.id)
      .execute();
    expect(audit.map((a) => JSON.parse(String(a.after)))).toContainEqual({ expired: true, written_off_places: 2 });

    const d = await places(2);
    const issued = await desk();
    const voided = await s.app.inject({
      method: 'POST',
      url: `/api/v1/certificates/${d.code}/void`,
      headers: owner,
      payload: { reason: 'Ошибка продажи' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toMatchObject({ status: 'voided', places_left: 0 });
    expect(voided.json().entries.at(-1)).toMatchObject({ kind: 'void', places: -2, amount: 0 });
    const last = await desk();
    expect(last.certificates.voided_places - issued.certificates.voided_places).toBe(2);
    expect(last.certificates.outstanding_places - issued.certificates.outstanding_places).toBe(-2);
    expect(last.certificates.voided).toBe(issued.certificates.voided);
  });

  it('simultaneous bookings never take more places than it holds', async () => {
    const c = await places(3);
    const users = Array.from({ length: 8 }, () => telegramUser());
    const sessions = await Promise.all(users.map(() => createSession(s.app, owner, { price: 2000 })));
    const responses = await Promise.all(
      users.map((u, i) =>
        fetch(`${s.url}/api/v1/records/`, {
          method: 'POST',
          headers: { ...tma(u), 'content-type': 'application/json' },
          body: JSON.stringify(bookingPayload(sessions[i].schedule.id, { certificate_code: c.code })),
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((st) => st === 201)).toHaveLength(3);
    expect(statuses.filter((st) => st === 409)).toHaveLength(5);
    const v = await view(c.code);
    expect(v).toMatchObject({ status: 'used', places_left: 0 });
    const taken = v.entries.filter((e) => e.kind === 'redemption');
    expect(taken.reduce((sum, e) => sum - e.places!, 0)).toBe(3);
    expect(taken.reduce((sum, e) => sum - e.amount, 0)).toBe(6000);
  });

  it('two parties wanting the last places at once: one gets them, the other gets the rest or a refusal', async () => {
    const c = await places(3);
    const users = [telegramUser(), telegramUser()];
    const sessions = await Promise.all(users.map(() => createSession(s.app, owner, { price: 1000 })));
    const responses = await Promise.all(
      users.map((u, i) =>
        fetch(`${s.url}/api/v1/records/`, {
          method: 'POST',
          headers: { ...tma(u), 'content-type': 'application/json' },
          body: JSON.stringify(bookingPayload(sessions[i].schedule.id, { people_count: 2, certificate_code: c.code })),
        }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201]);
    const paid = await Promise.all(
      responses.map(async (r) => ((await r.json()) as { money: { amount_paid: number } }).money.amount_paid),
    );
    // 2 places and the last one: never 4.
    expect(paid.sort()).toEqual([1000, 2000]);
    expect((await view(c.code)).places_left).toBe(0);
  });

  it('its card says how many places, in Russian plurals, and what is left', async () => {
    const two = await places(2);
    const five = await places(5);
    const one = await places(1);
    const page = async (code: string) => (await fetch(`${s.url}/gift/${code}`)).text();
    /** The card's words as read: tags and line breaks are spaces. */
    const card = (html: string) =>
      html
        .slice(html.indexOf('<main'))
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ');
    for (const [c, words] of [
      [two, '2 места'],
      [five, '5 мест'],
      [one, '1 место'],
    ] as const) {
      const html = await page(c.code);
      expect(html).toContain(`<title>Сертификат на ${words} на любой мастер-класс`);
      expect(card(html)).toContain(`Подарочный сертификат на ${words} на любой мастер-класс`);
      expect(card(html)).toContain('по месту на каждого участника');
      expect(html).not.toMatch(/\d\u00a0RSD/);
    }
    await bookWith(five.code, 2000, 4);
    expect(card(await page(five.code))).toContain('Осталось: 1 место');
  });
});
