import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordPublic } from '../../contract/records';
import type { SchedulePublic } from '../../contract/schedule';
import { isDisabled, mockApi, renderAdmin } from './setup';
import { ScheduleForm, defaultSessionInput } from '../../admin/src/forms/ScheduleForm';
import { ScheduleCard, countPeople } from '../../admin/src/components/ScheduleCard';
import { ScheduleList } from '../../admin/src/components/ScheduleList';
import { sortRecords } from '../../admin/src/components/RecordsTable';
import { UsersTable } from '../../admin/src/pages/Users';
import { ErrorFallback } from '../../admin/src/components/ErrorFallback';
import NotFound from '../../admin/src/pages/NotFound';
import { App } from '../../admin/src/App';
import { readConfig, DEFAULT_CONFIG } from '../../admin/src/config';
import { errorMessage } from '../../admin/src/api';
import { formatDateTime as formatSessionDate, fromZonedInput } from '../../contract/format';
import { capabilitiesOf } from '../../contract/roles';

const workshop = { id: 1, title: 'Паста', description: 'Тесто и соус', price: 3500 };
const address = { id: 1, title: 'Улица 1', map_link: 'https://m/1', description: 'Этаж 2' };
const address2 = { id: 2, title: 'Улица 2', map_link: 'https://m/2', description: null };

let nextId = 1;
type StaffRecord = SchedulePublic['records'][number];
const rec = (state: RecordPublic['state'], people: number, extra: Partial<StaffRecord> = {}): StaffRecord => ({
  id: nextId++,
  schedule_id: 9,
  state,
  name: `Гость${nextId}`,
  last_name: null,
  people_count: people,
  telegram_login: null,
  telegram_id: null,
  comment: null,
  has_allergy: false,
  allergy_type: null,
  source: null,
  is_first_time: true,
  cancel_reason: null,
  attendance: null,
  earlier_no_shows: 0,
  is_cancelled: state === 'CANCELLED',
  created_at: '2026-11-01T10:00:00.000Z',
  ...extra,
});

const session = (records: StaffRecord[], extra: Partial<SchedulePublic> = {}): SchedulePublic => ({
  id: 9,
  date: '2026-11-21T11:00:00.000Z',
  capacity: 8,
  workshop_id: 1,
  address_id: 1,
  workshop,
  address,
  records,
  places_available: 0,
  is_notified: false,
  ...extra,
});

describe('dates and config', () => {
  it("formats staff dates as 'd MMMM y H:mm' in the business zone", () => {
    expect(formatSessionDate('2026-11-21T11:00:00.000Z', 'Europe/Belgrade')).toBe('21 ноября 2026 12:00');
    expect(formatSessionDate('2026-07-01T06:05:00.000Z', 'Europe/Belgrade')).toBe('1 июля 2026 8:05');
  });
  it('defaults a new session to tomorrow at 12:00 and sends ISO with the offset', () => {
    expect(defaultSessionInput(new Date('2026-11-20T23:30:00Z'), 'Europe/Belgrade')).toBe('2026-11-22 12:00:00');
    expect(fromZonedInput('2026-11-22 12:00:00', 'Europe/Belgrade')).toBe('2026-11-22T12:00:00+01:00');
    expect(fromZonedInput('2026-07-01 12:00:00', 'Europe/Belgrade')).toBe('2026-07-01T12:00:00+02:00');
  });
  it('reads the runtime config with defaults', () => {
    expect(readConfig(document)).toEqual(DEFAULT_CONFIG);
    const meta = document.createElement('meta');
    meta.name = 'app-config';
    meta.content = JSON.stringify({
      businessName: 'Студия',
      businessTimezone: 'Europe/Moscow',
      botEnabled: true,
      basePath: '/s/pekarnya',
    });
    document.head.append(meta);
    expect(readConfig(document)).toEqual({
      businessName: 'Студия',
      businessTimezone: 'Europe/Moscow',
      botEnabled: true,
      basePath: '/s/pekarnya',
    });
    meta.content = JSON.stringify({ businessName: 'Студия', basePath: '/s/pekarnya/../admin' });
    expect(readConfig(document)).toEqual({ ...DEFAULT_CONFIG, businessName: 'Студия', basePath: '' });
    meta.content = '{broken';
    expect(readConfig(document)).toEqual(DEFAULT_CONFIG);
    meta.remove();
  });
  it('turns failures into readable messages', () => {
    expect(errorMessage(409, 'Conflict', { detail: 'Адрес используется' })).toBe('Адрес используется');
    expect(errorMessage(500, 'Internal Server Error', {})).toBe('Internal Server Error');
    expect(errorMessage(422, '', { detail: [{ msg: 'bad' }, { msg: 'worse' }] })).toBe('bad; worse');
    expect(errorMessage(418, "I'm a teapot", 'short and stout')).toBe("Ошибка 418 I'm a teapot: short and stout");
  });
});

