import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordLedger } from '../../contract/money';
import type { SchedulePublic } from '../../contract/schedule';
import { mockApi, renderAdmin } from './setup';
import { RecordsTable } from '../../admin/src/components/RecordsTable';
import CashDesk from '../../admin/src/pages/CashDesk';
import { config } from '../../admin/src/config';
import { ledgerAllowed, sessionRowAllowed } from '../../core/booking/staff-allowed';
import { staffActor } from '../../core/kernel/actor';

/** What the server's rules allow a manager: the fixtures carry it as the API does. */
const MANAGER = staffActor({ id: 1, is_superuser: false, role: 'manager' }, 'Europe/Belgrade');

type StaffRecord = SchedulePublic['records'][number];
const rec = (id: number, payment: StaffRecord['payment'], extra: Partial<StaffRecord> = {}): StaffRecord =>
  withAllowed(bare(id, payment, extra));
const withAllowed = (r: StaffRecord): StaffRecord => ({
  ...r,
  allowed: sessionRowAllowed(MANAGER, { date: '2026-11-21T11:00:00.000Z' }, r),
});
const bare = (id: number, payment: StaffRecord['payment'], extra: Partial<StaffRecord> = {}): StaffRecord => ({
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
  payment,
  ...extra,
});

const ledger = (paid: number, price = 3500): RecordLedger => {
  const l = bareLedger(paid, price);
  return { ...l, allowed: ledgerAllowed(MANAGER, l.money) };
};
const bareLedger = (paid: number, price: number): Omit<RecordLedger, 'allowed'> => ({
  money: {
    price,
    unit_price: price,
    price_override: null,
    amount_due: price,
    amount_paid: paid,
    balance: price - paid,
    status: paid === 0 ? 'unpaid' : paid < price ? 'deposit_paid' : 'paid',
    required_now: 0,
    pay_by: null,
    paid_by_credit: 0,
    pay_now: price - paid,
  },
  payments:
    paid === 0
      ? []
      : [
          {
            id: 1,
            record_id: 1,
            amount: paid,
            method: 'cash',
            kind: 'payment',
            recorded_by_kind: 'staff',
            recorded_by_user_id: 1,
            telegram_payment_charge_id: null,
            provider_payment_charge_id: null,
            note: null,
            at: '2026-11-20T10:00:00.000Z',
            receipt: null,
          },
        ],
  receipts: [],
  fiscal: { mode: 'off', training: false },
});

describe('payments on the booking table', () => {
  it('shows the payment badge of each booking and records the balance from the payment dialog', async () => {
    let paid = 0;
    const { calls } = mockApi({
      'GET /records/1/payments': () => ({ body: ledger(paid) }),
      'POST /records/1/payments': () => {
        paid = 3500;
        return { status: 201, body: ledger(paid) };
      },
    });
    renderAdmin(
      <RecordsTable
        records={[
          rec(1, { price: 3500, amount_paid: 0, balance: 3500, status: 'unpaid' }),
          rec(2, { price: 3500, amount_paid: 1000, balance: 2500, status: 'deposit_paid' }),
          rec(3, { price: 3500, amount_paid: 3500, balance: 0, status: 'paid' }),
          rec(4, { price: 3500, amount_paid: 3500, balance: -3500, status: 'refund_owed' }, { state: 'CANCELLED' }),
        ]}
      />,
    );
    expect(screen.getAllByTestId('payment-badge').map((b) => b.textContent)).toEqual([
      'Не оплачено',
      'Депозит',
      'Оплачено',
      'К возврату',
    ]);
    await userEvent.click(screen.getAllByTestId('payment-badge')[0]);
    const dialog = await screen.findByTestId('payment-dialog');
    expect(within(dialog).getByText('Оплат пока нет')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Принять оплату' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    // An empty amount lets the server take the whole balance.
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ method: 'cash', note: null });
    await waitFor(() => expect(within(screen.getByTestId('ledger')).getByText('Наличные')).toBeTruthy());
  });
});

