/**
 * The delivery benchmark: the outbox worker against a loopback fake Bot API that enforces
 * Telegram's flood limits with 429s (30 messages/s overall, 1/s per private chat, 20/min per group).
 * A reminder broadcast to 300 customers and one customer's chat flooded with 60 messages go out at
 * once; 3 s in, an unrelated customer books and waits for the confirmation.
 */
import { buildTestApp } from '../tests/helpers/app';
import { book, bookingPayload, createSession, inDays, telegramUser } from '../tests/helpers/factories';
import { startFakeTelegram, TELEGRAM_LIMITS } from '../tests/helpers/fake-telegram';
import { createOutboxFor } from '../bot/runtime';
import { enqueueNotifications, listNotifications } from '../db/repositories/notifications';

export interface BenchRow {
  what: string;
  measured: string;
  budget: string;
  ok: boolean;
}

const BROADCAST = 300;
const FLOOD = 60;
const quiet = { debug() {}, info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };

export async function deliveryBench(): Promise<BenchRow[]> {
  const fake = await startFakeTelegram({ limits: TELEGRAM_LIMITS });
  const t = await buildTestApp({ env: { ...fake.env, PUBLIC_URL: 'https://studio.example' } });
  try {
    const staff = await t.auth();
    const { schedule } = await createSession(t.app, staff, { capacity: BROADCAST, date: inDays(3) });
    const { schedule: other } = await createSession(t.app, staff, { capacity: 10, date: inDays(4) });
    const customers = Array.from({ length: BROADCAST }, () => telegramUser());
    for (const c of customers) await book(t.app, c, bookingPayload(schedule.id));
    const flooder = telegramUser();
    await book(t.app, flooder, bookingPayload(other.id));
    const [floodRow] = await listNotifications(t.database.db, { chat_id: flooder.id });
    // The bookings' own confirmations are not part of the run.
    await t.database.db.updateTable('notifications').set({ status: 'sent' }).where('status', '=', 'pending').execute();

    // The flood (as 30 cancel/restore cycles would write it), then the broadcast.
    await enqueueNotifications(
      t.database.db,
      Array.from({ length: FLOOD }, () => ({
        chat_id: flooder.id,
        kind: floodRow.kind,
        payload: JSON.parse(floodRow.payload) as object,
      })),
    );
    const notify = await t.app.inject({
      method: 'POST',
      url: `/api/v1/schedule/notify/${schedule.id}`,
      headers: staff,
    });
    if (notify.statusCode !== 200) throw new Error(`reminders: ${notify.statusCode} ${notify.body}`);
    fake.latencyMs = 30; // Telegram answers in tens of milliseconds

    const worker = createOutboxFor({ config: t.config, database: t.database, log: quiet });
    const started = Date.now();
    worker.start();
    await new Promise((r) => setTimeout(r, 3000));
    const latecomer = telegramUser();
    await book(t.app, latecomer, bookingPayload(other.id));
    const booked = Date.now();
    await fake.waitFor(() => fake.messages(latecomer.id).length === 1, 30_000);
    const confirmationMs = fake.messages(latecomer.id)[0].at - booked;
    const reminded = () => customers.filter((c) => fake.messages(c.id).length > 0).length;
    await fake.waitFor(() => reminded() === BROADCAST, 60_000);
    const broadcastS = (Math.max(...customers.map((c) => fake.messages(c.id)[0].at)) - started) / 1000;
    await fake.waitFor(() => fake.messages(flooder.id).length === FLOOD, 120_000);
    const floodS = (fake.messages(flooder.id)[FLOOD - 1].at - started) / 1000;
    await worker.stop();

    const duplicates = fake.messages().length - new Set(fake.messages().map((c) => c.params.chat_id)).size;
    const ideal = BROADCAST / TELEGRAM_LIMITS.perSecond;
    const ratio = ideal / broadcastS;
    return [
      {
        what: `Broadcast: ${BROADCAST} reminders to ${BROADCAST} chats with one chat flooded by ${FLOOD} (fake Bot API enforcing Telegram's limits)`,
        measured: `${broadcastS.toFixed(1)} s vs ${ideal.toFixed(0)} s at 30/s = ${ratio.toFixed(2)} of the theoretical rate`,
        budget: '≥ 0.8',
        ok: ratio >= 0.8,
      },
      {
        what: '429s received from the fake Bot API during the run',
        measured: `${fake.floodErrors}`,
        budget: '0',
        ok: fake.floodErrors === 0,
      },
      {
        what: 'Delay of an unrelated booking confirmation sent 3 s into the broadcast and flood',
        measured: `${confirmationMs} ms`,
        budget: '< 2,000 ms',
        ok: confirmationMs < 2000,
      },
      {
        what: `The flooded chat: ${FLOOD} messages at 1/s, each once`,
        measured: `last after ${floodS.toFixed(1)} s, ${duplicates - (FLOOD - 1)} duplicates`,
        budget: `≥ ${FLOOD - 1} s (1/s), 0 duplicates`,
        ok: floodS >= FLOOD - 1 && duplicates === FLOOD - 1,
      },
    ];
  } finally {
    await t.close();
    await fake.close();
  }
}