describe('session card', () => {
  it('counts people by state (people_count, default 1), shows its seats and only the people badges above 0', () => {
    const records = [rec('ACTIVE', 3), rec('ACTIVE', 2), rec('QUEUED', 4), rec('CANCELLED', 1)];
    expect(countPeople(records)).toEqual({ active: 5, queued: 4, cancelled: 1 });
    renderAdmin(
      <ScheduleCard
        schedule={session(records)}
        onEdit={() => undefined}
        onDelete={() => undefined}
        onNotify={() => undefined}
      />,
    );
    expect(screen.getByText('Участники 5/8')).toBeTruthy();
    expect(screen.getByText('В очереди 4')).toBeTruthy();
    expect(screen.getByText('Отменили запись 1')).toBeTruthy();
    expect(screen.getByText('21 ноября 2026 12:00')).toBeTruthy();
    expect(screen.getByText('3 500 RSD')).toBeTruthy(); // the same price format as the mini-app and the bot
    expect(screen.getByText('Мест 8 · свободно 3')).toBeTruthy();
    // The workshop's description is the workshop's page's, not repeated on every session.
    expect(screen.queryByText('Описание')).toBeNull();
    expect(screen.queryByText('Тесто и соус')).toBeNull();
    expect(screen.getByText('Этаж 2')).toBeTruthy();
  });

  it('hides zero badges', () => {
    renderAdmin(
      <ScheduleCard schedule={session([rec('ACTIVE', 2)])} onEdit={() => undefined} onDelete={() => undefined} />,
    );
    expect(screen.getByText('Участники 2/8')).toBeTruthy();
    expect(screen.queryByText(/В очереди/)).toBeNull();
    expect(screen.queryByText(/Отменили запись/)).toBeNull();
    // the past list gets no notify button
    expect(screen.queryByRole('button', { name: 'Отправить уведомления' })).toBeNull();
  });

  it('lists bookings: columns, non-cancelled first, cancelled greyed, names open /record/{id} in a new tab', () => {
    const cancelled = rec('CANCELLED', 1, { name: 'Клара', cancel_reason: 'Заболела' });
    const active = rec('ACTIVE', 2, {
      name: 'Анна',
      last_name: 'Петрова',
      telegram_login: 'anna',
      comment: 'Окно',
      has_allergy: true,
      allergy_type: 'Орехи',
    });
    const queued = rec('QUEUED', 6, { name: 'Борис' });
    expect(sortRecords([cancelled, active, queued]).map((r) => r.name)).toEqual(['Анна', 'Борис', 'Клара']);
    renderAdmin(
      <ScheduleCard
        schedule={session([cancelled, active, queued])}
        onEdit={() => undefined}
        onDelete={() => undefined}
      />,
    );
    const table = screen.getByTestId('records-table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['', 'Имя', 'Количество', 'Telegram', 'Комментарий', 'Аллергия', 'Причина отмены']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-state'))).toEqual(['ACTIVE', 'QUEUED', 'CANCELLED']);
    expect(rows[2].getAttribute('data-cancelled')).toBe('true');
    expect(rows[0].getAttribute('data-cancelled')).toBeNull();
    // The name opens the staff view of the booking (tests/admin/booking-actions.test.tsx), not the customer's page.
    expect(within(rows[0]).getByRole('button', { name: 'Анна Петрова' })).toBeTruthy();
    expect(within(rows[0]).queryByRole('link', { name: 'Анна Петрова' })).toBeNull();
    expect(within(rows[0]).getByRole('link', { name: '@anna' }).getAttribute('href')).toBe('https://t.me/anna');
    expect(within(rows[0]).getByText('Орехи')).toBeTruthy();
    expect(within(rows[2]).getByText('Заболела')).toBeTruthy();
    expect(within(rows[0]).getByRole('img', { name: 'Активна' })).toBeTruthy();
    expect(within(rows[1]).getByRole('img', { name: 'В очереди' })).toBeTruthy();
    expect(within(rows[2]).getByRole('img', { name: 'Отменена' })).toBeTruthy();
  });

  it('the notify button turns red once sent', () => {
    renderAdmin(
      <ScheduleCard
        schedule={session([], { is_notified: true })}
        onEdit={() => undefined}
        onDelete={() => undefined}
        onNotify={() => undefined}
      />,
    );
    const bell = screen.getByRole('button', { name: 'Отправить уведомления' });
    expect(bell.getAttribute('data-notified')).toBe('true');
    expect(bell.getAttribute('style') ?? '').toContain('red');
  });
});