describe('a booking made with a promo code', () => {
  it('the payment dialog shows the discount as a part of the price, not a payment', async () => {
    const discounted: RecordLedger = {
      ...ledger(0, 2800),
      money: { ...ledger(0, 2800).money, unit_price: 3500, discount: 700 },
      promo_code: 'VESNA20',
    };
    mockApi({ 'GET /records/1/payments': () => ({ body: discounted }) });
    renderAdmin(<RecordsTable records={[rec(1, { price: 2800, amount_paid: 0, balance: 2800, status: 'unpaid' })]} />);
    await userEvent.click(screen.getByTestId('payment-badge'));
    const dialog = await screen.findByTestId('payment-dialog');
    const spaced = (el: HTMLElement) => el.textContent!.replace(/\s/g, ' ');
    expect(spaced(within(dialog).getByTestId('ledger-discount'))).toBe('Скидка по промокоду VESNA20: −700 RSD');
    expect(within(dialog).getByText('Оплат пока нет')).toBeTruthy();
  });

  it('says nothing of a discount when staff set the price by hand', async () => {
    const overridden: RecordLedger = {
      ...ledger(0, 3000),
      money: { ...ledger(0, 3000).money, unit_price: 3500, discount: 700, price_override: 3000 },
      promo_code: 'VESNA20',
    };
    mockApi({ 'GET /records/1/payments': () => ({ body: overridden }) });
    renderAdmin(<RecordsTable records={[rec(1, { price: 3000, amount_paid: 0, balance: 3000, status: 'unpaid' })]} />);
    await userEvent.click(screen.getByTestId('payment-badge'));
    const dialog = await screen.findByTestId('payment-dialog');
    expect(within(dialog).getByText(/изменена вручную/)).toBeTruthy();
    expect(within(dialog).queryByTestId('ledger-discount')).toBeNull();
  });
});

describe('Касса', () => {
  it('shows the totals, the rows and a CSV of the same filter', async () => {
    const day = (daysAgo: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: config.businessTimezone }).format(
        new Date(Date.now() - daysAgo * 86_400_000),
      );
    // The last 30 days of the studio's calendar by default.
    mockApi({
      [`GET /payments/?from=${day(30)}&to=${day(0)}&skip=0&limit=50`]: () => ({
        body: {
          totals: { cash: 3500, credit: -500 },
          received: 3500,
          refunded: 0,
          refunds_owed: 1200,
          credit_outstanding: 500,
          certificates: {
            sold: 5000,
            redeemed: 2000,
            expired: 700,
            voided: 300,
            outstanding: 3000,
            outstanding_places: 3,
            expired_places: 2,
            voided_places: 0,
          },
          payments: [
            { ...ledger(3500).payments[0], workshop_title: 'Паста', schedule_date: '2026-11-25T17:00:00.000Z' },
          ],
        },
      }),
    });
    renderAdmin(<CashDesk />);
    const totals = await screen.findByTestId('cash-totals');
    expect(within(totals).getByText('Получено')).toBeTruthy();
    expect(totals.textContent).toMatch(/К возврату1\s200\sRSD/);
    // Certificates: money received, money used, what holders are owed, what was written off.
    const certificates = screen.getByTestId('certificate-totals').textContent!.replace(/\s/g, ' ');
    expect(certificates).toContain('Продано сертификатов5 000 RSD');
    expect(certificates).toContain('Оплачено сертификатами2 000 RSD');
    // Places certificates' places apart: their value is known only when used.
    expect(certificates).toContain('Остаток на сертификатах3 000 RSD и 3 места');
    expect(certificates).toContain('Списано1 000 RSD и 2 места');
    expect(certificates).toContain('истекли 700 RSD и 2 места, аннулированы 300 RSD');
    const list = screen.getByTestId('cash-list');
    expect(within(list).getByText('Паста')).toBeTruthy();
    expect(within(list).getByText('Наличные')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Скачать CSV' })).toBeTruthy();
  });
});
