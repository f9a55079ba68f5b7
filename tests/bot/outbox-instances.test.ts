import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { isPostgres } from '../helpers/db';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  startFakeTelegram,
  TELEGRAM_LIMITS,
  TOO_MANY,
  type FakeCall,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { startServerInstances, waitForSender, type ServerInstance } from '../helpers/server-instances';
import { enqueueNotifications, listNotifications } from '../../db/repositories/notifications';
import { botTestApp, SESSION_DATE } from './setup';

/*
 * Three real server processes on one PostgreSQL database deliver for one bot, against a fake Bot API
 * that answers 429 whenever Telegram's limits are exceeded (30 messages/s overall, 1/s per private
 * chat, 20/min per group): together they keep the limits, a global 429 pauses all of them, and when
 * the sending instance dies another takes over and every message is delivered. SQLite is one
 * instance, so this runs on PostgreSQL only.
 */

let fake: FakeTelegram;
let t: TestApp;
let instances: ServerInstance[] = [];
let payload: object;

beforeAll(async () => {
  if (!isPostgres()) return;
  fake = await startFakeTelegram({ limits: TELEGRAM_LIMITS });
  t = await botTestApp(fake);
  const staff = await t.auth();
  const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
  const c = telegramUser();
  await book(t.app, c, bookingPayload(schedule.id));
  const [row] = await listNotifications(t.database.db, { chat_id: c.id });
  payload = JSON.parse(row.payload) as object;
  await t.database.db.updateTable('notifications').set({ status: 'sent' }).where('status', '=', 'pending').execute();
  instances = await startServerInstances(3, { databaseUrl: t.config.databaseUrl, telegramApiRoot: fake.url });
}, 60_000);
afterAll(async () => {
  if (!isPostgres()) return;
  await Promise.all(instances.map((i) => i.stop()));
  await t.close();
  await fake.close();
});
beforeEach(() => fake?.reset());

let nextGroup = -1_002_000_000_000;
const chats = (n: number) => Array.from({ length: n }, () => telegramUser().id);
const enqueue = (chatIds: number[]) =>
  enqueueNotifications(
    t.database.db,
    chatIds.map((chat_id) => ({ chat_id, kind: 'record.booked', payload })),
  );
const sent = (chatId?: number) => fake.messages(chatId);
/** The most messages that arrived within any one second. */
function busiestSecond(calls: FakeCall[]) {
  const at = calls.map((c) => c.at).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    while (at[i] - at[j] >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe.skipIf(!isPostgres())('three instances on one PostgreSQL, one bot', () => {
  it('keep Telegram’s limits together: one instance sends at ≤ 30/s overall, 1/s per chat, 20/min per group; no 429', async () => {
    const customers = chats(150);
    const flooded = telegramUser().id;
    const group = nextGroup--;
    await enqueue([...customers, ...Array(8).fill(flooded), group, group]);
    await fake.waitFor(
      () => customers.every((c) => sent(c).length === 1) && sent(flooded).length === 8 && sent(group).length === 2,
      30_000,
    );
    expect(fake.floodErrors).toBe(0);
    expect(fake.calls.filter((c) => !c.ok)).toHaveLength(0);
    expect(busiestSecond(sent())).toBeLessThanOrEqual(30);
    const [g1, g2] = sent(group);
    expect(g2.at - g1.at).toBeGreaterThan(2900);
    // 160 messages at 28/s: not slower than about 6 s (three instances sending apart would not be slower either;
    // they would be three times faster and get 429s).
    const at = sent().map((c) => c.at);
    expect(Math.max(...customers.map((c) => sent(c)[0].at)) - Math.min(...at)).toBeLessThan(8000);
    expect(instances.filter((i) => i.isSender())).toHaveLength(1);
  }, 60_000);

  it('a global 429 pauses every instance for retry_after', async () => {
    const first = telegramUser().id;
    // Nothing was sent to this chat: its 429 is the bot's limit.
    fake.failNext('sendMessage', TOO_MANY(2), { chatId: first });
    await enqueue([first]);
    await fake.waitFor((calls) => calls.some((c) => c.error?.error_code === 429), 10_000);
    const others = chats(20);
    await enqueue(others);
    await fake.waitFor(() => others.every((c) => sent(c).length === 1) && sent(first).length === 1, 15_000);
    const limited = fake.calls.find((c) => c.error?.error_code === 429)!;
    const next = Math.min(...sent().map((c) => c.at));
    expect(next - limited.at).toBeGreaterThanOrEqual(1900);
    expect(fake.floodErrors).toBe(0);
  });

  it('kill -9 of the sending instance: another takes over at once, the dead one’s claims after their lease; every message delivered', async () => {
    const customers = chats(120);
    await enqueue(customers);
    await fake.waitFor(() => sent().length >= 30, 15_000);
    const sender = await waitForSender(instances);
    await sender.kill();
    const killedAt = Date.now();
    instances = instances.filter((i) => i !== sender);
    const next = await waitForSender(instances, 5000);
    await fake.waitFor(() => customers.every((c) => sent(c).length >= 1), 45_000);
    // Sending went on within a few seconds of the kill, not only after the dead sender's lease (30 s).
    const afterKill = sent().filter((c) => c.at > killedAt + 100);
    expect(afterKill.length).toBeGreaterThan(0);
    expect(afterKill[0].at - killedAt).toBeLessThan(4000);
    // Every row recorded as sent: one the dead sender sent but did not record is sent again after its lease.
    const allSent = async () =>
      (await listNotifications(t.database.db, { kind: 'record.booked' }))
        .filter((r) => customers.includes(Number(r.chat_id)))
        .every((r) => r.status === 'sent');
    while (!(await allSent()) && Date.now() - killedAt < 45_000) await new Promise((r) => setTimeout(r, 100));
    expect(await allSent()).toBe(true);
    // A message is sent twice only when Telegram answered it but the dead sender had not recorded it yet.
    const duplicates = customers.reduce((n, c) => n + sent(c).length - 1, 0);
    expect(duplicates).toBeLessThanOrEqual(2);
    expect(fake.floodErrors).toBe(0);

    // SIGTERM of the new sender: it gives its claims back and the last instance sends at once, each message once.
    fake.reset();
    const more = chats(60);
    await enqueue(more);
    await fake.waitFor(() => sent().length >= 10, 10_000);
    expect(await next.stop()).toBe(0);
    instances = instances.filter((i) => i !== next);
    const stoppedAt = Date.now();
    await fake.waitFor(() => more.every((c) => sent(c).length >= 1), 10_000);
    expect(Date.now() - stoppedAt).toBeLessThan(8000);
    expect(more.reduce((n, c) => n + sent(c).length - 1, 0)).toBe(0);
    expect(instances[0].isSender()).toBe(true);
  }, 150_000);
});
