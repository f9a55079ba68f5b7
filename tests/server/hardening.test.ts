import net from 'node:net';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { isPostgres } from '../helpers/db';
import { tma } from '../helpers/telegram';
import { ConfigError, configWarnings, loadConfig } from '../../server/config';
import { CUSTOMER_WRITES_PER_MINUTE } from '../../server/plugins/customer-writes';
import { createResetToken } from '../../core/staff/users';
import { consumeLinkToken, createLinkToken } from '../../core/staff/telegram-link';

// Black-box: what an attacker or a misbehaving client tries, over HTTP, against the whole server.

const form = (username: string, password: string) => ({
  method: 'POST' as const,
  url: '/api/v1/login/access-token',
  payload: new URLSearchParams({ username, password }).toString(),
});
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

/** Production defaults with the real rate limits (login 20 a minute, recovery 5 per 15 minutes per client). */
const production = (env: Record<string, string> = {}) =>
  buildTestApp({ env: { NODE_ENV: 'production', ...env }, rateLimits: { login: 20, passwordRecovery: 5 } });

describe('login and recovery limits behind a proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await production();
  });
  afterAll(() => t.close());

  it('in production one proxy hop is trusted: addresses a client puts in X-Forwarded-For do not reset the per-address login limit', async () => {
    // The proxy (this connection) appends the real client's address; the client rotates what it sent itself.
    const statuses: number[] = [];
    let last = { detail: '' };
    for (let i = 0; i < 25; i++) {
      const res = await t.app.inject({
        ...form(`nobody${i}@example.com`, 'wrong-password'),
        headers: { ...formHeaders, 'x-forwarded-for': `10.9.${i}.1, 203.0.113.7` },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) last = res.json();
    }
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    expect(last.detail).toBe('Слишком много попыток входа. Подождите минуту и попробуйте снова.');
    // Another real client is not affected.
    const other = await t.app.inject({
      ...form('nobody@example.com', 'wrong-password'),
      headers: { ...formHeaders, 'x-forwarded-for': '198.51.100.9' },
    });
    expect(other.statusCode).toBe(400);
  });

  it('the recovery limit holds the same way', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/password-recovery/someone@example.com',
        headers: { 'x-forwarded-for': `10.8.${i}.1, 203.0.113.8` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('10 failed logins of one account within 15 minutes lock it, from however many addresses, with a Russian 429', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: await t.auth(),
      payload: { email: 'target@example.com', password: 'right-password', is_active: true },
    });
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        ...form('target@example.com', `guess-${i}`),
        headers: { ...formHeaders, 'x-forwarded-for': `192.0.2.${i + 1}` },
      });
      expect(res.statusCode).toBe(400);
    }
    // Even the right password is refused now, so guessing on cannot tell a hit.
    const locked = await t.app.inject({
      ...form('target@example.com', 'right-password'),
      headers: { ...formHeaders, 'x-forwarded-for': '192.0.2.200' },
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      detail: 'Слишком много неудачных попыток входа в этот аккаунт. Подождите 15 минут и попробуйте снова.',
    });
    // Other accounts log in as usual.
    const admin = await t.app.inject({
      ...form(t.superuser.email, t.superuser.password),
      headers: { ...formHeaders, 'x-forwarded-for': '192.0.2.201' },
    });
    expect(admin.statusCode).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  const base = { SECRET_KEY: 'x'.repeat(40), DATA_DIR: '/tmp' };
  it('defaults to one hop in production and none otherwise; takes a hop count or proxy addresses', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'production' }, { dotenv: false }).trustProxy).toBe(1);
    expect(loadConfig({ ...base }, { dotenv: false }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }, { dotenv: false }).trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }, { dotenv: false }).trustProxy).toBe(
      '10.0.0.1,10.0.0.0/8',
    );
    expect(loadConfig({ ...base, NODE_ENV: 'production', TRUST_PROXY: 'false' }, { dotenv: false }).trustProxy).toBe(
      false,
    );
    // Believing every hop is allowed but warned about at start.
    expect(configWarnings(loadConfig({ ...base, TRUST_PROXY: 'true' }, { dotenv: false }))).toEqual([
      expect.stringMatching(/^TRUST_PROXY=true: every X-Forwarded-For hop is believed/),
    ]);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'yes please' }, { dotenv: false })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'yes please' }, { dotenv: false })).toThrow(
      /TRUST_PROXY=yes please: expected false, the number of proxies in front of the server/,
    );
  });

  it('without a trusted proxy (development default) X-Forwarded-For is ignored', async () => {
    const t = await buildTestApp({ rateLimits: { login: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await t.app.inject({
          ...form(`x${i}@example.com`, 'wrong-password'),
          headers: { ...formHeaders, 'x-forwarded-for': `10.7.${i}.1` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await t.close();
    }
  });
});

describe('sessions end with a password change', () => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth();
  });
  afterAll(() => t.close());

  const whoAmI = (headers: { authorization: string }) =>
    t.app.inject({ method: 'POST', url: '/api/v1/login/test-token', headers });
  async function staffMember(email: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: admin,
      payload: { email, password: 'password-123', is_active: true },
    });
    return { id: res.json().id as number, headers: await t.auth(email, 'password-123') };
  }

  it('changing the own password ends every token signed before it', async () => {
    const { headers } = await staffMember('changer@example.com');
    const otherDevice = await t.auth('changer@example.com', 'password-123');
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me/password',
      headers,
      payload: { current_password: 'password-123', new_password: 'new-password-456' },
    });
    expect(res.statusCode).toBe(200);
    expect((await whoAmI(otherDevice)).statusCode).toBe(401);
    expect((await whoAmI(headers)).statusCode).toBe(401);
    expect((await whoAmI(await t.auth('changer@example.com', 'new-password-456'))).statusCode).toBe(200);
  });

  it("a superuser's new password for an account ends that account's tokens", async () => {
    const { id, headers } = await staffMember('reset-by-admin@example.com');
    expect((await whoAmI(headers)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${id}`,
      headers: admin,
      payload: { password: 'set-by-admin-1' },
    });
    expect(res.statusCode).toBe(200);
    expect((await whoAmI(headers)).statusCode).toBe(401);
    // Other edits leave sessions alone.
    const fresh = await t.auth('reset-by-admin@example.com', 'set-by-admin-1');
    await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${id}`, headers: admin, payload: { full_name: 'Ира' } });
    expect((await whoAmI(fresh)).statusCode).toBe(200);
  });

  it('a reset ends the older tokens and every other outstanding reset link', async () => {
    const { headers } = await staffMember('forgetful@example.com');
    const older = (await createResetToken(t.database, 'forgetful@example.com'))!.token;
    const newer = (await createResetToken(t.database, 'forgetful@example.com'))!.token;
    const reset = (token: string, new_password: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/reset-password/', payload: { token, new_password } });
    expect((await reset(newer, 'after-reset-1')).statusCode).toBe(200);
    expect((await whoAmI(headers)).statusCode).toBe(401);
    const stale = await reset(older, 'attacker-pass-1');
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ detail: 'Invalid or expired token' });
    expect(
      (await t.app.inject({ ...form('forgetful@example.com', 'after-reset-1'), headers: formHeaders })).statusCode,
    ).toBe(200);
  });
});