describe('schedule form', () => {
  it('adds: tomorrow 12:00, capacity 8, the first address; the workshop is required', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'POST /schedule/': { status: 201, body: { id: 1 } } });
    renderAdmin(
      <ScheduleForm
        opened
        onClose={() => undefined}
        workshops={[workshop]}
        addresses={[address, address2]}
        now={new Date('2026-11-20T09:00:00Z')}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Добавление мастер-класса в расписание' });
    expect((within(dialog).getByLabelText('Количество мест') as HTMLInputElement).value).toBe('8');
    expect((within(dialog).getByRole('textbox', { name: /^Дата/ }) as HTMLInputElement).value).toBe('21.11.2026');
    expect((within(dialog).getByRole('spinbutton', { name: 'Часы' }) as HTMLInputElement).value).toBe('12');
    expect((within(dialog).getByRole('spinbutton', { name: 'Минуты' }) as HTMLInputElement).value).toBe('00');
    expect((within(dialog).getByRole('combobox', { name: /^Адрес/ }) as HTMLInputElement).value).toBe('Улица 1');
    expect(within(dialog).getByText('Новый адрес можно добавить в разделе Настройки – Адреса')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Выберите мастер-класс')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('combobox', { name: /^Мастер-класс/ }));
    await user.click(await screen.findByRole('option', { name: 'Паста', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({
      date: '2026-11-21T12:00:00+01:00',
      capacity: 8,
      workshop_id: 1,
      address_id: 1,
      min_people: null,
    });
    expect(await screen.findByText('Мастер-класс добавлен в расписание')).toBeTruthy();
  });

  it('validates capacity on blur (minimum 0)', async () => {
    const user = userEvent.setup();
    renderAdmin(<ScheduleForm opened onClose={() => undefined} workshops={[workshop]} addresses={[address]} />);
    const dialog = await screen.findByRole('dialog');
    const capacity = within(dialog).getByLabelText('Количество мест');
    await user.clear(capacity);
    await user.type(capacity, '-1');
    await user.tab();
    expect(await within(dialog).findByText('Минимум 0')).toBeTruthy();
  });

  it('an empty date or capacity is refused with a Russian message', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({});
    renderAdmin(
      <ScheduleForm
        opened
        onClose={() => undefined}
        schedule={session([])}
        workshops={[workshop]}
        addresses={[address]}
      />,
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Очистить дату' }));
    await user.clear(within(dialog).getByLabelText('Количество мест'));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Укажите дату и время')).toBeTruthy();
    expect(within(dialog).getByText('Введите число')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('edits: Save disabled until something changes', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'PUT /schedule/9': { body: { id: 9 } } });
    renderAdmin(
      <ScheduleForm
        opened
        onClose={() => undefined}
        schedule={session([])}
        workshops={[workshop]}
        addresses={[address, address2]}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Редактирование расписания' });
    expect(isDisabled(screen.getByRole('button', { name: 'Сохранить' }))).toBe(true);
    const capacity = within(dialog).getByLabelText('Количество мест');
    await user.clear(capacity);
    await user.type(capacity, '10');
    expect(isDisabled(screen.getByRole('button', { name: 'Сохранить' }))).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({
      date: '2026-11-21T12:00:00+01:00',
      capacity: 10,
      workshop_id: 1,
      address_id: 1,
      min_people: null,
    });
    expect(await screen.findByText('Расписание обновлено')).toBeTruthy();
  });

  it('a session of a series: «Это и следующие» sends the edit with scope=following; a single session has no choice', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'PUT /schedule/9?scope=following': { body: { id: 9 } } });
    const single = renderAdmin(
      <ScheduleForm
        opened
        onClose={() => undefined}
        schedule={session([])}
        workshops={[workshop]}
        addresses={[address]}
      />,
    );
    await screen.findByRole('dialog', { name: 'Редактирование расписания' });
    expect(screen.queryByText('Это и следующие')).toBeNull();
    single.unmount();

    renderAdmin(
      <ScheduleForm
        opened
        onClose={() => undefined}
        schedule={session([], { series_id: 3 })}
        workshops={[workshop]}
        addresses={[address]}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Редактирование расписания' });
    await user.click(within(dialog).getByText('Это и следующие'));
    // The choice alone may be saved: the same values for this session and the later ones.
    expect(isDisabled(screen.getByRole('button', { name: 'Сохранить' }))).toBe(false);
    const capacity = within(dialog).getByLabelText('Количество мест');
    await user.clear(capacity);
    await user.type(capacity, '12');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect([calls[0].method, calls[0].path]).toEqual(['PUT', '/schedule/9?scope=following']);
    expect(calls[0].body).toMatchObject({ capacity: 12, workshop_id: 1, address_id: 1 });
    expect(await screen.findByText('Расписание обновлено')).toBeTruthy();
  });

  it('deleting a session of a series asks «Только это» / «Это и следующие» and sends the choice', async () => {
    const user = userEvent.setup();
    localStorage.setItem('access_token', 'tok');
    const { calls } = mockApi({
      'GET /users/me': {
        body: {
          id: 1,
          email: 'me@example.com',
          is_active: true,
          is_superuser: false,
          role: 'manager',
          capabilities: capabilitiesOf('manager'),
        },
      },
      'GET /schedule/?skip=0&limit=20': { body: { data: [session([], { series_id: 3 })], count: 1 } },
      // Nothing of anyone's on it: the server allows the delete, so the usual question is asked.
      'GET /schedule/9/removal': {
        body: {
          delete: { ok: true, detail: null },
          cancel: { ok: true, detail: null },
          bookings: 0,
          queued: 0,
          people: 0,
          without_telegram: 0,
          money: { paid: 0, to_certificates: 0, to_credit: 0, owed: 0 },
          refunds_owed: 0,
        },
      },
      'DELETE /schedule/9?scope=following': { body: { message: 'Schedule deleted successfully' } },
    });
    renderAdmin(<ScheduleList kind="upcoming" />);
    await user.click(await screen.findByRole('button', { name: 'Удалить' }));
    await screen.findByText('Паста — повторяющийся мастер-класс');
    const dialog = screen.getByRole('dialog', { name: 'Удаление' });
    expect(within(dialog).getByText('Только это')).toBeTruthy();
    await user.click(within(dialog).getByText('Это и следующие'));
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'DELETE')!.path).toBe('/schedule/9?scope=following');
  });
});

