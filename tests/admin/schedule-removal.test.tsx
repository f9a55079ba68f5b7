import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SchedulePublic, ScheduleRemoval } from '../../contract/schedule';
import { mockApi, renderAdmin } from './setup';
import { ScheduleRemovalDialog } from '../../admin/src/components/ScheduleRemovalDialog';

/* «Удалить» and «Отменить мастер-класс» open the dialog the server's answer (GET /schedule/{id}/removal) fits. */

const session: SchedulePublic = {
  id: 9,
  date: '2099-12-05T17:00:00.000Z',
  capacity: 8,
  workshop_id: 1,
  address_id: 1,
  workshop: { id: 1, title: 'Паста', description: null, price: 3500 },
  address: { id: 1, title: 'Улица 1', map_link: 'https://m/1', description: null },
  records: [],
  places_available: 8,
  is_notified: false,
};

const yes = { ok: true, detail: null };
const nothing: ScheduleRemoval = {
  delete: yes,
  cancel: yes,
  bookings: 0,
  queued: 0,
  people: 0,
  without_telegram: 0,
  money: { paid: 0, to_certificates: 0, to_credit: 0, owed: 0 },
  refunds_owed: 0,
};
const booked: ScheduleRemoval = {
  ...nothing,
  delete: { ok: false, detail: 'На этом занятии есть записи (3) или деньги по ним: удалить его нельзя.' },
  bookings: 3,
  queued: 1,
  people: 2,
  without_telegram: 1,
  money: { paid: 7000, to_certificates: 0, to_credit: 3500, owed: 3500 },
  refunds_owed: 1500,
};
const KEPT = 'На этом занятии есть записи (1) или деньги по ним: удалить его нельзя. Оно остаётся в Истории.';

const open = (removal: ScheduleRemoval, intent: 'delete' | 'cancel') => {
  const api = mockApi({
    'GET /schedule/9/removal': { body: removal },
    'DELETE /schedule/9': { body: { message: 'ok' } },
  });
  renderAdmin(<ScheduleRemovalDialog schedule={session} intent={intent} onClose={() => undefined} />);
  return api;
};
const text = (el: HTMLElement) => el.textContent!.replace(/\s+/g, ' ').trim();
/** A money row: its label and its amount. */
const row = (el: HTMLElement) => [...el.children].map((c) => text(c as HTMLElement)).join(' ');
/** The dialog once the server's answer is in (a loader stands in for it until then). */
const dialogWith = async (testId: string, name: string) => {
  await screen.findByTestId(testId);
  return screen.getByRole('dialog', { name });
};

describe('the session removal dialog', () => {
  it('asks the plain question when nothing of anyone’s is on the session, and deletes', async () => {
    const api = open(nothing, 'delete');
    await screen.findByText('Вы действительно хотите удалить?');
    const dialog = screen.getByRole('dialog', { name: 'Удаление' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(api.calls.map((c) => `${c.method} ${c.path}`)).toContain('DELETE /schedule/9'));
  });

  it('offers the cancel for a session with bookings: the count, the queue, who is told and where the money goes', async () => {
    const api = open(booked, 'delete');
    const dialog = await dialogWith('cancel-money', 'Отменить мастер-класс?');
    expect(text(within(dialog).getByTestId('not-deleted'))).toMatch(/^Мастер-класс с записями или оплатами не удаляют/);
    expect(text(within(dialog).getByTestId('cancel-bookings'))).toBe(
      'Все записи (3) будут отменены, из них в очереди — 1. Клиенты получат в Telegram сообщение с причиной, другими датами и тем, куда пойдут их деньги. Клиентам без Telegram (1) сообщите об отмене сами.',
    );
    expect(within(dialog).getAllByTestId('money-row').map(row)).toEqual([
      'Оплачено по этим записям 7 000 RSD',
      'на баланс клиентов в студии 3 500 RSD',
      'к возврату клиентам 3 500 RSD',
    ]);
    expect(text(within(dialog).getByTestId('earlier-refunds'))).toBe(
      'По записям, отменённым раньше, клиентам ещё нужно вернуть 1 500 RSD.',
    );
    expect(within(dialog).queryByText('Вы действительно хотите удалить?')).toBeNull();
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('from «Отменить мастер-класс» says nothing of a delete; nothing paid, nothing to give back', async () => {
    open({ ...booked, money: nothing.money, refunds_owed: 0 }, 'cancel');
    const dialog = await dialogWith('cancel-money', 'Отменить мастер-класс?');
    expect(within(dialog).queryByTestId('not-deleted')).toBeNull();
    expect(text(within(dialog).getByTestId('cancel-money'))).toBe(
      'По этим записям ничего не оплачено: возвращать ничего не нужно.',
    );
  });

  it('a session that can be neither deleted nor cancelled says why and stays, with one way out', async () => {
    open(
      {
        ...booked,
        delete: { ok: false, detail: KEPT },
        cancel: { ok: false, detail: 'Мастер-класс уже прошёл: отменить его нельзя' },
        bookings: 1,
        money: { ...booked.money, paid: 3500 },
        refunds_owed: 0,
      },
      'delete',
    );
    const dialog = await dialogWith('session-kept', 'Удаление');
    const kept = within(dialog).getByTestId('session-kept');
    expect(text(kept)).toContain(KEPT);
    expect(text(kept)).toContain('Записей: 1, оплачено по ним: 3 500 RSD.');
    expect(within(dialog).queryByRole('button', { name: 'Удалить' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Понятно' })).toBeTruthy();
  });
});
