import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FiscalReceiptBrief, FiscalSettings, FiscalStatus } from '../../contract/fiscal';
import { capabilitiesOf, type Role } from '../../contract/roles';
import { ReceiptCell } from '../../admin/src/components/FiscalReceipt';
import FiscalSettingsPage from '../../admin/src/pages/FiscalSettings';
import { isDisabled, mockApi, renderAdmin } from './setup';

/* What staff do with receipts in the admin: type a number or a buyer's ID, choose the PFR's labels, enter its PIN. */

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

const receipt = (extra: Partial<FiscalReceiptBrief> = {}): FiscalReceiptBrief => ({
  id: 7,
  type: 'advance',
  state: 'waiting',
  invoice_number: null,
  amount: 2000,
  payment_type: 'Cash',
  mode: 'manual',
  training: false,
  last_error: null,
  issued_at: null,
  ...extra,
});

const SETTINGS: FiscalSettings = {
  fiscal_mode: 'lpfr',
  fiscal_pfr_url: 'http://127.0.0.1:7555',
  fiscal_training: false,
  fiscal_cashier: 'Ана',
  fiscal_label_workshop: 'Ђ',
  fiscal_label_certificate: '',
  fiscal_label_pass: '',
  fiscal_certificate_receipts: 'redemption',
  fiscal_close_buyer_id: 'ask',
};

const status = (pinRequired: boolean): FiscalStatus => ({
  mode: 'lpfr',
  training: false,
  pfr: {
    url: SETTINGS.fiscal_pfr_url,
    reachable: true,
    error: null,
    pin_required: pinRequired,
    gsc: pinRequired ? ['1500'] : ['0000'],
    uid: 'TESTPFR1',
    last_invoice_number: null,
    environment: 'Sandbox',
    labels: [
      { label: 'Ђ', rate: 20, category: 'ПДВ' },
      { label: 'Е', rate: 10, category: 'ПДВ' },
      { label: 'А', rate: 0, category: 'Није у ПДВ' },
    ],
  },
  health: {
    state: pinRequired ? 'pin_required' : 'ok',
    since: null,
    last_error: null,
    waiting: 2,
    needs_buyer: 0,
    refused: 0,
    oldest_waiting_at: null,
  },
  manual_waiting: 0,
});

