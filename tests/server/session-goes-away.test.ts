import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

/* A session with bookings or money is cancelled, never deleted; the cash desk names every row forever. */

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

beforeEach(async () => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/business-settings/',
    headers: staff,
    payload: { prepayment: 'none', refund_to: 'credit' },
  });
  expect(res.statusCode, res.body).toBe(200);
});

const remove = (id: number, query = '') =>
  t.app.inject({ method: 'DELETE', url: `/api/v1/schedule/${id}${query}`, headers: staff });
const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: staff });
const pay = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/payments`, headers: staff, payload });
const deskRow = async (paymentId: number) =>
  (await get('/payments/?limit=100')).json().payments.find((p: { id: number }) => p.id === paymentId);

describe('deleting a session', () => {
  it('with an open booking is refused (409, pointing to cancel): the session, its booking and its money stay', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 2500 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'card' });
    const del = await remove(schedule.id);
    expect(del.statusCode).toBe(409);
    expect(del.json().detail).toBe(
      'На этом занятии есть записи (1) или деньги по ним: удалить его нельзя. Отмените мастер-класс: записи останутся, клиентам сообщат причину и куда пошли их деньги.',
    );
    expect((await get(`/schedule/${schedule.id}`)).statusCode).toBe(200);
    expect((await get(`/records/${id}`)).json().money).toMatchObject({ amount_paid: 2500, status: 'paid' });
    const credit = await t.app.inject({ method: 'GET', url: '/api/v1/me/credit', headers: tma(anna) });
    expect(credit.json().balance).toBe(0);
  });

  it('with a booking nobody paid for yet is refused as well', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 1000 });
    await book(t.app, telegramUser(), bookingPayload(schedule.id));
    expect((await remove(schedule.id)).statusCode).toBe(409);
    expect((await get(`/schedule/${schedule.id}`)).json().records).toHaveLength(1);
  });

  it('whose bookings were cancelled with money on their ledger is refused; with none it goes', async () => {
    const { schedule } = await createSession(t.app, staff, { price: 1500 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    await pay(id, { method: 'cash' });
    const cancel = (user: ReturnType<typeof telegramUser>, recordId: number) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/records/cancel/${recordId}`,
        headers: tma(user),
        payload: { cancel_reason: 'Заболел' },
      });
    expect((await cancel(anna, id)).statusCode).toBe(200);
    expect((await remove(schedule.id)).statusCode).toBe(409);

    const other = (await createSession(t.app, staff, { price: 1500 })).schedule;
    const boris = telegramUser();
    const unpaid = (await book(t.app, boris, bookingPayload(other.id))).json().record.id;
    expect((await cancel(boris, unpaid)).statusCode).toBe(200);
    const empty = (await createSession(t.app, staff)).schedule;
    expect((await remove(other.id)).statusCode).toBe(200);
    expect((await remove(empty.id)).statusCode).toBe(200);
    expect((await get(`/schedule/${other.id}`)).statusCode).toBe(404);
  });
});

describe('the cash desk names every row', () => {
  it('with the customer and the session written on the row, kept after the booking is gone, blanked by erasure', async () => {
    const { schedule, workshop } = await createSession(t.app, staff, { price: 1800 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id, { name: 'Мария', last_name: 'Ковач' }))).json()
      .record.id;
    expect((await pay(id, { method: 'cash' })).statusCode).toBe(201);
    const row = await t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('record_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ customer_name: 'Мария Ковач', workshop_title: workshop.title });
    expect(new Date(row.session_date!).toISOString()).toBe(new Date(schedule.date).toISOString());
    expect(await deskRow(row.id)).toMatchObject({
      record_id: id,
      customer_name: 'Мария Ковач',
      workshop_title: workshop.title,
    });

    // A session removed by an earlier version (its bookings with it): the row still says whose and what.
    await t.database.db.deleteFrom('schedules').where('id', '=', schedule.id).execute();
    const gone = await deskRow(row.id);
    expect(gone).toMatchObject({ customer_name: 'Мария Ковач', workshop_title: workshop.title });
    expect(new Date(gone.schedule_date).toISOString()).toBe(new Date(schedule.date).toISOString());
    const csv = (await get('/payments/export.csv')).body;
    expect(csv).toContain(`;${id};Мария Ковач;${workshop.title};`);
  });

  it('an erased customer’s name leaves the rows; the workshop stays', async () => {
    const { schedule, workshop } = await createSession(t.app, staff, { price: 900 });
    const vera = telegramUser();
    const id = (await book(t.app, vera, bookingPayload(schedule.id, { name: 'Вера', last_name: 'Йованович' }))).json()
      .record.id;
    await pay(id, { method: 'card' });
    const forget = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/data', headers: tma(vera) });
    expect(forget.statusCode, forget.body).toBe(200);
    const rows = await t.database.db.selectFrom('payments').selectAll().where('record_id', '=', id).execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.customer_name).join(' ')).not.toContain('Вера');
    expect(rows.every((r) => r.workshop_title === workshop.title)).toBe(true);
    const desk = await deskRow(rows[0].id);
    expect(desk.customer_name).not.toContain('Вера');
    expect(desk.workshop_title).toBe(workshop.title);
  });
});
