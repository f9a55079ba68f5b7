import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CertificateView } from '../../contract/certificates';
import { CertificateIssueForm } from '../../admin/src/forms/CertificateIssueForm';
import CertificatesPage from '../../admin/src/pages/Certificates';
import { mockApi, renderAdmin } from './setup';

const issued: CertificateView = {
  id: 7,
  code: 'ABCD-EFGH-JKLM',
  kind: 'places',
  amount: 7000,
  places: 2,
  balance: 2,
  places_left: 2,
  status: 'active',
  buyer_name: null,
  buyer_telegram_id: null,
  recipient_name: 'Мария',
  greeting: null,
  recipient_telegram_id: null,
  expires_at: '2027-11-26T22:59:59.000Z',
  created_at: '2026-11-26T10:00:00.000Z',
  paid_at: '2026-11-26T10:00:00.000Z',
  pay_method: 'cash',
  voided_at: null,
  void_reason: null,
  url: '/gift/ABCD-EFGH-JKLM',
  entries: [],
  // What the server allows the owner who issued it.
  allowed: { void: true, confirm: false },
};

describe('«Выпустить»: a certificate for places', () => {
  it('«Места» asks for the places and what the buyer paid, and sends those instead of an amount', async () => {
    const { calls } = mockApi({ 'POST /certificates/': () => ({ status: 201, body: issued }) });
    const onIssued = vi.fn();
    renderAdmin(<CertificateIssueForm onClose={() => undefined} onIssued={onIssued} />);
    expect(screen.getByLabelText(/Номинал, RSD/)).toBeTruthy();
    expect(screen.queryByLabelText(/Оплачено, RSD/)).toBeNull();

    await userEvent.click(screen.getByRole('radio', { name: 'Места' }));
    expect(screen.queryByLabelText(/Номинал, RSD/)).toBeNull();
    const places = screen.getByRole('textbox', { name: /^Мест/ }) as HTMLInputElement;
    expect(places.value).toBe('1');
    // What was paid is required: the contract's message, nothing sent.
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await screen.findByText('Укажите, сколько заплатил покупатель');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.clear(places);
    await userEvent.type(places, '25');
    await userEvent.type(screen.getByLabelText(/Оплачено, RSD/), '7000');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await screen.findByText('Мест: от 1 до 20');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.clear(places);
    await userEvent.type(places, '2');
    await userEvent.type(screen.getByLabelText('Получатель', { exact: false }), 'Мария');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(onIssued).toHaveBeenCalledWith(issued));
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ places: 2, price_paid: 7000, method: 'cash', recipient_name: 'Мария' });
    expect(body).not.toHaveProperty('amount');
    expect(body).not.toHaveProperty('kind');
  });

  it('«Сумма» sends the amount alone, as before', async () => {
    const { calls } = mockApi({
      'POST /certificates/': () => ({
        status: 201,
        body: { ...issued, kind: 'amount', amount: 5000, places: null, balance: 5000, places_left: null },
      }),
    });
    const onIssued = vi.fn();
    renderAdmin(<CertificateIssueForm onClose={() => undefined} onIssued={onIssued} />);
    await userEvent.type(screen.getByLabelText(/Номинал, RSD/), '5000');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(onIssued).toHaveBeenCalled());
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ amount: 5000, method: 'cash' });
    expect(body).not.toHaveProperty('places');
    expect(body).not.toHaveProperty('price_paid');
  });

  it('the list shows a places certificate’s places, sold and left, not a sum', async () => {
    mockApi({
      'GET /certificates/?skip=0&limit=20': () => ({
        body: { data: [{ ...issued, balance: 1, places_left: 1 }], count: 1 },
      }),
    });
    renderAdmin(<CertificatesPage />);
    const row = (await screen.findByTestId('certificates-table')).querySelector('tbody tr') as HTMLElement;
    const text = row.textContent!.replace(/\s/g, ' ');
    expect(text).toContain('2 места');
    expect(text).toContain('оплачено 7 000 RSD');
    expect(text).toContain('1 место');
    expect(within(row).getByText('Действует')).toBeTruthy();
  });
});
