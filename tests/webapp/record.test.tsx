import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordView } from '../../contract';
import {
  launchHash,
  mockApi,
  openApp,
  recordView,
  resetEnvironment,
  session,
  telegramEvents,
  receiveTelegramEvent,
} from './utils';

beforeEach(() => resetEnvironment());

const PAST = '2020-03-01T10:00:00.000Z';
/** A booking of a session that has started: the server allows nothing of it. */
const past = (over: Partial<RecordView['record']> = {}) =>
  recordView({ ...over, schedule: { ...recordView().record.schedule, date: PAST } });

function open(view: RecordView, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /records/15': () => ({ body: view }), ...routes });
  openApp(`/record/15${launchHash()}`);
  return api;
}

const button = (name: string) => screen.getByRole('button', { name });
const noButton = (name: string) => expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();

describe('/record/{id}: what it shows', () => {
  it('shows a spinner while loading, then heading, business name, session, address with map link and the booking', async () => {
    const meta = document.createElement('meta');
    meta.name = 'app-config';
    meta.content = JSON.stringify({
      businessName: 'Кухня &amp; Ко',
      businessTimezone: 'Europe/Belgrade',
      botEnabled: true,
    });
    document.head.append(meta);
    let release: () => void = () => undefined;
    const { fetchMock } = mockApi({
      'GET /records/15': () => new Promise((r) => (release = () => r({ body: recordView() }))),
    });
    openApp(`/record/15${launchHash()}`);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByRole('progressbar', { name: 'Загрузка записи' })).toBeInTheDocument();
    act(() => release());
    expect(await screen.findByRole('heading', { name: 'Ваша запись на мастер-класс' })).toBeInTheDocument();
    expect(screen.getByText('Кухня &amp; Ко')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('Хинкали и хачапури');
    expect(main).toHaveTextContent('21/11/2030 · 12:00');
    expect(main).toHaveTextContent('Нови Сад, Змај Јовина 12');
    expect(main).toHaveTextContent('Вход со двора');
    expect(screen.getByRole('link', { name: 'На карте' })).toHaveAttribute('href', 'https://maps.example.com/?q=1');
    expect(main).toHaveTextContent('Анна Петрова');
    expect(main).toHaveTextContent('Да: орехи');
    expect(main).toHaveTextContent('Будем с ребёнком');
    expect(screen.getByTestId('people-count')).toHaveTextContent('2');
    button('Изменить количество человек');
    button('Отменить запись');
    button('Закрыть');
    noButton('Восстановить запись');
    expect(screen.queryByText('Запись неактивна')).not.toBeInTheDocument();
    expect(screen.queryByText('Запись была отменена')).not.toBeInTheDocument();
  });

  it('no allergy reads "Нет"', async () => {
    open(recordView({ has_allergy: false, allergy_type: null, comment: null }));
    expect(await screen.findByText('Нет')).toBeInTheDocument();
    expect(screen.queryByText('Комментарий')).not.toBeInTheDocument();
  });

  it('a past session: "Запись неактивна" and no actions', async () => {
    open(past());
    expect(await screen.findByText('Запись неактивна')).toBeInTheDocument();
    noButton('Изменить количество человек');
    noButton('Отменить запись');
    noButton('Восстановить запись');
    button('Закрыть');
  });

  it('a past cancelled booking cannot be restored', async () => {
    open(past({ state: 'CANCELLED', is_cancelled: true, cancel_reason: 'Заболела' }));
    expect(await screen.findByText('Запись неактивна')).toBeInTheDocument();
    noButton('Восстановить запись');
  });

  it('a cancelled booking: "Запись была отменена" with the reason, and only restore', async () => {
    open(recordView({ state: 'CANCELLED', is_cancelled: true, cancel_reason: 'Заболела' }));
    expect(await screen.findByText('Запись была отменена')).toBeInTheDocument();
    expect(screen.getByText('Причина: Заболела')).toBeInTheDocument();
    button('Восстановить запись');
    noButton('Изменить количество человек');
    noButton('Отменить запись');
  });

  it('a queued booking: the queue notice with the position', async () => {
    open(recordView({ state: 'QUEUED' }, { queue_position: 3, places_available: 0 }));
    expect(await screen.findByText('Запись в очереди')).toBeInTheDocument();
    expect(screen.getByText(/поэтому запись поставлена в очередь/)).toBeInTheDocument();
    expect(screen.getByTestId('queue-position')).toHaveTextContent('Ваше место в очереди: 3');
  });

  it('a record that cannot be loaded redirects to /apply, without retrying', async () => {
    const { calls } = mockApi({
      'GET /records/15': () => ({ status: 403, body: { detail: 'Нет доступа' } }),
      'GET /schedule/public': () => ({ body: { data: [session()], count: 1 } }),
    });
    openApp(`/record/15${launchHash()}`);
    expect(await screen.findByTestId('session-7')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/apply');
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.filter((c) => c.path === '/records/15')).toHaveLength(1);
  });

  it('staff opening the page outside Telegram authenticate with the stored bearer token', async () => {
    localStorage.setItem('access_token', 'staff-token');
    const { calls } = mockApi({ 'GET /records/15': () => ({ body: recordView() }) });
    openApp('/record/15');
    await screen.findByText('Ваша запись на мастер-класс');
    expect(calls[0].headers.Authorization).toBe('Bearer staff-token');
  });
});

