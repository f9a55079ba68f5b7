/**
 * The delivery benchmark: real server processes (server/main.ts) on one database deliver for one bot
 * through a loopback fake Bot API that enforces Telegram's flood limits with 429s (30 messages/s
 * overall, 1/s per private chat, 20/min per group). PostgreSQL: three instances behind a round-robin
 * client; SQLite: one (it is one instance).
 *  1. A reminder broadcast to 600 customers and one customer's chat flooded with 30 messages go out at
 *     once; 3 s in, an unrelated customer books (through the next instance) and waits for the
 *     confirmation. Rate of the 600 as a ratio of 30/s, 429s, the confirmation's delay.
 *  2. PostgreSQL: the broadcast again, and kill -9 of the sending instance after 300: every message
 *     delivered, duplicates counted.
 */
import os from 'node:os';
import { buildTestApp } from '../tests/helpers/app';
import { bookingPayload, createSession, inDays, telegramUser } from '../tests/helpers/factories';
import { startFakeTelegram, TELEGRAM_LIMITS } from '../tests/helpers/fake-telegram';
import { initDataFor } from '../tests/helpers/telegram';
import { startServerInstances, waitForSender, type ServerInstance } from '../tests/helpers/server-instances';
import { enqueueNotifications, listNotifications } from '../db/repositories/notifications';
import { insertRecord } from '../db/repositories/records';
import { withWriteTransaction } from '../db/lock';

export interface BenchRow {
  what: string;
  measured: string;
  budget: string;
  ok: boolean;
}

const BROADCAST = 600;
const FLOOD = 30;