describe('users table', () => {
  it("marks the current user 'Вы', shows N/A, rights and status", () => {
    const users = [
      {
        id: 1,
        email: 'me@example.com',
        full_name: null,
        is_active: true,
        is_superuser: true,
        role: 'owner' as const,
        telegram_id: null,
        telegram_login: null,
      },
      {
        id: 2,
        email: 'cook@example.com',
        full_name: 'Мария',
        is_active: false,
        is_superuser: false,
        role: 'manager' as const,
        telegram_id: null,
        telegram_login: null,
      },
    ];
    renderAdmin(<UsersTable users={users} me={users[0]} onEdit={() => undefined} onDelete={() => undefined} />);
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['Имя', 'Email', 'Роль', 'Статус', 'Действия']);
    const [meRow, cookRow] = screen.getAllByRole('row').slice(1);
    expect(within(meRow).getByText('Вы')).toBeTruthy();
    expect(within(meRow).getByText('N/A')).toBeTruthy();
    expect(within(meRow).getByText('Владелец')).toBeTruthy();
    expect(within(meRow).getByText('Активен')).toBeTruthy();
    expect(within(cookRow).queryByText('Вы')).toBeNull();
    expect(within(cookRow).getByText('Менеджер')).toBeTruthy();
    expect(within(cookRow).getByText('Отключён')).toBeTruthy();
    expect(isDisabled(within(meRow).getByRole('button', { name: 'Удалить me@example.com' }))).toBe(true);
  });
});

