import type { FastifyInstance } from 'fastify';
import type { AddressPublic, RecordCreate, SchedulePublic, WorkshopPublic } from '../../contract';
import { tma } from './telegram';

type Headers = Record<string, string>;

const ok = <T>(res: { statusCode: number; body: string; json(): T }, expected: number): T => {
  if (res.statusCode !== expected) throw new Error(`expected ${expected}, got ${res.statusCode}: ${res.body}`);
  return res.json();
};

export const inDays = (days: number, hour = 12) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};

/** A workshop, an address and a session on them, created through the staff API. */
export async function createSession(
  app: FastifyInstance,
  staff: Headers,
  opts: { capacity?: number; date?: string; price?: number } = {},
) {
  const workshop = ok<WorkshopPublic>(
    await app.inject({
      method: 'POST',
      url: '/api/v1/workshops/',
      headers: staff,
      payload: { title: 'Паста', description: 'Домашняя паста', price: opts.price ?? 3500 },
    }),
    201,
  );
  const address = ok<AddressPublic>(
    await app.inject({
      method: 'POST',
      url: '/api/v1/address/',
      headers: staff,
      payload: { title: 'Улица Кнеза Милоша 1', map_link: 'https://maps.example/1', description: 'Второй этаж' },
    }),
    201,
  );
  const schedule = ok<SchedulePublic>(
    await app.inject({
      method: 'POST',
      url: '/api/v1/schedule/',
      headers: staff,
      payload: {
        date: opts.date ?? inDays(3),
        capacity: opts.capacity ?? 8,
        workshop_id: workshop.id,
        address_id: address.id,
      },
    }),
    201,
  );
  return { workshop, address, schedule };
}

export const bookingPayload = (scheduleId: number, extra: Partial<RecordCreate> = {}): RecordCreate => ({
  schedule_id: scheduleId,
  name: 'Анна',
  last_name: 'Петрова',
  people_count: 1,
  comment: 'Без лука',
  has_allergy: false,
  source: 'instagram',
  is_first_time: true,
  consent: true,
  ...extra,
});

let nextTelegramId = 5_000_000;
export const telegramUser = (username?: string) => ({
  id: nextTelegramId++,
  username: username ?? `user${nextTelegramId}`,
  first_name: 'Анна',
});

/** A booking made from the mini-app by this Telegram user. */
export async function book(app: FastifyInstance, user: { id: number; username?: string }, payload: RecordCreate) {
  return app.inject({ method: 'POST', url: '/api/v1/records/', headers: tma(user), payload });
}