describe('/record/{id}: actions', () => {
  it('only one panel is open at a time', async () => {
    const user = userEvent.setup();
    open(recordView());
    await user.click(await screen.findByRole('button', { name: 'Изменить количество человек' }));
    expect(screen.getByRole('region', { name: 'Изменить количество человек' })).toBeInTheDocument();
    await user.click(button('Отменить запись'));
    expect(screen.getByRole('region', { name: 'Отменить запись' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Изменить количество человек' })).not.toBeInTheDocument();
    await user.click(button('Изменить количество человек'));
    expect(screen.queryByRole('region', { name: 'Отменить запись' })).not.toBeInTheDocument();
    // Telegram's back button closes the panel.
    await waitFor(() => expect(telegramEvents).toContainEqual(['web_app_setup_back_button', { is_visible: true }]));
    act(() => receiveTelegramEvent('back_button_pressed'));
    await waitFor(() => expect(screen.queryByRole('region')).not.toBeInTheDocument());
  });

  it('the people stepper starts at the current count, runs 1..8, and warns when the increase exceeds the places available', async () => {
    const user = userEvent.setup();
    open(recordView({ people_count: 2 }, { places_available: 1 }));
    await user.click(await screen.findByRole('button', { name: 'Изменить количество человек' }));
    const panel = screen.getByRole('region', { name: 'Изменить количество человек' });
    const value = within(panel).getByTestId('stepper-value');
    expect(value).toHaveTextContent('2');
    expect(button('Сохранить')).toBeDisabled();
    const plus = within(panel).getByRole('button', { name: 'Увеличить' });
    const minus = within(panel).getByRole('button', { name: 'Уменьшить' });
    await user.click(plus); // +1 fits the one free seat
    expect(within(panel).queryByText(/запись будет поставлена в очередь/)).not.toBeInTheDocument();
    await user.click(plus); // +2 does not
    expect(within(panel).getByText(/запись будет поставлена в очередь, пока не освободятся места/)).toBeInTheDocument();
    for (let i = 0; i < 10; i++) if (!(plus as HTMLButtonElement).disabled) await user.click(plus);
    expect(value).toHaveTextContent('8');
    for (let i = 0; i < 10; i++) if (!(minus as HTMLButtonElement).disabled) await user.click(minus);
    expect(value).toHaveTextContent('1');
    expect(within(panel).queryByText(/поставлена в очередь/)).not.toBeInTheDocument();
  });

  it('saves the new count and shows the result', async () => {
    const user = userEvent.setup();
    const { calls } = open(recordView({ people_count: 2 }), {
      'PUT /records/15': ({ body }) => ({
        body: recordView({ people_count: (body as { people_count: number }).people_count }),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Изменить количество человек' }));
    await user.click(screen.getByRole('button', { name: 'Увеличить' }));
    await user.click(button('Сохранить'));
    expect(await screen.findByText('Количество человек изменено: 3.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ people_count: 3 });
    expect(screen.getByTestId('people-count')).toHaveTextContent('3');
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('a failed count change says so, with the server’s detail', async () => {
    const user = userEvent.setup();
    open(recordView(), { 'PUT /records/15': () => ({ status: 409, body: { detail: 'Мастер-класс уже прошёл' } }) });
    await user.click(await screen.findByRole('button', { name: 'Изменить количество человек' }));
    await user.click(screen.getByRole('button', { name: 'Увеличить' }));
    await user.click(button('Сохранить'));
    const toast = await screen.findByText('Не удалось изменить количество человек');
    expect(toast.closest('.toast')).toHaveTextContent('Мастер-класс уже прошёл');
    expect(screen.getByTestId('people-count')).toHaveTextContent('2');
  });

  it('cancel needs a non-empty reason, which is sent', async () => {
    const user = userEvent.setup();
    const { calls } = open(recordView(), {
      'PUT /records/cancel/15': ({ body }) => ({
        body: recordView({
          state: 'CANCELLED',
          is_cancelled: true,
          cancel_reason: (body as { cancel_reason: string }).cancel_reason,
        }),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Отменить запись' }));
    const confirm = button('Подтвердить отмену');
    expect(confirm).toBeDisabled();
    await user.type(screen.getByLabelText('Причина отмены'), '   ');
    expect(confirm).toBeDisabled();
    await user.type(screen.getByLabelText('Причина отмены'), 'Заболела');
    expect(confirm).not.toBeDisabled();
    await user.click(confirm);
    expect(await screen.findByText('Запись отменена')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/records/cancel/15')!.body).toEqual({ cancel_reason: 'Заболела' });
    expect(screen.getByText('Запись была отменена')).toBeInTheDocument();
    button('Восстановить запись');
  });

  it('a failed cancel says so', async () => {
    const user = userEvent.setup();
    open(recordView(), {
      'PUT /records/cancel/15': () => ({ status: 500, body: { detail: 'Internal Server Error' } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Отменить запись' }));
    await user.type(screen.getByLabelText('Причина отмены'), 'Заболела');
    await user.click(button('Подтвердить отмену'));
    expect(await screen.findByText('Не удалось отменить запись')).toBeInTheDocument();
    expect(screen.queryByText('Запись была отменена')).not.toBeInTheDocument();
  });

  it('restore, landing in the queue, and a failed restore', async () => {
    const user = userEvent.setup();
    let fail = true;
    open(recordView({ state: 'CANCELLED', is_cancelled: true, cancel_reason: 'x' }), {
      'PUT /records/restore/15': () =>
        fail
          ? { status: 409, body: { detail: 'Запись нельзя восстановить' } }
          : { body: recordView({ state: 'QUEUED' }, { queue_position: 1, places_available: 0 }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Восстановить запись' }));
    const err = await screen.findByText('Не удалось восстановить запись');
    expect(err.closest('.toast')).toHaveTextContent('Запись нельзя восстановить');
    fail = false;
    await user.click(button('Восстановить запись'));
    expect(await screen.findByText('Запись восстановлена. Запись в очереди.')).toBeInTheDocument();
    expect(screen.getByTestId('queue-position')).toHaveTextContent('Ваше место в очереди: 1');
  });

  it('Закрыть closes the mini-app', async () => {
    const user = userEvent.setup();
    open(recordView());
    await user.click(await screen.findByRole('button', { name: 'Закрыть' }));
    await waitFor(() => expect(telegramEvents.map((e) => e[0])).toContain('web_app_close'));
  });
});