describe('staff Telegram ids come only from the one-time link', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let me: number;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth();
    me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: admin })).json().id;
  });
  afterAll(() => t.close());

  it('PATCH /users/me and a superuser PATCH cannot set telegram_id; clearing it still works', async () => {
    const customerId = 5_550_001;
    const own = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: admin,
      payload: { telegram_id: customerId },
    });
    expect(own.statusCode).toBe(422);
    expect(own.json().detail).toMatch(/^telegram_id: Telegram подключается только по ссылке из профиля/);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: admin,
      payload: { email: 'victim@example.com', password: 'password-123', is_active: true },
    });
    const bySuperuser = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${other.json().id}`,
      headers: admin,
      payload: { telegram_id: customerId },
    });
    expect(bySuperuser.statusCode).toBe(422);
    const profile = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: admin });
    expect(profile.json().telegram_id).toBeNull();

    await consumeLinkToken(t.database, (await createLinkToken(t.database, me)).token, {
      id: 5_550_002,
      username: 'chef',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: admin })).json()).toMatchObject({
      telegram_id: 5_550_002,
      telegram_login: 'chef',
    });
    const cleared = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: admin,
      payload: { telegram_id: null },
    });
    expect(cleared.json()).toMatchObject({ telegram_id: null, telegram_login: null });
  });
});

describe('customers and access', () => {
  let t: TestApp;
  let staff: { authorization: string };
  beforeAll(async () => {
    // The production limit of customer writes (other tests raise it).
    t = await buildTestApp({ rateLimits: { customerWrites: CUSTOMER_WRITES_PER_MINUTE } });
    staff = await t.auth();
  });
  afterAll(() => t.close());

  it('limits booking changes to 20 a minute per Telegram user, with a Russian 429; others and staff are not limited', async () => {
    const { schedule } = await createSession(t.app, staff);
    const spammer = telegramUser();
    const id = (await book(t.app, spammer, bookingPayload(schedule.id))).json().record.id as number;
    const statuses: number[] = [];
    let refused = { detail: '' };
    for (let i = 0; i < 12; i++) {
      for (const url of [`/api/v1/records/cancel/${id}`, `/api/v1/records/restore/${id}`]) {
        const res = await t.app.inject({
          method: 'PUT',
          url,
          headers: tma(spammer),
          payload: url.includes('cancel') ? { cancel_reason: 'x' } : undefined,
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) refused = res.json();
      }
    }
    // One booking and 19 changes, then refusals.
    expect(statuses.slice(0, 19).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(19).every((s) => s === 429)).toBe(true);
    expect(refused.detail).toBe('Слишком много изменений записи за минуту. Подождите минуту и попробуйте снова.');
    // Reading is not limited, another customer books, staff restore the record.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(spammer) })).statusCode,
    ).toBe(200);
    expect((await book(t.app, telegramUser(), bookingPayload(schedule.id))).statusCode).toBe(201);
    // (The 19th change was a cancel.)
    const byStaff = await t.app.inject({ method: 'PUT', url: `/api/v1/records/restore/${id}`, headers: staff });
    expect(byStaff.statusCode).toBe(200);
  });

  it("answers 404 for someone else's booking, the same as for a missing one, and changes nothing", async () => {
    const { schedule } = await createSession(t.app, staff);
    const owner = telegramUser();
    const id = (await book(t.app, owner, bookingPayload(schedule.id))).json().record.id as number;
    const stranger = tma(telegramUser());
    const theirs = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/${id}`,
      headers: stranger,
      payload: { cancel_reason: 'x' },
    });
    const missing = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/cancel/999999`,
      headers: stranger,
      payload: { cancel_reason: 'x' },
    });
    expect([theirs.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(theirs.json()).toEqual(missing.json());
    const view = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(owner) });
    expect(view.json().record.state).toBe('ACTIVE');
  });

  it('an anonymous caller gets 401 before any field is checked', async () => {
    for (const [method, url, payload] of [
      ['POST', '/api/v1/workshops/', { title: '' }],
      ['POST', '/api/v1/records/', { people_count: 99 }],
      ['PATCH', '/api/v1/users/me', { email: 'not an email' }],
      ['GET', '/api/v1/users/not-a-number', undefined],
    ] as const) {
      const res = await t.app.inject({ method, url, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toHaveProperty('detail');
    }
  });

  it('sends Strict-Transport-Security only over https', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/v1/utils/health-check/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Development trusts no proxy: a forwarded protocol is not believed.
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/v1/utils/health-check/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    const prod = await production();
    try {
      const viaProxy = await prod.app.inject({
        method: 'GET',
        url: '/api/v1/utils/health-check/',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(viaProxy.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      const direct = await prod.app.inject({ method: 'GET', url: '/api/v1/utils/health-check/' });
      expect(direct.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await prod.close();
    }
  });

  it.runIf(isPostgres())(
    'password recovery answers before any work that depends on the email (same time for known and unknown)',
    async () => {
      // Hold the reset-token table: the work for a known email (a token row) would have to wait for it.
      const locker = new pg.Client({ connectionString: t.config.databaseUrl });
      await locker.connect();
      await locker.query('begin');
      await locker.query('lock table password_resets in access exclusive mode');
      try {
        const started = Date.now();
        const res = await t.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${t.superuser.email}` });
        expect(res.statusCode).toBe(200);
        expect(Date.now() - started).toBeLessThan(1000);
      } finally {
        await locker.query('rollback');
        await locker.end();
      }
    },
  );

  it.runIf(!isPostgres())(
    'password recovery answers before any work that depends on the email (SQLite: while another connection writes)',
    async () => {
      // Another connection holds SQLite's write lock: a token row for a known email would have to wait for it.
      const locker = new SQLite(t.database.file!);
      locker.exec('begin immediate');
      try {
        const started = Date.now();
        const res = await t.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${t.superuser.email}` });
        expect(res.statusCode).toBe(200);
        expect(Date.now() - started).toBeLessThan(1000);
      } finally {
        locker.exec('rollback');
        locker.close();
      }
      // The work still happens, after the answer.
      await expect
        .poll(async () => (await t.database.db.selectFrom('password_resets').selectAll().execute()).length)
        .toBeGreaterThan(0);
    },
  );
});

describe('slow and malformed requests on a listening server', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({
      timeouts: { requestTimeout: 1000, headersTimeout: 1000, checkInterval: 100, keepAliveTimeout: 300 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Sends raw bytes and collects everything the server answers until it closes the connection. */
  function rawExchange(send: (socket: net.Socket) => void, limitMs = 10_000) {
    return new Promise<{ text: string; ms: number }>((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1', () => send(socket));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('error', () => {});
      socket.on('close', () => resolve({ text, ms: Date.now() - started }));
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`still open after ${limitMs} ms: ${text}`));
      }, limitMs);
    });
  }
  const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

  it('closes a connection that trickles its body, with a 408 {"detail"}', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { text, ms } = await rawExchange((socket) => {
      socket.write(
        'POST /api/v1/login/access-token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n',
      );
      timer = setInterval(() => socket.writable && socket.write('a'), 100);
    });
    clearInterval(timer);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(text)).toEqual({ detail: 'Запрос не получен полностью вовремя' });
    expect(ms).toBeLessThan(5000);
  });

  it('closes an idle keep-alive connection after keepAliveTimeout', async () => {
    const { text, ms } = await rawExchange((socket) =>
      socket.write('GET /api/v1/utils/health-check/ HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'),
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(3000);
  });

  it('a 20 KB header answers 431 {"detail"}', async () => {
    const { text } = await rawExchange((socket) =>
      socket.write(`GET /api/v1/utils/health-check/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text).toMatch(/content-type: application\/json/i);
    expect(bodyOf(text)).toEqual({ detail: 'Заголовки запроса слишком большие' });
  });

  it('a malformed URL and an OPTIONS without Origin answer JSON, never Fastify or text/plain bodies', async () => {
    const bad = await fetch(`http://127.0.0.1:${port}/api/v1/schedule/%C0%AE`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: 'Некорректный адрес запроса' });
    const options = await fetch(`http://127.0.0.1:${port}/api/v1/workshops/`, { method: 'OPTIONS' });
    expect(options.headers.get('content-type') ?? '').not.toMatch(/text\/plain/);
    if (options.status >= 400) expect(await options.json()).toHaveProperty('detail');
    else expect(await options.text()).toBe('');
  });
});
