import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CERTIFICATE_ALPHABET, type CertificateIssue, type CertificateView } from '../../contract';
import { remindExpiringCertificates, settleExpiredCertificates } from '../../core/money/certificates';
import { CERTIFICATE_ATTEMPTS } from '../../core/money/certificates-guard';
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
    expect(small.body).toContain('Сумма сертификата — от 100 дин.');
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
    expect(ok.json()).toEqual({ code: c.code, balance: 3000, expires_at: c.expires_at });
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
    expect(html).toContain('5 000 дин.');
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
});
