import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { RecordReceipt, RecordView } from '../../contract';
import { launchHash, mockApi, openApp, recordView, resetEnvironment } from './utils';

beforeEach(() => resetEnvironment());

const VERIFY = 'https://suf.purs.gov.rs/v/?vl=A0FCQ0QxMjM0QUJDRDEyMzRlAAAAZAAAAA%3D%3D';

const receipt = (over: Partial<RecordReceipt>): RecordReceipt => ({
  id: 1,
  invoice_number: 'ABCD1234-ABCD1234-101',
  invoice_type: 'Advance',
  transaction_type: 'Sale',
  amount: 3500,
  issued_at: '2030-11-20T09:15:02.000Z',
  verification_url: VERIFY,
  ...over,
});

function open(view: RecordView) {
  mockApi({ 'GET /records/15': () => ({ body: view }) });
  openApp(`/record/15${launchHash()}`);
}

describe('/record/{id}: the booking’s fiscal receipts', () => {
  it('lists each receipt’s kind, amount, date and number, with a link to the Tax Administration’s check', async () => {
    open(
      recordView(
        {},
        {
          receipts: [
            receipt({ id: 1 }),
            receipt({
              id: 2,
              invoice_number: 'ABCD1234-ABCD1234-102',
              invoice_type: 'Advance',
              transaction_type: 'Refund',
            }),
            receipt({ id: 3, invoice_number: 'ABCD1234-ABCD1234-103', invoice_type: 'Normal', amount: 7000 }),
            // Typed by staff from the studio's own register: a number, no page to check it on.
            receipt({
              id: 4,
              invoice_number: 'RUČNO-17',
              invoice_type: 'Normal',
              transaction_type: 'Refund',
              verification_url: null,
            }),
          ],
        },
      ),
    );
    const section = (await screen.findByText('Фискальные чеки')).closest('section')!;
    expect(section).not.toBeNull();
    const first = within(screen.getByTestId('receipt-1'));
    expect(first.getByText('Аванс')).toBeInTheDocument();
    expect(first.getByText('ABCD1234-ABCD1234-101')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-1')).toHaveTextContent(/3\s500\sRSD · 20\/11\/2030/);
    const link = first.getByRole('link', { name: 'Проверить чек: ABCD1234-ABCD1234-101' });
    expect(link).toHaveAttribute('href', VERIFY);
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(screen.getByTestId('receipt-2')).getByText('Возврат аванса')).toBeInTheDocument();
    expect(within(screen.getByTestId('receipt-3')).getByText('Продажа')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-3')).toHaveTextContent(/7\s000\sRSD/);
    const manual = within(screen.getByTestId('receipt-4'));
    expect(manual.getByText('Возврат')).toBeInTheDocument();
    expect(manual.getByText('RUČNO-17')).toBeInTheDocument();
    expect(manual.queryByRole('link')).not.toBeInTheDocument();
    // In the order the server gave (oldest first).
    expect(
      [...section.querySelectorAll('[data-testid^="receipt-"]')].map((e) => e.getAttribute('data-testid')),
    ).toEqual(['receipt-1', 'receipt-2', 'receipt-3', 'receipt-4']);
  });

  it.each([
    ['an empty list', []],
    ['none at all (a studio that does not fiscalize)', undefined],
  ])('shows no receipts section for %s', async (_, receipts) => {
    open(recordView({}, { receipts }));
    expect(await screen.findByRole('heading', { name: 'Ваша запись на мастер-класс' })).toBeInTheDocument();
    expect(screen.getByText('Анна Петрова')).toBeInTheDocument();
    expect(screen.queryByText('Фискальные чеки')).not.toBeInTheDocument();
  });
});