describe('a payment’s receipt', () => {
  it('manual mode: staff type the PFR number once; the cell says what was typed', async () => {
    signIn();
    const user = userEvent.setup();
    const { calls } = mockApi({
      'GET /users/me': me('manager'),
      'POST /fiscal/receipts/7/manual': (call) => ({
        body: {
          ...receipt(),
          state: 'issued',
          invoice_number: (call.body as { invoice_number: string }).invoice_number,
        },
      }),
    });
    renderAdmin(<ReceiptCell receipt={receipt()} />);
    const cell = within(screen.getByTestId('receipt-cell'));
    expect(cell.getByText('Аванс')).toBeTruthy();
    expect(cell.getByText('Ожидает')).toBeTruthy();
    await user.click(await cell.findByRole('button', { name: 'Ввести номер' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Номер чека из кассы' }));
    await user.type(dialog.getByLabelText(/Номер чека \(PFR\)/), 'RX4F7Y5L-RX4F7Y5L-138');
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    await screen.findByText('Номер чека сохранён');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/fiscal/receipts/7/manual',
      body: { invoice_number: 'RX4F7Y5L-RX4F7Y5L-138' },
    });
  });

  it('a host sees the receipt but types nothing; an issued one links to its printable page', async () => {
    signIn();
    mockApi({ 'GET /users/me': me('host') });
    renderAdmin(<ReceiptCell receipt={receipt({ state: 'needs_buyer', type: 'refund' })} />);
    await screen.findByText('Нужен документ покупателя');
    expect(screen.queryByRole('button')).toBeNull();

    mockApi({ 'GET /users/me': me('owner') });
    renderAdmin(
      <ReceiptCell
        receipt={receipt({ id: 9, state: 'issued', invoice_number: 'AAAA0000-BBBB1111-5', training: true })}
      />,
    );
    const link = await screen.findByRole('link', { name: 'AAAA0000-BBBB1111-5' });
    expect(link.getAttribute('href')).toBe('/receipts/9');
    expect(screen.getByText('Учебный')).toBeTruthy();
  });

  it('a refund waiting for the buyer’s ID takes the document’s code and number', async () => {
    signIn();
    const user = userEvent.setup();
    const { calls } = mockApi({
      'GET /users/me': me('manager'),
      'POST /fiscal/receipts/7/buyer': { body: { ...receipt(), state: 'waiting' } },
    });
    renderAdmin(<ReceiptCell receipt={receipt({ state: 'needs_buyer', type: 'advance_refund', mode: 'lpfr' })} />);
    await user.click(await screen.findByRole('button', { name: 'Документ покупателя' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Документ покупателя для возврата' }));
    await user.type(dialog.getByLabelText(/Номер документа/), '123 456 789');
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ code: '20', number: '123 456 789' });
  });
});

describe('Настройки → Фискализация', () => {
  it('the owner chooses labels from the PFR’s rates and enters the PIN it asks for', async () => {
    signIn();
    const user = userEvent.setup();
    let pinRequired = true;
    const { calls } = mockApi({
      'GET /users/me': me('owner'),
      'GET /fiscal/settings': { body: SETTINGS },
      'GET /fiscal/status': () => ({ body: status(pinRequired) }),
      'POST /fiscal/pin': () => {
        pinRequired = false;
        return { body: status(false) };
      },
      'PUT /fiscal/settings': (call) => ({ body: { ...SETTINGS, ...(call.body as object) } }),
    });
    renderAdmin(<FiscalSettingsPage />);
    await screen.findByText('PFR ждёт PIN');
    const pin = screen.getByLabelText(/PIN-код PFR/);
    const enter = screen.getByRole('button', { name: 'Ввести PIN' });
    expect(isDisabled(enter)).toBe(true);
    await user.type(pin, '1234');
    await user.click(enter);
    await screen.findByText('PFR принял PIN');
    expect(calls.find((c) => c.path === '/fiscal/pin')!.body).toEqual({ pin: '1234' });

    // The certificates' label: one of the PFR's, shown with its rate.
    await user.click(screen.getByRole('combobox', { name: 'Сертификаты' }));
    const options = within(await screen.findByRole('listbox', { name: 'Сертификаты', hidden: true }));
    await user.click(options.getByRole('option', { name: 'Е — 10 % (ПДВ)', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({
      fiscal_label_workshop: 'Ђ',
      fiscal_label_certificate: 'Е',
    });
    // Training's warning as soon as it is switched on.
    expect(screen.queryByTestId('training-warning')).toBeNull();
    await user.click(screen.getByRole('switch', { name: /Учебный режим/ }));
    expect(screen.getByTestId('training-warning').textContent).toContain(
      'Учебный режим: чеки не имеют фискальной силы',
    );
  });

  it('the owner chooses whether the advance’s closing asks for the buyer’s document, told why', async () => {
    signIn();
    const user = userEvent.setup();
    const { calls } = mockApi({
      'GET /users/me': me('owner'),
      'GET /fiscal/settings': { body: SETTINGS },
      'GET /fiscal/status': { body: status(false) },
      'PUT /fiscal/settings': (call) => ({ body: { ...SETTINGS, ...(call.body as object) } }),
    });
    renderAdmin(<FiscalSettingsPage />);
    const group = await screen.findByRole('radiogroup', { name: /Документ покупателя при закрытии аванса/ });
    expect(screen.getByText(/^Закон не решает, нужен ли документ покупателя/).textContent).toContain(
      'каждого, кто платил заранее, перед итоговым чеком просят в Telegram назвать документ',
    );
    expect((within(group).getByRole('radio', { name: /Спрашивать/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(group).getByRole('radio', { name: /Не указывать/ }));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ fiscal_close_buyer_id: 'omit' });
  });

  it('a manager reads them: no PIN form, nothing to change', async () => {
    signIn();
    mockApi({
      'GET /users/me': me('manager'),
      'GET /fiscal/settings': { body: SETTINGS },
      'GET /fiscal/status': { body: status(true) },
    });
    renderAdmin(<FiscalSettingsPage />);
    await screen.findByText('PFR ждёт PIN: его вводит владелец студии.');
    expect(screen.queryByLabelText(/PIN-код PFR/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Сохранить' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Проверить связь' })).toBeNull();
    expect(isDisabled(screen.getByRole('textbox', { name: /Адрес PFR/ }))).toBe(true);
  });
});
