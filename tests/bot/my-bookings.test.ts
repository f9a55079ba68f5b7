import { expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { myBookings } from '../../core/views/my-bookings';
import { book, bookingPayload, createSession, inDays, telegramUser } from '../helpers/factories';
import { callbackUpdate, keyboardOf, plain, postUpdate, textUpdate, tgUser } from '../helpers/fake-telegram';
import { useBotApp, type BotApp } from './setup';

// The bot offers on a customer's bookings only what core allows (the same rule the commands refuse
// by), says why it refuses the rest, and reads the whole list in a constant number of queries.

let app: BotApp;
useBotApp((parts) => (app = parts));

const HOUR = 3_600_000;
const DEADLINE =
  'Изменить или отменить запись можно не позднее чем за 24 часа до начала мастер-класса. Свяжитесь со студией: @studio';

const send = async (update: unknown) => {
  const res = await postUpdate(app.t.app, app.t.config.webhookSecret, update);
  expect(res.statusCode).toBe(200);
};
const lastReply = (chatId: number) => app.fake.messages(chatId).at(-1)!;
const business = (payload: object) =>
  app.t.app.inject({ method: 'PUT', url: '/api/v1/business-settings/', headers: app.staff, payload });

/** A customer queued (second) in a session 10 hours away and booked in one 10 days away, inside a 24-hour deadline. */
async function soonAndLater() {
  expect((await business({ change_deadline_hours: 24, contact: '@studio' })).statusCode).toBe(200);
  const soon = (
    await createSession(app.t.app, app.staff, { capacity: 1, date: new Date(Date.now() + 10 * HOUR).toISOString() })
  ).schedule;
  const later = (await createSession(app.t.app, app.staff, { date: inDays(10) })).schedule;
  await book(app.t.app, telegramUser(), bookingPayload(soon.id));
  await book(app.t.app, telegramUser(), bookingPayload(soon.id));
  const customer = telegramUser();
  const queued = (await book(app.t.app, customer, bookingPayload(soon.id))).json().record.id as number;
  const active = (await book(app.t.app, customer, bookingPayload(later.id))).json().record.id as number;
  return { customer, u: tgUser(customer.id), queued, active };
}

it('/cancel offers only the bookings core allows to cancel and says why not the others (the change deadline)', async () => {
  const { u, queued, active } = await soonAndLater();

  await send(textUpdate(u, '/cancel'));
  const pick = lastReply(u.id);
  const text = plain(pick.params.text);
  expect(text.startsWith('Какую запись отменить?\n\nПаста, ')).toBe(true);
  expect(text.endsWith(`: ${DEADLINE}`)).toBe(true);
  const keyboard = keyboardOf(pick);
  expect(keyboard.map((row) => row[0].callback_data)).toEqual([`cancel:pick:${active}`, 'cancel:abort']);

  // The refused booking's button, forged, is refused as one not offered.
  await send(callbackUpdate(u, `cancel:pick:${queued}`));
  expect(app.fake.ok('answerCallbackQuery').at(-1)!.params.text).toBe(
    'Эта запись недоступна. Выберите запись кнопкой выше.',
  );
  await send(callbackUpdate(u, 'cancel:abort'));

  // Once the other one is cancelled, nothing is left to offer: the refusal still says why.
  const res = await app.t.app.inject({
    method: 'PUT',
    url: `/api/v1/records/cancel/${active}`,
    headers: app.staff,
    payload: { cancel_reason: 'По телефону' },
  });
  expect(res.statusCode).toBe(200);
  await send(textUpdate(u, '/cancel'));
  const none = plain(lastReply(u.id).params.text);
  expect(none.startsWith('У вас нет предстоящих записей, которые можно отменить.\n\nПаста, ')).toBe(true);
  expect(none.endsWith(`: ${DEADLINE}`)).toBe(true);
  expect(keyboardOf(lastReply(u.id))).toEqual([]);
});

it('/my offers "leave the queue" only where core allows it (not past the change deadline)', async () => {
  const { u, queued, active } = await soonAndLater();
  await send(textUpdate(u, '/my'));
  const msg = lastReply(u.id);
  expect(plain(msg.params.text)).toContain('⏳ В очереди (место 2) · 1 чел.');
  const keyboard = keyboardOf(msg);
  expect(keyboard.map((row) => row[0].web_app?.url)).toEqual([
    `https://studio.example/record/${queued}`,
    `https://studio.example/record/${active}`,
  ]);
  expect(JSON.stringify(keyboard)).not.toContain('queue:leave');

  // Without the deadline the same queued booking may leave the queue from here.
  await business({ change_deadline_hours: 0 });
  await send(textUpdate(u, '/my'));
  expect(keyboardOf(lastReply(u.id))).toContainEqual([
    { text: 'Выйти из очереди: 1', callback_data: `queue:leave:${queued}` },
  ]);
});

it("reads a customer's bookings in the same few queries whether they have one or five", async () => {
  await business({ change_deadline_hours: 0 });
  let queries = 0;
  const counting: KyselyPlugin = {
    transformQuery: (args) => {
      queries++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const db = app.t.database.db.withPlugin(counting);
  const customer = telegramUser();
  const count = async () => {
    queries = 0;
    const list = await myBookings(db, customer.id);
    return { queries, list };
  };

  const first = (await createSession(app.t.app, app.staff, { capacity: 1, date: inDays(20) })).schedule;
  await book(app.t.app, telegramUser(), bookingPayload(first.id));
  await book(app.t.app, customer, bookingPayload(first.id));
  const one = await count();
  expect(one.list.map((b) => [b.state, b.queue_position, b.allowed.leave_queue.ok])).toEqual([['QUEUED', 1, true]]);

  for (let i = 0; i < 4; i++) {
    const s = (await createSession(app.t.app, app.staff, { date: inDays(21 + i), price: 1000 })).schedule;
    await book(app.t.app, customer, bookingPayload(s.id, { people_count: 2 }));
  }
  const five = await count();
  expect(five.list).toHaveLength(5);
  expect(five.list.slice(1).map((b) => [b.state, b.queue_position, b.money.price, b.allowed.cancel.ok])).toEqual(
    Array(4).fill(['ACTIVE', null, 2000, true]),
  );
  expect(five.queries).toBeLessThanOrEqual(4);
  expect(five.queries).toBeLessThanOrEqual(one.queries);
});
