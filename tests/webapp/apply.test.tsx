import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within, act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RECORD_SOURCES } from '../../contract';
import {
  launchHash,
  mockApi,
  openApp,
  recordView,
  resetEnvironment,
  session,
  telegramEvents,
  TG_USER,
  receiveTelegramEvent,
} from './utils';

const schedule = (data = [session()]) => ({ 'GET /schedule/public': () => ({ body: { data, count: data.length } }) });

beforeEach(() => resetEnvironment());

async function toStep2(user = userEvent.setup(), hash = launchHash()) {
  openApp(`/apply${hash}`);
  await user.click(await screen.findByText('Хинкали и хачапури'));
  await screen.findByText('Контактные данные');
  return user;
}

describe('/apply step 1: the public schedule', () => {
  it('shows a loading state while the schedule loads', async () => {
    let release: () => void = () => undefined;
    mockApi({
      'GET /schedule/public': () => new Promise((r) => (release = () => r({ body: { data: [session()], count: 1 } }))),
    });
    openApp(`/apply${launchHash()}`);
    expect(screen.getByLabelText('Загрузка расписания')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Шаг 1 из 3')).toBeInTheDocument();
    act(() => release());
    expect(await screen.findByText('Хинкали и хачапури')).toBeInTheDocument();
  });

  it('lists sessions with title, d/MM/y and H:mm in the business timezone, price in RSD and seats left', async () => {
    mockApi(
      schedule([
        session(),
        session({
          id: 8,
          places_available: 0,
          date: '2030-07-05T16:30:00.000Z',
          workshop: { id: 2, title: 'Паста', description: null, price: 12000 },
        }),
      ]),
    );
    openApp(`/apply${launchHash()}`);
    const first = await screen.findByTestId('session-7');
    // 11:00 UTC in November is 12:00 in Belgrade (CET); 16:30 UTC in July is 18:30 (CEST).
    expect(first).toHaveTextContent('21/11/2030 · 12:00');
    expect(first).toHaveTextContent('3\u00a0500\u00a0RSD');
    expect(first).toHaveTextContent('Осталось 3 места');
    expect(first).toHaveTextContent('Нови Сад, Змај Јовина 12');
    const full = screen.getByTestId('session-8');
    expect(full).toHaveTextContent('5/07/2030 · 18:30');
    expect(full).toHaveTextContent('12\u00a0000\u00a0RSD');
    expect(full).toHaveTextContent('Мест нет — запись в очередь');
  });

  it('uses the business timezone from the injected config', async () => {
    const meta = document.createElement('meta');
    meta.name = 'app-config';
    meta.content = JSON.stringify({ businessName: 'Кухня', businessTimezone: 'Asia/Tokyo', botEnabled: true });
    document.head.append(meta);
    mockApi(schedule());
    openApp(`/apply${launchHash()}`);
    expect(await screen.findByTestId('session-7')).toHaveTextContent('21/11/2030 · 20:00');
  });

  it('shows the empty state', async () => {
    mockApi(schedule([]));
    openApp(`/apply${launchHash()}`);
    expect(await screen.findByText('На данный момент запись недоступна...')).toBeInTheDocument();
  });

  it('shows the error state and retries on demand', async () => {
    let fail = true;
    mockApi({
      'GET /schedule/public': () =>
        fail ? { status: 500, body: { detail: 'boom' } } : { body: { data: [session()], count: 1 } },
    });
    const user = userEvent.setup();
    openApp(`/apply${launchHash()}`);
    expect(await screen.findByText('Произошла ошибка при загрузке данных')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByText('Хинкали и хачапури')).toBeInTheDocument();
  });
});

describe('/apply step 2: the contact form', () => {
  it('goes back to step 1 with Telegram’s back button', async () => {
    mockApi(schedule());
    await toStep2();
    expect(screen.getByText('Шаг 2 из 3')).toBeInTheDocument();
    await waitFor(() => expect(telegramEvents).toContainEqual(['web_app_setup_back_button', { is_visible: true }]));
    act(() => receiveTelegramEvent('back_button_pressed'));
    expect(await screen.findByText('Выберите мастер-класс')).toBeInTheDocument();
    expect(screen.getByText('Шаг 1 из 3')).toBeInTheDocument();
  });

  it('outside Telegram shows its own back button and blocks submit: no Telegram user', async () => {
    mockApi(schedule());
    const user = userEvent.setup();
    await toStep2(user, '');
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось получить данные Telegram');
    expect(screen.getByRole('button', { name: 'Записаться' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Назад' }));
    expect(await screen.findByText('Выберите мастер-класс')).toBeInTheDocument();
  });

  it('blocks submit when the init data has no user', async () => {
    const { calls } = mockApi(schedule());
    const user = await toStep2(userEvent.setup(), launchHash({ user: false }));
    expect(screen.getByText(/Не удалось получить данные Telegram/)).toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Записаться' });
    expect(submit).toBeDisabled();
    await user.click(submit);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('requires the name and the first-time answer', async () => {
    const { calls } = mockApi(schedule());
    const user = await toStep2();
    const name = screen.getByLabelText('Имя');
    expect(name).toHaveValue(TG_USER.first_name); // prefilled from Telegram
    await user.clear(name);
    await user.type(name, '   ');
    await user.click(screen.getByRole('button', { name: 'Записаться' }));
    expect(await screen.findByText('Укажите имя')).toBeInTheDocument();
    expect(screen.getByText('Укажите, впервые ли вы у нас')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('people count stepper runs from 1 to 8 starting at 1', async () => {
    mockApi(schedule([session({ places_available: 8 })]));
    const user = await toStep2();
    const group = screen.getByRole('group', { name: 'Количество человек' });
    const value = within(group).getByTestId('stepper-value');
    const minus = within(group).getByRole('button', { name: 'Уменьшить' });
    const plus = within(group).getByRole('button', { name: 'Увеличить' });
    expect(value).toHaveTextContent('1');
    expect(minus).toBeDisabled();
    for (let i = 0; i < 10; i++) if (!(plus as HTMLButtonElement).disabled) await user.click(plus);
    expect(value).toHaveTextContent('8');
    expect(plus).toBeDisabled();
    await user.click(minus);
    expect(value).toHaveTextContent('7');
  });

  it('warns that the booking goes to the queue when the count exceeds the seats left', async () => {
    mockApi(schedule([session({ places_available: 2 })]));
    const user = await toStep2();
    expect(screen.queryByText(/Запись будет добавлена в очередь/)).not.toBeInTheDocument();
    const plus = screen.getByRole('button', { name: 'Увеличить' });
    await user.click(plus);
    expect(screen.queryByText(/Запись будет добавлена в очередь/)).not.toBeInTheDocument();
    await user.click(plus);
    expect(screen.getByText(/Свободных мест: 2\. Запись будет добавлена в очередь/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Встать в очередь' })).toBeInTheDocument();
  });

  it('a full session warns from the start', async () => {
    mockApi(schedule([session({ places_available: 0 })]));
    await toStep2();
    expect(screen.getByText(/Свободных мест нет\. Запись будет добавлена в очередь/)).toBeInTheDocument();
  });

  it('offers the six source options', async () => {
    mockApi(schedule());
    await toStep2();
    const group = screen.getByRole('radiogroup', { name: 'Откуда вы о нас узнали?' });
    const labels = within(group)
      .getAllByRole('radio')
      .map((r) => r.getAttribute('aria-label'));
    expect(labels).toEqual(Object.values(RECORD_SOURCES));
  });

  it('asks for the allergy type when there is an allergy, and submits the full payload with tma auth', async () => {
    const { calls } = mockApi({
      ...schedule(),
      'POST /records/': () => ({ status: 201, body: recordView({ people_count: 2 }) }),
    });
    const user = await toStep2();
    expect(screen.getByLabelText('Фамилия')).toHaveValue('Петрова');
    await user.clear(screen.getByLabelText('Фамилия'));
    await user.type(screen.getByLabelText('Фамилия'), ' Петрова ');
    await user.click(screen.getByRole('button', { name: 'Увеличить' }));
    expect(screen.queryByLabelText('На что аллергия')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Есть аллергия'));
    await user.click(screen.getByRole('button', { name: 'Записаться' }));
    expect(await screen.findByText('Укажите, на что аллергия')).toBeInTheDocument();
    await user.type(screen.getByLabelText('На что аллергия'), 'орехи');
    await user.click(screen.getByLabelText('Нет, уже был(а)'));
    await user.click(screen.getByLabelText('Instagram'));
    await user.type(screen.getByLabelText('Комментарий'), 'Будем с ребёнком');
    await user.click(screen.getByRole('button', { name: 'Записаться' }));
    expect(await screen.findByText('Вы записаны!')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/records/');
    expect(post.headers.Authorization).toMatch(/^tma auth_date=/);
    expect(post.body).toEqual({
      schedule_id: 7,
      name: 'Анна',
      last_name: 'Петрова',
      people_count: 2,
      comment: 'Будем с ребёнком',
      has_allergy: true,
      allergy_type: 'орехи',
      source: 'instagram',
      is_first_time: false,
      consent: true,
    });
  });
});

describe('/apply step 3 and failures', () => {
  async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>) {
    await user.click(screen.getByLabelText('Да, впервые'));
    await user.click(screen.getByRole('button', { name: /Записаться|Встать в очередь/ }));
  }

  it('success screen: Close closes the mini-app', async () => {
    mockApi({ ...schedule(), 'POST /records/': () => ({ status: 201, body: recordView() }) });
    const user = await toStep2();
    await fillAndSubmit(user);
    expect(await screen.findByText('Вы записаны!')).toBeInTheDocument();
    expect(screen.getByText('Шаг 3 из 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Закрыть' }));
    await waitFor(() => expect(telegramEvents.map((e) => e[0])).toContain('web_app_close'));
  });

  it('the confirmation names the price', async () => {
    const money = {
      price: 7000,
      unit_price: 3500,
      price_override: null,
      amount_due: 7000,
      amount_paid: 0,
      balance: 7000,
      status: 'unpaid' as const,
      required_now: 0,
      pay_by: null,
      paid_by_credit: 0,
      pay_now: 0,
    };
    mockApi({ ...schedule(), 'POST /records/': () => ({ status: 201, body: recordView({}, { money }) }) });
    const user = await toStep2();
    await fillAndSubmit(user);
    expect(await screen.findByText('Вы записаны!')).toBeInTheDocument();
    expect(await screen.findByText(/Подтверждение придёт в Telegram\. Стоимость: 7\s000\sRSD\./)).toBeInTheDocument();
  });

  it('a queued booking says so, with the queue position', async () => {
    mockApi({
      ...schedule([session({ places_available: 0 })]),
      'POST /records/': () => ({ status: 201, body: recordView({ state: 'QUEUED' }, { queue_position: 2 }) }),
    });
    const user = await toStep2();
    await fillAndSubmit(user);
    expect(await screen.findByText('Вы в очереди')).toBeInTheDocument();
    expect(screen.getByText(/Ваше место в очереди: 2/)).toBeInTheDocument();
  });

  it('a refused booking shows the server’s detail in the failure toast', async () => {
    mockApi({
      ...schedule(),
      'POST /records/': () => ({ status: 409, body: { detail: 'Вы уже записаны на этот мастер-класс' } }),
    });
    const user = await toStep2();
    await fillAndSubmit(user);
    const toast = await screen.findByText('Что-то пошло не так.');
    expect(toast.closest('.toast')).toHaveTextContent('Записаться не получилось. Вы уже записаны на этот мастер-класс');
    expect(screen.getByText('Контактные данные')).toBeInTheDocument(); // still on step 2
  });

  it('a server failure shows the generic booking toast', async () => {
    mockApi({ ...schedule(), 'POST /records/': () => ({ status: 500, body: { detail: 'Internal Server Error' } }) });
    const user = await toStep2();
    await fillAndSubmit(user);
    const toast = await screen.findByText('Что-то пошло не так.');
    expect(toast.closest('.toast')).toHaveTextContent('Записаться не получилось');
    expect(toast.closest('.toast')).not.toHaveTextContent('Internal');
  });
});
