import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordMoney } from '../../contract/money';
import type { RecordPublic, RecordView } from '../../contract/records';
import type { ScheduleListItem, SessionBooking } from '../../contract/schedule';
import { capabilitiesOf, type Role } from '../../contract/roles';
import { mockApi, renderAdmin } from './setup';
import { ScheduleCard } from '../../admin/src/components/ScheduleCard';

/** What staff do with a booking in the admin: book a phone customer, change a party, adjust credit, read a booking. */

const FUTURE = '2099-12-05T17:00:00.000Z';

/** Anna's booking as it is read when opened (GET /records/1). */
const annaBooking: RecordPublic = {
  id: 1,
  schedule_id: 9,
  state: 'ACTIVE',
  name: 'Анна',
  last_name: null,
  people_count: 2,
  telegram_login: 'anna',
  telegram_id: 555,
  comment: 'Телефон: +381 64 1111111',
  has_allergy: false,
  allergy_type: null,
  source: 'instagram',
  is_first_time: true,
  cancel_reason: null,
  attendance: null,
  is_cancelled: false,
  created_at: '2026-11-01T10:00:00.000Z',
};

/** Her row as a session's list sends it: what the row shows; the rest is read when it is opened. */
const anna: SessionBooking = {
  id: 1,
  state: 'ACTIVE',
  name: 'Анна',
  last_name: null,
  people_count: 2,
  telegram_login: 'anna',
  telegram_id: 555,
  comment: 'Телефон: +381 64 1111111',
  has_allergy: false,
  allergy_type: null,
  cancel_reason: null,
  attendance: null,
  earlier_no_shows: 0,
  payment: { price: 7000, status: 'unpaid' },
  allowed: { checkin: { ok: false, detail: null }, pay: true },
};

const workshop = { id: 1, title: 'Паста', price: 3500 };
const address = { id: 1, title: 'Улица 1', map_link: 'https://m/1', description: null };

const session = (records: SessionBooking[]): ScheduleListItem => ({
  id: 9,
  date: FUTURE,
  capacity: 8,
  workshop_id: 1,
  address_id: 1,
  workshop,
  address,
  records,
  places_available: 6,
  is_notified: false,
});

const money = (people: number): RecordMoney => ({
  price: 3500 * people,
  unit_price: 3500,
  discount: 0,
  price_override: null,
  amount_due: 3500 * people,
  amount_paid: 0,
  balance: 3500 * people,
  status: 'unpaid',
  required_now: 0,
  pay_by: null,
  paid_by_credit: 0,
  pay_now: 3500 * people,
});

const view = (r: Partial<RecordPublic> = {}, people = 2): RecordView => {
  const permission = { ok: true, reason: null, detail: null };
  return {
    record: {
      ...annaBooking,
      ...r,
      people_count: people,
      schedule: { id: 9, date: FUTURE, capacity: 8, workshop: { ...workshop, description: null }, address },
    },
    places_available: 6,
    queue_position: null,
    allowed: {
      cancel: permission,
      restore: permission,
      change_people: permission,
      gift: permission,
      leave_queue: permission,
      confirm: permission,
      rate: permission,
    },
    money: money(people),
  };
};

const me = (role: Role) => ({
  body: {
    id: 1,
    email: 'me@example.com',
    is_active: true,
    is_superuser: role === 'owner',
    role,
    capabilities: capabilitiesOf(role),
  },
});

const signIn = () => localStorage.setItem('access_token', 'tok');

