import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../contract';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

// Журнал names what it shows: the customer who acted, the booking, the session and the workshop a
// change moved between, never a bare id; session dates on the studio's clock (Europe/Belgrade).
let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const log = async (query: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/audit/?${query}`, headers: staff })).json<{
    data: AuditEntry[];
  }>().data;

describe('Журнал names things', () => {
  it("names the customer who acted and the booking, not their Telegram id or the record's id", async () => {
    const { schedule } = await createSession(t.app, staff, { date: '2030-03-05T17:00:00.000Z', capacity: 5 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id as number;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/records/${id}`,
      headers: tma(anna),
      payload: { people_count: 2 },
    });

    const [changed, created] = await log(`entity=record&entity_id=${id}`);
    expect(changed.action).toBe('people_changed');
    expect(changed.actor.name).toBe('Анна Петрова (клиент)');
    expect(changed.actor.name).not.toContain(String(anna.id));
    // 18:00 in Belgrade (UTC+1 in March).
    expect(changed.subject).toBe('Анна Петрова · Паста, 5 марта 2030 18:00');
    expect(created.names).toEqual({ [`schedule_id:${schedule.id}`]: 'Паста, 5 марта 2030 18:00' });
  });

  it('names the session, and the workshop and address a change moved it between', async () => {
    const first = await createSession(t.app, staff, { date: '2030-06-01T09:30:00.000Z' });
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workshops/',
      headers: staff,
      payload: { title: 'Суши', description: 'Роллы', price: 4000 },
    });
    const sushi = other.json<{ id: number }>().id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${first.schedule.id}`,
      headers: staff,
      payload: { workshop_id: sushi },
    });
    const [updated] = await log(`entity=schedule&entity_id=${first.schedule.id}`);
    expect(updated.subject).toBe('Суши, 1 июня 2030 11:30');
    expect(updated.names).toEqual({
      [`workshop_id:${first.workshop.id}`]: 'Паста',
      [`workshop_id:${sushi}`]: 'Суши',
    });

    // Deleted, the session is still named from what its entry remembers.
    await t.app.inject({ method: 'DELETE', url: `/api/v1/schedule/${first.schedule.id}`, headers: staff });
    const [deleted] = await log(`entity=schedule&entity_id=${first.schedule.id}`);
    expect(deleted.action).toBe('deleted');
    expect(deleted.subject).toBe('Суши, 1 июня 2030 11:30');
    const [workshop] = await log(`entity=workshop&entity_id=${sushi}`);
    expect(workshop.subject).toBe('Суши');
  });
});
