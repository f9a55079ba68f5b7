import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SchedulePublic } from '../../contract/schedule';
import { mockApi, renderAdmin } from './setup';
import { ScheduleCard } from '../../admin/src/components/ScheduleCard';
import { formatMoney } from '../../contract/format';
import { changeLines } from '../../admin/src/components/AuditList';
import { Pager } from '../../admin/src/components/Pager';
import { sessionRowAllowed } from '../../core/booking/staff-allowed';
import { staffActor } from '../../core/kernel/actor';

/** What the server's rules allow a manager: the fixtures carry it as the API does. */
const MANAGER = staffActor({ id: 1, is_superuser: false, role: 'manager' }, 'Europe/Belgrade');

type StaffRecord = SchedulePublic['records'][number];
const rec = (id: number, extra: Partial<StaffRecord> = {}): StaffRecord => ({
  id,
  schedule_id: 9,
  state: 'ACTIVE',
  name: `Гость ${id}`,
  last_name: null,
  people_count: 1,
  telegram_login: null,
  telegram_id: id,
  comment: null,
  has_allergy: false,
  allergy_type: null,
  source: null,
  is_first_time: false,
  cancel_reason: null,
  attendance: null,
  earlier_no_shows: 0,
  is_cancelled: false,
  created_at: '2026-11-01T10:00:00.000Z',
  ...extra,
});
const session = (date: string, records: StaffRecord[]): SchedulePublic => ({
  id: 9,
  date,
  capacity: 8,
  workshop_id: 1,
  address_id: 1,
  workshop: { id: 1, title: 'Паста', description: null, price: 3500, duration_minutes: 180 },
  address: { id: 1, title: 'Улица 1', map_link: 'https://m/1', description: null, latitude: null, longitude: null },
  records: records.map((r) => ({ ...r, allowed: sessionRowAllowed(MANAGER, { date }, r) })),
  places_available: 7,
  is_notified: false,
});
const noop = () => undefined;

describe('check-in and no-shows on the schedule card', () => {
  it('offers check-in from an hour before the start, marks a participant, and shows earlier no-shows', async () => {
    const { calls } = mockApi({ 'PUT /records/1/attendance': { body: {} } });
    const soon = new Date(Date.now() + 30 * 60_000).toISOString();
    renderAdmin(
      <ScheduleCard
        schedule={session(soon, [rec(1, { earlier_no_shows: 2, has_allergy: true, allergy_type: 'орехи' })])}
        onEdit={noop}
        onDelete={noop}
      />,
    );
    expect(screen.getByTestId('earlier-no-shows').textContent).toBe('2 неявки');
    await userEvent.click(screen.getByRole('button', { name: 'Отметить посещение' }));
    const row = screen.getByTestId('check-in-row');
    expect(within(row).getByText('Аллергия: орехи')).toBeTruthy();
    await userEvent.click(within(row).getByText('Не пришёл'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ attendance: 'NO_SHOW' });
  });

  it('has no check-in before the hour, but the chef’s CSV button always', () => {
    renderAdmin(
      <ScheduleCard
        schedule={session(new Date(Date.now() + 3 * 3_600_000).toISOString(), [rec(2)])}
        onEdit={noop}
        onDelete={noop}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Отметить посещение' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Список участников (CSV)' })).toBeTruthy();
    expect(screen.queryByTestId('earlier-no-shows')).toBeNull();
  });
});

describe('history views', () => {
  it('reads a log entry as "field: before → after" in Russian, only the fields that changed', () => {
    expect(
      changeLines({ before: { state: 'QUEUED', people_count: 2 }, after: { state: 'ACTIVE', people_count: 2 } }),
    ).toEqual(['Статус: В очереди → Участник']);
    expect(changeLines({ before: null, after: { id: 3, attendance: 'NO_SHOW' } })).toEqual(['Посещение: Не пришёл']);
  });

  it('names ids, says money, statuses and dates in Russian on the studio clock', () => {
    expect(
      changeLines({
        before: { schedule_id: 3, amount_paid: 0, status: 'unpaid' },
        after: { schedule_id: 4, amount_paid: 3500, status: 'paid', method: 'cash', payment_id: 9 },
        names: { 'schedule_id:3': 'Паста, 5 марта 2030 18:00' },
      }),
    ).toEqual([
      'Занятие: Паста, 5 марта 2030 18:00 → удалено',
      `Оплачено: ${formatMoney(0)} → ${formatMoney(3500)}`,
      'Оплата: Не оплачено → Оплачено',
      'Способ: Наличные',
    ]);
    expect(
      changeLines({ before: null, after: { date: '2030-06-01T09:30:00.000Z', description: null, title_en: '' } }),
    ).toEqual(['Дата: 1 июня 2030 11:30']);
  });

  it('pages say which rows they show and hide the buttons for a single page', () => {
    const first = renderAdmin(<Pager page={2} pageSize={20} total={1500} onChange={noop} />);
    expect(screen.getByText('21–40 из 1500')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Страница 75' })).toBeTruthy();
    first.unmount();
    renderAdmin(<Pager page={1} pageSize={20} total={3} onChange={noop} />);
    expect(screen.getByText('1–3 из 3')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Страница 1' })).toBeNull();
  });
});
