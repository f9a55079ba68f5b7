import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordLedger } from '../../contract/money';
import type { SchedulePublic } from '../../contract/schedule';
import { mockApi, renderAdmin } from './setup';
import { RecordsTable } from '../../admin/src/components/RecordsTable';
import { ledgerAllowed, sessionRowAllowed } from '../../core/booking/staff-allowed';
import { staffActor } from '../../core/kernel/actor';

/** The payment dialog sets a staff price per person: it follows the party, and the dialog says so. */

const MANAGER = staffActor({ id: 1, is_superuser: false, role: 'manager' }, 'Europe/Belgrade');
type StaffRecord = SchedulePublic['records'][number];

const row = (): StaffRecord => {
  const r: StaffRecord = {
    id: 1,
    schedule_id: 9,
    state: 'ACTIVE',
    name: 'Анна',
    last_name: null,
    people_count: 3,
    telegram_login: null,
    telegram_id: 1,
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
    payment: { price: 9000, amount_paid: 0, balance: 9000, status: 'unpaid' },
  };
  return { ...r, allowed: sessionRowAllowed(MANAGER, { date: '2026-11-21T11:00:00.000Z' }, r) };
};

const ledger = (override: number | null): RecordLedger => {
  const price = (override ?? 3000) * 3;
  const money: RecordLedger['money'] = {
    price,
    unit_price: 3000,
    discount: 0,
    price_override: override,
    amount_due: price,
    amount_paid: 0,
    balance: price,
    status: 'unpaid',
    required_now: 0,
    pay_by: null,
    paid_by_credit: 0,
    pay_now: price,
  };
  return {
    money,
    payments: [],
    receipts: [],
    fiscal: { mode: 'off', training: false },
    promo_code: null,
    allowed: ledgerAllowed(MANAGER, money),
  };
};

describe('a staff price in the payment dialog', () => {
  it('is typed per person with a reason, and the dialog says the price per person', async () => {
    let override: number | null = null;
    const { calls } = mockApi({
      'GET /records/1/payments': () => ({ body: ledger(override) }),
      'PUT /records/1/price': (call) => {
        override = (call.body as { price: number }).price;
        return { body: ledger(override) };
      },
    });
    renderAdmin(<RecordsTable records={[row()]} />);
    await userEvent.click(screen.getByTestId('payment-badge'));
    const form = within(await screen.findByTestId('price-form'));
    await userEvent.type(form.getByLabelText('Цена за человека, дин.'), '1000');
    await userEvent.type(form.getByLabelText(/Причина/), 'Свой человек');
    await userEvent.click(form.getByRole('button', { name: 'Изменить цену' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ price: 1000, reason: 'Свой человек' });
    const dialog = within(screen.getByTestId('payment-dialog'));
    await waitFor(() =>
      expect(dialog.getByText(/изменена вручную/).textContent!.replace(/\s/g, ' ')).toBe(
        'Цена: 3 000 RSD (изменена вручную: 1 000 RSD за человека)',
      ),
    );
  });
});