describe('staff booking for a customer who phones in', () => {
  it('sends the mini-app booking command with the phone in the comment, and says the price and the queue', async () => {
    signIn();
    const user = userEvent.setup();
    const { calls } = mockApi({
      'GET /users/me': me('manager'),
      'POST /records/': () => ({ status: 201, body: view({ id: 2, name: 'Иван', state: 'QUEUED' }, 3) }),
    });
    renderAdmin(<ScheduleCard schedule={session([])} />);
    await user.click(await screen.findByRole('button', { name: 'Записать клиента' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Записать клиента' }));
    // A phone customer has no Telegram credit to spend: no such checkbox.
    expect(dialog.queryByLabelText('Клиент согласился оплатить с баланса в студии')).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect(dialog.getByText('Укажите имя')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.type(dialog.getByRole('textbox', { name: /Имя/ }), 'Иван');
    await user.type(dialog.getByRole('textbox', { name: /Телефон/ }), '+381 64 2222222');
    const party = dialog.getByLabelText(/Количество человек/);
    await user.clear(party);
    await user.type(party, '3');
    await user.type(dialog.getByLabelText('Комментарий'), 'Придёт с сыном');
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      schedule_id: 9,
      name: 'Иван',
      people_count: 3,
      comment: 'Телефон: +381 64 2222222\nПридёт с сыном',
      is_first_time: false,
    });
    expect((await screen.findByText(/в очереди/)).textContent!.replace(/\s/g, ' ')).toBe(
      'Иван — в очереди (мест не хватает), 3 чел., цена 10 500 RSD',
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Записать клиента' })).toBeNull());
  });

  it('offers spending the studio credit only for a Telegram customer, and sends the agreement', async () => {
    signIn();
    const user = userEvent.setup();
    const { calls } = mockApi({
      'GET /users/me': me('manager'),
      'POST /records/': () => ({ status: 201, body: view({ id: 3, name: 'Вера' }, 1) }),
    });
    renderAdmin(<ScheduleCard schedule={session([])} />);
    await user.click(await screen.findByRole('button', { name: 'Записать клиента' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Записать клиента' }));
    await user.type(dialog.getByRole('textbox', { name: /Имя/ }), 'Вера');
    await user.click(dialog.getByRole('radio', { name: 'Telegram' }));
    await user.type(dialog.getByRole('textbox', { name: /Telegram/ }), '777000');
    await user.click(dialog.getByLabelText('Клиент согласился оплатить с баланса в студии'));
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      name: 'Вера',
      telegram_id: 777000,
      use_credit: true,
      comment: null,
    });
  });

  it('is not offered for a session that has passed', async () => {
    signIn();
    mockApi({ 'GET /users/me': me('manager') });
    renderAdmin(<ScheduleCard schedule={{ ...session([]), date: '2020-01-01T10:00:00.000Z' }} />);
    await screen.findByTestId('schedule-card');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: 'Записать клиента' })).toBeNull();
  });
});

// happy-dom leaves Mantine's menu in its opening transition: its items are read with `hidden: true`.
describe("a booking's row", () => {
  it('changes the party through the row menu; a refusal is shown and the dialog stays', async () => {
    signIn();
    const user = userEvent.setup();
    let refuse = true;
    const { calls } = mockApi({
      'GET /users/me': me('manager'),
      'GET /records/1': { body: { ...view(), places_available: 1 } },
      'PUT /records/1': (call) => {
        if (refuse) return { status: 409, body: { detail: 'Столько свободных мест нет' } };
        return { body: view({}, (call.body as { people_count: number }).people_count) };
      },
    });
    renderAdmin(<ScheduleCard schedule={session([anna])} />);
    await user.click(await screen.findByRole('button', { name: 'Действия с записью: Анна' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Изменить количество', hidden: true }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Количество человек: Анна' }));
    const input = dialog.getByLabelText('Количество человек');
    await user.clear(input);
    await user.type(input, '7');
    // Five more people than the one free seat: staff are told the booking would go to the queue.
    expect((await dialog.findByTestId('party-to-queue')).textContent).toMatch(
      /^Свободных мест: 1\. Запись целиком уйдёт в очередь/,
    );
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Столько свободных мест нет')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Количество человек: Анна' })).toBeTruthy();
    refuse = false;
    await user.clear(input);
    await user.type(input, '3');
    expect(dialog.queryByTestId('party-to-queue')).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect((await screen.findByText(/Анна: 3 чел\./)).textContent!.replace(/\s/g, ' ')).toBe(
      'Анна: 3 чел., цена 10 500 RSD',
    );
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { people_count: 7 },
      { people_count: 3 },
    ]);
  });

  it('lets the owner adjust the customer’s studio credit with a reason; a manager is not offered it', async () => {
    signIn();
    const user = userEvent.setup();
    const manager = mockApi({ 'GET /users/me': me('manager') });
    const first = renderAdmin(<ScheduleCard schedule={session([anna])} />);
    await waitFor(() => expect(manager.calls.some((c) => c.path === '/users/me')).toBe(true));
    await user.click(await screen.findByRole('button', { name: 'Действия с записью: Анна' }));
    await screen.findByRole('menuitem', { name: 'Изменить количество', hidden: true });
    expect(screen.queryByRole('menuitem', { name: 'Баланс клиента в студии', hidden: true })).toBeNull();
    first.unmount();
    localStorage.clear();

    signIn();
    const owner = mockApi({
      'GET /users/me': me('owner'),
      'POST /customers/555/credit': () => ({ body: { balance: 1500 } }),
    });
    renderAdmin(<ScheduleCard schedule={session([anna])} />);
    await user.click(await screen.findByRole('button', { name: 'Действия с записью: Анна' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Баланс клиента в студии', hidden: true }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Баланс в студии: Анна' }));
    await user.type(dialog.getByLabelText(/Сумма/), '-500');
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect(dialog.getByText('Укажите причину')).toBeTruthy();
    await user.type(dialog.getByLabelText(/Причина/), 'Ошибка кассы');
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect((await screen.findByText(/Баланс клиента в студии:/)).textContent!.replace(/\s/g, ' ')).toBe(
      'Баланс клиента в студии: 1 500 RSD',
    );
    expect(owner.calls.find((c) => c.method === 'POST')!.body).toEqual({ amount: -500, reason: 'Ошибка кассы' });
  });

  it('a click on the name opens the staff view: the booking, its customer, money, ledger and history', async () => {
    // The row comes from the list without the booking's source, first visit, date or amounts: the view reads them.
    signIn();
    const user = userEvent.setup();
    mockApi({
      'GET /users/me': me('manager'),
      'GET /records/1': { body: view() },
      'GET /records/1/payments': {
        body: {
          money: { ...money(2), amount_paid: 2000, balance: 5000, status: 'deposit_paid' },
          payments: [
            {
              id: 1,
              record_id: 1,
              kind: 'payment',
              method: 'cash',
              amount: 2000,
              at: '2026-11-02T10:00:00.000Z',
              note: 'Наличными у двери',
              provider_payment_charge_id: null,
            },
          ],
          promo_code: null,
          allowed: { pay: true, refund: false, override_price: true, methods: ['cash'] },
        },
      },
      'GET /records/1/history?limit=100': { body: { data: [], count: 0 } },
    });
    renderAdmin(<ScheduleCard schedule={session([anna])} />);
    await user.click(screen.getByRole('button', { name: 'Анна' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Запись №1: Анна' }));
    const booking = within(await drawer.findByTestId('booking-view'));
    expect(booking.getByText('Телефон: +381 64 1111111')).toBeTruthy();
    expect(booking.getByText('@anna')).toBeTruthy();
    expect(booking.getByText('Instagram')).toBeTruthy();
    expect(booking.getByText('1 ноября 2026 11:00')).toBeTruthy();
    const moneyPart = within(booking.getByTestId('booking-money'));
    await waitFor(() => expect(moneyPart.getByText('Наличными у двери')).toBeTruthy());
    expect(moneyPart.getByText('Депозит')).toBeTruthy();
    expect(moneyPart.getByText('2 000 RSD', { selector: 'p' })).toBeTruthy();
    expect(await booking.findByText('Изменений пока нет.')).toBeTruthy();
    // Its actions are the row's: the payment dialog opens from it.
    await user.click(booking.getByRole('button', { name: 'Оплата и цена' }));
    expect(await screen.findByRole('dialog', { name: 'Оплата: Анна' })).toBeTruthy();
  });
});