describe('other screens', () => {
  it('the fallback error view toggles the message', async () => {
    const user = userEvent.setup();
    renderAdmin(<ErrorFallback error={new Error('kaput')} />);
    expect(screen.getByText('Something went wrong!')).toBeTruthy();
    expect(screen.queryByText('kaput')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show Error' }));
    expect(screen.getByText('kaput')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Hide Error' }));
    expect(screen.queryByText('kaput')).toBeNull();
  });

  it('the 404 screen', () => {
    renderAdmin(<NotFound />);
    expect(screen.getByText('404')).toBeTruthy();
    expect(screen.getByText('Oops!')).toBeTruthy();
    expect(screen.getByText('Page not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go back' }).getAttribute('href')).toBe('/');
  });

  it('without a token the staff area redirects to /login', async () => {
    mockApi({});
    window.history.replaceState(null, '', '/schedule');
    renderAdmin(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it('a logged-in user is sent from /login to /, sees the greeting and the menu', async () => {
    localStorage.setItem('access_token', 'tok');
    const { calls } = mockApi({
      'GET /users/me': {
        body: {
          id: 1,
          email: 'me@example.com',
          full_name: 'Ирина',
          is_active: true,
          is_superuser: false,
          telegram_id: null,
          telegram_login: null,
          capabilities: capabilitiesOf('manager'),
        },
      },
    });
    window.history.replaceState(null, '', '/login');
    renderAdmin(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(await screen.findByText('Здравствуйте, Ирина')).toBeTruthy();
    expect(screen.getByText('Logged in as: me@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Расписание' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Пользователи' })).toBeNull();
    expect(calls[0].headers.Authorization).toBe('Bearer tok');
  });

  it('a manager opening Журнал, Пользователи or Промокоды by its URL gets «Нет доступа» and asks the server nothing; the owner gets Журнал', async () => {
    localStorage.setItem('access_token', 'tok');
    const me = (role: 'manager' | 'owner') => ({
      id: 1,
      email: 'me@example.com',
      full_name: 'Ирина',
      is_active: true,
      is_superuser: role === 'owner',
      role,
      telegram_id: null,
      telegram_login: null,
      capabilities: capabilitiesOf(role),
    });
    // Журнал, Пользователи and Промокоды alike.
    for (const [url, link, api] of [
      ['/audit', 'Журнал', '/audit'],
      ['/admin', 'Пользователи', '/users/?'],
      ['/promo-codes', 'Промокоды', '/promo-codes'],
    ]) {
      const manager = mockApi({ 'GET /users/me': { body: me('manager') } });
      window.history.replaceState(null, '', url);
      const view = renderAdmin(<App />);
      const denied = await screen.findByTestId('no-access');
      expect(within(denied).getByRole('heading', { name: 'Нет доступа' })).toBeTruthy();
      expect(within(denied).getByText('Этот раздел доступен только владельцу студии.')).toBeTruthy();
      expect(screen.queryByRole('link', { name: link })).toBeNull();
      await act(async () => undefined);
      expect(manager.calls.map((c) => c.path).filter((p) => p.startsWith(api))).toEqual([]);
      view.unmount();
    }

    const owner = mockApi({
      'GET /users/me': { body: me('owner') },
      'GET /audit/?skip=0&limit=20&entity=&from=&to=': { body: { data: [], count: 0 } },
    });
    window.history.replaceState(null, '', '/audit');
    renderAdmin(<App />);
    expect(await screen.findByRole('heading', { name: 'Журнал изменений' })).toBeTruthy();
    expect(screen.queryByTestId('no-access')).toBeNull();
    await waitFor(() => expect(owner.calls.some((c) => c.path.startsWith('/audit/'))).toBe(true));
  });

  it('a 401 logs out', async () => {
    localStorage.setItem('access_token', 'expired');
    mockApi({ 'GET /users/me': { status: 401, body: { detail: 'Could not validate credentials' } } });
    window.history.replaceState(null, '', '/');
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAdmin(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(localStorage.getItem('access_token')).toBeNull();
    await act(async () => undefined);
    spy.mockRestore();
  });
});