export async function deliveryBench(): Promise<BenchRow[]> {
  const postgres = Boolean(process.env.TEST_DATABASE_URL);
  const fake = await startFakeTelegram({ limits: TELEGRAM_LIMITS });
  const t = await buildTestApp({ env: { ...fake.env, PUBLIC_URL: 'https://studio.example' } });
  let instances: ServerInstance[] = [];
  try {
    const staff = await t.auth();
    const { schedule } = await createSession(t.app, staff, { capacity: BROADCAST, date: inDays(3) });
    const { schedule: other } = await createSession(t.app, staff, { capacity: 10, date: inDays(4) });
    const customers = Array.from({ length: BROADCAST }, () => telegramUser());
    await withWriteTransaction(t.database, async (trx) => {
      for (const [i, c] of customers.entries())
        await insertRecord(trx, {
          schedule_id: schedule.id,
          state: 'ACTIVE',
          name: `Гость ${i}`,
          last_name: null,
          people_count: 1,
          telegram_login: null,
          telegram_id: c.id,
          comment: null,
          has_allergy: false,
          allergy_type: null,
          source: null,
          is_first_time: true,
        });
    });
    const flooder = telegramUser();
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/records/',
      headers: { authorization: `tma ${initDataFor(flooder)}` },
      payload: bookingPayload(other.id),
    });
    if (booked.statusCode !== 201) throw new Error(`booking: ${booked.statusCode} ${booked.body}`);
    const [floodRow] = await listNotifications(t.database.db, { chat_id: flooder.id });
    // The bookings' own confirmations are not part of the run.
    await t.database.db.updateTable('notifications').set({ status: 'sent' }).where('status', '=', 'pending').execute();

    // The flood (as 15 cancel/restore cycles would write it) and the broadcast, written before the instances
    // start and held back until they run, so that they become due at once.
    await enqueueNotifications(
      t.database.db,
      Array.from({ length: FLOOD }, () => ({
        chat_id: flooder.id,
        kind: floodRow.kind,
        payload: JSON.parse(floodRow.payload) as object,
      })),
    );
    const reminders = await t.app.inject({
      method: 'POST',
      url: `/api/v1/schedule/notify/${schedule.id}`,
      headers: staff,
    });
    if (reminders.statusCode !== 200) throw new Error(`reminders: ${reminders.statusCode} ${reminders.body}`);
    const dueAt = (at: Date) =>
      t.database.db
        .updateTable('notifications')
        .set({ next_attempt_at: at.toISOString() })
        .where('status', '=', 'pending')
        .execute();
    await dueAt(new Date(Date.now() + 3_600_000));

    instances = await startServerInstances(postgres ? 3 : 1, {
      databaseUrl: t.config.databaseUrl,
      telegramApiRoot: fake.url,
    });
    let turn = 0;
    /** The next instance, round robin. */
    const next = () => instances[turn++ % instances.length].url;
    const login = await fetch(`${next()}/api/v1/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: t.superuser.email, password: t.superuser.password }),
    });
    const auth = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
    const notify = async () => {
      const r = await fetch(`${next()}/api/v1/schedule/notify/${schedule.id}`, { method: 'POST', headers: auth });
      if (r.status !== 200) throw new Error(`reminders: ${r.status} ${await r.text()}`);
    };
    fake.reset();
    fake.latencyMs = 30; // Telegram answers in tens of milliseconds

    // 1. The broadcast and the flood due at once, then an unrelated booking 3 s in.
    await dueAt(new Date());
    await new Promise((r) => setTimeout(r, 3000));
    const latecomer = telegramUser();
    const bookedAt = Date.now();
    const late = await fetch(`${next()}/api/v1/records/`, {
      method: 'POST',
      headers: { authorization: `tma ${initDataFor(latecomer)}`, 'content-type': 'application/json' },
      body: JSON.stringify(bookingPayload(other.id)),
    });
    if (late.status !== 201) throw new Error(`latecomer: ${late.status} ${await late.text()}`);
    await fake.waitFor(() => fake.messages(latecomer.id).length === 1, 30_000);
    const confirmationMs = fake.messages(latecomer.id)[0].at - bookedAt;
    // Polled every 20 ms in the process that also runs the fake Bot API: one pass over the calls, so the
    // fake's own timing (what it counts against the limits) is not disturbed by the counting.
    const customerIds = new Set(customers.map((c) => c.id));
    const reminded = () => {
      const got = new Set<number>();
      for (const c of fake.calls)
        if (c.ok && c.method === 'sendMessage' && customerIds.has(Number(c.params.chat_id)))
          got.add(Number(c.params.chat_id));
      return got.size;
    };
    await fake.waitFor(() => reminded() === BROADCAST, 120_000);
    // From the first reminder sent to the last (writing the 600 rows is the request's work, not delivery's).
    const firstAt = new Map<number, number>();
    for (const c of fake.messages())
      if (customerIds.has(Number(c.params.chat_id)) && !firstAt.has(Number(c.params.chat_id)))
        firstAt.set(Number(c.params.chat_id), c.at);
    const broadcastS = (Math.max(...firstAt.values()) - Math.min(...firstAt.values())) / 1000;
    await fake.waitFor(() => fake.messages(flooder.id).length >= FLOOD, 120_000);
    const flood = fake.messages(flooder.id);
    const floodS = (flood[FLOOD - 1].at - flood[0].at) / 1000;
    const senders = instances.filter((i) => i.isSender()).length;
    const duplicates = fake.messages().length - (BROADCAST + FLOOD + 1);
    const ideal = (BROADCAST - 1) / TELEGRAM_LIMITS.perSecond;
    const ratio = ideal / broadcastS;
    const floodErrors = fake.floodErrors;
    // Which limit a 429 was for: the flooded chat's own (1/s) or the bot's (30/s overall).
    const limitedChats = fake.calls
      .filter((c) => c.error?.error_code === 429)
      .map((c) => (Number(c.params.chat_id) === flooder.id ? 'the flooded chat' : 'another chat'));
    const setup = postgres ? `${instances.length} instances on one PostgreSQL` : 'one instance on SQLite';
    const rows: BenchRow[] = [
      {
        what: `Broadcast: ${BROADCAST} reminders to ${BROADCAST} chats with one chat flooded by ${FLOOD}, ${setup} (fake Bot API enforcing Telegram's limits)`,
        measured: `${broadcastS.toFixed(1)} s vs ${ideal.toFixed(0)} s at 30/s = ${ratio.toFixed(2)} of the theoretical rate${postgres ? ` (${senders} instance sending)` : ''}`,
        budget: '≥ 0.8',
        ok: ratio >= 0.8,
      },
      {
        what: '429s received from the fake Bot API during the run',
        measured: `${floodErrors}${floodErrors ? ` (${limitedChats.join(', ')}; load average ${os.loadavg()[0].toFixed(1)})` : ''}`,
        budget: '0',
        ok: floodErrors === 0,
      },
      {
        what: 'Delay of an unrelated booking confirmation sent 3 s into the broadcast and flood',
        measured: `${confirmationMs} ms`,
        budget: '< 2,000 ms',
        ok: confirmationMs < 2000,
      },
      {
        what: `The flooded chat: ${FLOOD} messages at 1/s, each once`,
        measured: `first to last ${floodS.toFixed(1)} s, ${duplicates} duplicates`,
        budget: `≥ ${FLOOD - 1} s (1/s), 0 duplicates`,
        ok: floodS >= FLOOD - 1 && duplicates === 0,
      },
    ];

    // 2. kill -9 of the sending instance midway through the broadcast.
    if (postgres) {
      fake.reset();
      fake.latencyMs = 30;
      const from = Date.now();
      await notify();
      await fake.waitFor(() => reminded() >= BROADCAST / 2, 60_000);
      const sender = await waitForSender(instances);
      await sender.kill();
      const killedAt = Date.now();
      instances = instances.filter((i) => i !== sender);
      await waitForSender(instances, 10_000);
      await fake.waitFor(() => reminded() === BROADCAST, 120_000);
      const allS = (Date.now() - from) / 1000;
      const resumedS = ((fake.messages().find((c) => c.at > killedAt + 50)?.at ?? NaN) - killedAt) / 1000;
      const dup = fake.messages().length - BROADCAST;
      rows.push({
        what: `kill -9 of the sending instance after ${BROADCAST / 2} of ${BROADCAST} reminders: another takes over; every message delivered`,
        measured: `all ${BROADCAST} delivered in ${allS.toFixed(1)} s (sending again ${resumedS.toFixed(1)} s after the kill; the dead sender's claimed rows after their 30 s lease), ${dup} duplicates, ${fake.floodErrors} × 429`,
        budget: `all ${BROADCAST}, duplicates counted, 0 × 429`,
        ok: reminded() === BROADCAST && fake.floodErrors === 0,
      });
    }
    return rows;
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await t.close();
    await fake.close();
  }
}
