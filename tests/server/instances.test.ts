import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { freshDatabaseUrl, isPostgres } from '../helpers/db';
import {
  startFakeTelegram,
  successfulPaymentUpdate,
  textUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { bookingPayload, inDays } from '../helpers/factories';
import { parseMetrics } from '../helpers/prometheus';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { initDataFor, TEST_BOT_TOKEN } from '../helpers/telegram';

// Three real server processes (server/main.ts) on one PostgreSQL database, each reaching it through
// its own TCP proxy on loopback (so one can lose the database while the cluster runs on), and the
// fake Bot API. A client that rotates across them meets every limit once; each webhook update, each
// payment and each job's work happens once; a SIGTERM loses nothing; readiness tells a load balancer
// the truth.

const SECRET_KEY = 'instances-test-secret-key-0123456789abcdef';
const WEBHOOK_SECRET = 'instances-webhook-secret';
const METRICS_TOKEN = 'instances-metrics-token-0123456789';
const PASSWORD = 'superuser-password-1';
const DRAIN_S = 1;

describe.runIf(isPostgres())('three instances on one PostgreSQL', () => {
  let fake: FakeTelegram;
  let database: Database;
  let databaseUrl: string;
  let drop: () => Promise<void>;
  const proxies: TcpProxy[] = [];
  const servers: ServerProcess[] = [];
  let staff: Record<string, string>;

  /** Requests rotate across the instances that are still running, as a round-robin balancer sends them. */
  let turn = 0;
  const running = () => servers.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
  const next = () => running()[turn++ % running().length];
  const api = (s: ServerProcess, path: string, init: RequestInit = {}) => fetch(`${s.url}/api/v1${path}`, init);
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  /**
   * Posts an update as Telegram does: sent again while an instance answers 503 (another instance is handling
   * a copy of it), until it is answered otherwise; that final status.
   */
  async function post(s: ServerProcess, update: unknown): Promise<number> {
    for (let i = 0; i < 100; i++) {
      const res = await api(
        s,
        '/telegram/webhook',
        json(update, { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET }),
      );
      if (res.status !== 503) return res.status;
      await new Promise((r) => setTimeout(r, 50));
    }
    return 503;
  }
  const customer = (id: number) => ({ authorization: `tma ${initDataFor({ id })}` });
  const scrape = async (s: ServerProcess) => {
    const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    return parseMetrics(await res.text());
  };
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 15_000) => {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const sessionAt = async (date: string, capacity = 8) => {
    // Any instance still running (an earlier test stops one).
    const s = running()[0];
    const w = await (await api(s, '/workshops/', json({ title: 'Паста', price: 3500 }, staff))).json();
    const a = await (await api(s, '/address/', json({ title: 'Адрес', map_link: 'https://m' }, staff))).json();
    const res = await api(s, '/schedule/', json({ date, capacity, workshop_id: w.id, address_id: a.id }, staff));
    expect(res.status).toBe(201);
    return (await res.json()).id as number;
  };

  beforeAll(async () => {
    fake = await startFakeTelegram();
    const fresh = await freshDatabaseUrl();
    drop = fresh.drop;
    // Not migrated: the three instances start together on the new database, as compose starts them.
    database = createDb(fresh.url);
    databaseUrl = fresh.url;
    const server = new URL(fresh.url);
    for (let i = 0; i < 3; i++)
      proxies.push(await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) }));
    const started = await Promise.allSettled(
      proxies.map((proxy) => {
        const url = new URL(fresh.url);
        url.hostname = '127.0.0.1';
        url.port = String(proxy.port);
        return startServerProcess({
          DATABASE_URL: url.href,
          SECRET_KEY,
          WEBHOOK_SECRET,
          METRICS_TOKEN,
          SHUTDOWN_DRAIN_S: String(DRAIN_S),
          SCHEDULER_TICK_S: '1',
          FIRST_SUPERUSER_PASSWORD: PASSWORD,
          BOT_TOKEN: TEST_BOT_TOKEN,
          TELEGRAM_API_ROOT: fake.url,
          LOG_LEVEL: 'warn',
          DIST_DIR: '/nonexistent-dist',
        });
      }),
    );
    // One that fails to start must not leave the others running.
    for (const r of started) if (r.status === 'fulfilled') servers.push(r.value);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const login = await api(servers[0], '/login/access-token', {
      method: 'POST',
      body: new URLSearchParams({ username: 'admin@example.com', password: PASSWORD }),
    });
    staff = { authorization: `Bearer ${(await login.json()).access_token}` };
  }, 150_000);

  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    for (const p of proxies) await p.close();
    await database?.close();
    await drop?.();
    await fake?.close();
  });

  it('a client rotating across the instances meets each limit once: logins, password recovery, a customer’s writes', async () => {
    const logins = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api(next(), '/login/access-token', {
          method: 'POST',
          body: new URLSearchParams({ username: `nobody${i}@example.com`, password: 'wrong-password' }),
        }).then((r) => r.status),
      ),
    );
    // 20 a minute from one address, the staff login at the start included.
    expect(logins.filter((s) => s === 400)).toHaveLength(19);
    expect(logins.filter((s) => s === 429)).toHaveLength(11);

    const recoveries = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        api(next(), `/password-recovery/someone${i}@example.com`, { method: 'POST' }).then((r) => r.status),
      ),
    );
    expect(recoveries.filter((s) => s === 429)).toHaveLength(4);
    expect(recoveries.filter((s) => s === 200)).toHaveLength(5);

    // One Telegram user's 30 writes (one booking, then refusals of the same booking): 20 pass, 10 are refused.
    const scheduleId = await sessionAt(inDays(5));
    const writes = await Promise.all(
      Array.from({ length: 30 }, () =>
        api(next(), '/records/', json(bookingPayload(scheduleId), customer(6_100_001))).then((r) => r.status),
      ),
    );
    expect(writes.filter((s) => s === 429)).toHaveLength(10);
    expect(writes.filter((s) => s === 201)).toHaveLength(1);
    expect(writes.filter((s) => s === 409)).toHaveLength(19);
  });

  it('the same webhook update posted to the three instances at once is handled once', async () => {
    const user = tgUser(6_200_001);
    const update = textUpdate(user, '/help');
    expect(await Promise.all(servers.flatMap((s) => [post(s, update), post(s, update)]))).toEqual([
      200, 200, 200, 200, 200, 200,
    ]);
    await fake.waitFor((calls) => calls.some((c) => Number(c.params.chat_id) === user.id));
    await new Promise((r) => setTimeout(r, 500));
    expect(fake.messages(user.id)).toHaveLength(1);
    // A new update is handled as usual.
    expect(await post(servers[1], textUpdate(user, '/help'))).toBe(200);
    await fake.waitFor((calls) => calls.filter((c) => Number(c.params.chat_id) === user.id).length === 2);
  });

  it('the scheduler of three instances writes each reminder once, and each is delivered once', async () => {
    const scheduleId = await sessionAt(new Date(Date.now() + 2 * 3600_000).toISOString());
    const chats = [6_300_001, 6_300_002, 6_300_003];
    for (const id of chats)
      expect((await api(next(), '/records/', json(bookingPayload(scheduleId), customer(id)))).status).toBe(201);
    // Booked two days ago: the "3 hours before" reminder is due now, on every instance's next tick.
    await database.db
      .updateTable('records')
      .set({ active_since: new Date(Date.now() - 2 * 86_400_000).toISOString() })
      .where('schedule_id', '=', scheduleId)
      .execute();
    const reminders = () =>
      database.db
        .selectFrom('notifications')
        .select(['chat_id', 'status'])
        .where('kind', '=', 'schedule.reminder')
        .where('chat_id', 'in', chats)
        .execute();
    await until('the reminders sent', async () => {
      const rows = await reminders();
      return rows.length === 3 && rows.every((r) => r.status === 'sent');
    });
    await new Promise((r) => setTimeout(r, 2500)); // more ticks of every instance
    expect((await reminders()).map((r) => r.chat_id).sort()).toEqual(chats);
    for (const id of chats)
      expect(fake.messages(id).filter((m) => /Напоминаем/.test(String(m.params.text)))).toHaveLength(1);
  });

  it('/metrics of each instance: every named series, moving', async () => {
    const first = await Promise.all(servers.map(scrape));
    for (const m of first) {
      for (const name of [
        'outbox_pending_messages',
        'outbox_oldest_pending_age_seconds',
        'telegram_sends_total',
        'telegram_send_duration_seconds',
        'http_request_duration_seconds',
        'bookings',
        'scheduler_job_runs_total',
        'scheduler_job_failures_total',
        'process_cpu_user_seconds_total',
      ])
        expect(m.family(name), name).toBeDefined();
      // Read from the database: the same on every instance.
      expect(m.value('bookings', { state: 'ACTIVE' })).toBe(4);
    }
    const sum = (ms: typeof first, f: (m: (typeof first)[number]) => number | undefined) =>
      ms.reduce((n, m) => n + (f(m) ?? 0), 0);
    // The outbox's sends so far (the bot's own replies to /help are not the outbox's).
    const outboxSent = await database.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    expect(sum(first, (m) => m.value('telegram_sends_total', { result: 'ok' }))).toBe(Number(outboxSent.n));
    expect(
      sum(first, (m) =>
        m.count('http_request_duration_seconds', { route: '/api/v1/login/access-token', status: '429' }),
      ),
    ).toBe(11);
    expect(
      sum(first, (m) => m.count('http_request_duration_seconds', { route: '/api/v1/records/', status: '429' })),
    ).toBe(10);

    const scheduleId = await sessionAt(inDays(6));
    expect((await api(servers[2], '/records/', json(bookingPayload(scheduleId), customer(6_400_001)))).status).toBe(
      201,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const later = await Promise.all(servers.map(scrape));
    for (const [i, m] of later.entries()) {
      expect(m.value('bookings', { state: 'ACTIVE' })).toBe(5);
      expect(m.value('scheduler_job_runs_total', { job: 'reminders' })).toBeGreaterThan(
        first[i].value('scheduler_job_runs_total', { job: 'reminders' })!,
      );
    }
    await until('the new confirmation sent', async () =>
      (await Promise.all(servers.map(scrape))).some(
        (m, i) =>
          m.value('telegram_sends_total', { result: 'ok' })! >
          first[i].value('telegram_sends_total', { result: 'ok' })!,
      ),
    );
  });

  it('a payment delivered to the three instances, as the same update and again under new update ids, is recorded and told once', async () => {
    const scheduleId = await sessionAt(inDays(9));
    const payer = tgUser(6_700_001);
    const booked = await api(next(), '/records/', json(bookingPayload(scheduleId), customer(payer.id)));
    expect(booked.status).toBe(201);
    const recordId = (await booked.json()).record.id as number;
    // Telegram retries the update (same update_id); a payment reported again arrives under another one.
    const update = successfulPaymentUpdate(payer, `record:${recordId}`, 350_000, 'instances-charge-1');
    const statuses = await Promise.all(
      servers.flatMap((s, i) => [post(s, update), post(s, { ...update, update_id: update.update_id + 1000 + i })]),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    const ledger = await (await api(servers[1], `/records/${recordId}/payments`, { headers: staff })).json();
    expect(
      ledger.payments.filter(
        (p: { telegram_payment_charge_id: string | null }) => p.telegram_payment_charge_id === 'instances-charge-1',
      ),
    ).toMatchObject([{ amount: 3500, method: 'telegram' }]);
    // The customer hears of it once (the outbox row is written once, by the one instance that recorded it).
    const told = () => fake.messages(payer.id).filter((m) => /Оплата/.test(String(m.params.text)));
    await until('the payment told', async () => told().length > 0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(told()).toHaveLength(1);
  });

  it('SIGTERM to the sending instance under load: readiness 503 at once, in-flight requests finish, every message sent once', async () => {
    // 40 customers book two sessions each: 80 confirmations, 2 per chat, paced at one a second per chat.
    fake.latencyMs = 50;
    const a = await sessionAt(inDays(7));
    const b = await sessionAt(inDays(8));
    const customers = Array.from({ length: 40 }, (_, i) => 6_500_000 + i);
    const booked = await Promise.all(
      customers.flatMap((id) => [a, b].map((s) => api(next(), '/records/', json(bookingPayload(s), customer(id))))),
    );
    expect(booked.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);

    // The instance sending right now (one sends for the bot at a time).
    let sender: ServerProcess | undefined;
    await until('an instance sending', async () => {
      const before = await Promise.all(servers.map(scrape));
      await new Promise((r) => setTimeout(r, 300));
      const after = await Promise.all(servers.map(scrape));
      const i = after.findIndex(
        (m, k) =>
          m.value('telegram_sends_total', { result: 'ok' })! >
          before[k].value('telegram_sends_total', { result: 'ok' })!,
      );
      sender = servers[i];
      return i >= 0;
    });
    const others = servers.filter((s) => s !== sender);

    // A booking whose body is still arriving when the signal comes, and finishes after the drain.
    const body = JSON.stringify(bookingPayload(a));
    const slow = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${sender!.url}/api/v1/records/`, {
        method: 'POST',
        headers: {
          ...customer(6_600_001),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => req.end(body.slice(20)), (DRAIN_S + 0.8) * 1000);
    });
    await new Promise((r) => setTimeout(r, 100));
    sender!.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 150));
    const ready = await api(sender!, '/utils/ready');
    expect(ready.status).toBe(503);
    expect((await ready.json()).detail).toMatch(/останавливается/);
    for (const s of others) expect((await api(s, '/utils/ready')).status).toBe(200);
    // During the drain it still answers what reaches it.
    expect((await api(sender!, '/schedule/public')).status).toBe(200);

    const finished = await slow;
    expect(finished.status, finished.body).toBe(201);
    expect(await sender!.exited).toBe(0);

    // The others deliver the rest: every row sent, each exactly once.
    const rows = () =>
      database.db
        .selectFrom('notifications')
        .select(['id', 'chat_id', 'status'])
        .where('chat_id', 'in', [...customers, 6_600_001])
        .execute();
    await until('every confirmation sent', async () => (await rows()).every((r) => r.status === 'sent'), 30_000);
    const all = await rows();
    expect(all).toHaveLength(81);
    for (const id of [...customers, 6_600_001]) {
      const texts = fake.messages(id).map((m) => String(m.params.text));
      expect(texts, `chat ${id}`).toHaveLength(all.filter((r) => r.chat_id === id).length);
      expect(new Set(texts).size, `chat ${id}`).toBe(texts.length);
    }
  });

  it('readiness answers 503 while an instance cannot reach the database, and 200 again when it can', async () => {
    // Each instance still running in turn, the outbox's sender among them (it holds a connection for its lock).
    for (const cut of running()) {
      const other = running().find((s) => s !== cut)!;
      const proxy = proxies[servers.indexOf(cut)];
      expect((await api(cut, '/utils/ready')).status).toBe(200);
      await proxy.cut();
      try {
        await until('readiness 503', async () => (await api(cut, '/utils/ready')).status === 503, 5000);
        const res = await api(cut, '/utils/ready');
        expect(await res.json()).toEqual({ detail: 'База данных недоступна' });
        expect((await api(other, '/utils/ready')).status).toBe(200);
        expect((await api(cut, '/utils/health-check/')).status).toBe(200); // alive, only not ready
      } finally {
        await proxy.restore();
      }
      await until('readiness 200 again', async () => (await api(cut, '/utils/ready')).status === 200, 10_000);
      expect(cut.child.exitCode).toBeNull();
    }
  });

  /*
   * A charge is never lost to an instance that fails while handling it. The instance is caught inside the
   * payment's transaction (a test connection holds the session's row lock), then killed or cut off from the
   * database; Telegram, having no 200, sends the update again to another instance.
   */
  async function stalledPayment(chargeId: string, payerId: number) {
    const scheduleId = await sessionAt(inDays(10));
    const payer = tgUser(payerId);
    const booked = await api(next(), '/records/', json(bookingPayload(scheduleId), customer(payer.id)));
    expect(booked.status).toBe(201);
    const recordId = (await booked.json()).record.id as number;
    const update = successfulPaymentUpdate(payer, `record:${recordId}`, 350_000, chargeId);
    return { scheduleId, recordId, update };
  }
  const charged = async (recordId: number, chargeId: string) => {
    const ledger = await (await api(running()[0], `/records/${recordId}/payments`, { headers: staff })).json();
    return ledger.payments.filter(
      (p: { telegram_payment_charge_id: string | null }) => p.telegram_payment_charge_id === chargeId,
    );
  };
  /** Runs `stall` while instance `s` is stuck inside the update's handling, holding the session's lock meanwhile. */
  async function whileHandling(
    s: ServerProcess,
    scheduleId: number,
    update: { update_id: number },
    stall: () => Promise<void>,
  ) {
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from schedules where id = $1 for update', [scheduleId]);
      const answer = api(s, '/telegram/webhook', json(update, { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET }))
        .then((r) => r.status)
        .catch(() => 'no answer' as const);
      await until('the update taken', async () =>
        Boolean(
          await database.db
            .selectFrom('telegram_updates')
            .select('update_id')
            .where('update_id', '=', update.update_id)
            .executeTakeFirst(),
        ),
      );
      await stall();
      await holder.query('rollback');
      return await answer;
    } finally {
      await holder.end();
    }
  }
  /** As if the lease of the failed instance had run out (it is a minute): the next delivery may take the update. */
  const leaseRunOut = (updateId: number) =>
    database.db
      .updateTable('telegram_updates')
      .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
      .where('update_id', '=', updateId)
      .execute();

  it('a payment whose database connection drops mid-handling is answered non-2xx and recorded once when Telegram sends it again', async () => {
    const { scheduleId, recordId, update } = await stalledPayment('instances-charge-cut', 6_800_001);
    const [cut, other] = running();
    const proxy = proxies[servers.indexOf(cut)];
    const status = await whileHandling(cut, scheduleId, update, () => proxy.cut());
    await proxy.restore();
    expect(status).not.toBe(200);
    expect(await charged(recordId, 'instances-charge-cut')).toHaveLength(0);
    await leaseRunOut(update.update_id);
    expect(await Promise.all([post(other, update), post(cut, update)])).toEqual([200, 200]);
    expect(await charged(recordId, 'instances-charge-cut')).toMatchObject([{ amount: 3500, method: 'telegram' }]);
  });

  it('a payment whose instance is killed (kill -9) mid-handling is recorded once by another instance when Telegram sends it again', async () => {
    const { scheduleId, recordId, update } = await stalledPayment('instances-charge-killed', 6_800_002);
    const [victim, other] = running();
    const status = await whileHandling(victim, scheduleId, update, async () => {
      victim.kill('SIGKILL');
      await victim.exited;
    });
    expect(status).toBe('no answer');
    expect(await charged(recordId, 'instances-charge-killed')).toHaveLength(0);
    // While the dead instance's lease runs, Telegram is told to come back later.
    expect(
      (await api(other, '/telegram/webhook', json(update, { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET })))
        .status,
    ).toBe(503);
    await leaseRunOut(update.update_id);
    expect(await post(other, update)).toBe(200);
    expect(await post(other, update)).toBe(200);
    expect(await charged(recordId, 'instances-charge-killed')).toMatchObject([{ amount: 3500, method: 'telegram' }]);
  });
});
