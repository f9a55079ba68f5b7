import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordMoney, RecordView } from '../../contract';
import { launchHash, mockApi, openApp, recordView, resetEnvironment, telegramEvents } from './utils';

beforeEach(() => resetEnvironment());

const PAY_BY = '2030-11-20T10:30:00.000Z';
const money = (over: Partial<RecordMoney> = {}): RecordMoney => ({
  price: 7000,
  unit_price: 3500,
  price_override: null,
  amount_due: 7000,
  amount_paid: 0,
  balance: 7000,
  status: 'unpaid',
  required_now: 7000,
  pay_by: PAY_BY,
  paid_by_credit: 0,
  pay_now: 7000,
  ...over,
});
const IPS =
  'K:PR|V:01|C:1|R:160000000000005120|N:Кулинарная студия, Београд|I:RSD7000,00|SF:289|S:Мастер-класс Хинкали|RO:974315';
const PIXEL = 'data:image/png;base64,iVBORw0KGgo=';

function open(view: RecordView, credit = 0) {
  return mockApi({
    'GET /records/15': () => ({ body: view }),
    'GET /me/credit': () => ({ body: { balance: credit } }),
    'GET /records/15/ips-qr': () => ({ body: { text: IPS, image: PIXEL } }),
    'POST /records/15/invoice': () => ({ body: { url: 'https://t.me/$abc123', amount: 7000 } }),
  });
}

describe('/record: money', () => {
  it('shows the price, what is due and by when, the Telegram button, the QR transfer with its details, and the credit', async () => {
    const { calls } = open(
      recordView(
        {},
        {
          money: money(),
          pay: { telegram: true, ips_qr: true, bank_account: '160000000000005120', bank_recipient: 'Студия' },
        },
      ),
      1500,
    );
    openApp(`/record/15${launchHash()}`);
    const section = await screen.findByTestId('payment-section');
    expect(within(section).getByTestId('price')).toHaveTextContent(/7\s000\sRSD/);
    expect(within(section).getByTestId('due')).toHaveTextContent(/7\s000\sRSD/);
    expect(section.textContent).toMatch(/Оплатите 7\s000\sRSD до 20 ноября 2030 11:30/);
    const qr = await within(section).findByTestId('ips-qr');
    expect(within(qr).getByRole('img', { name: 'QR-код для оплаты переводом' })).toHaveAttribute('src', PIXEL);
    expect(qr).toHaveTextContent('160-0000000000051-20');
    expect(qr).toHaveTextContent('Кулинарная студия, Београд');
    expect(qr).toHaveTextContent('97 4315');
    expect(section).toHaveTextContent('Или оплатите на месте, в студии.');
    expect(await within(section).findByTestId('credit')).toHaveTextContent('На вашем балансе в студии: 1');

    await userEvent.click(within(section).getByRole('button', { name: 'Оплатить в Telegram' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/records/15/invoice')).toBe(true));
    // Telegram opens the invoice over the mini-app.
    await waitFor(() => expect(telegramEvents.some(([name]) => name === 'web_app_open_invoice')).toBe(true));
    expect(telegramEvents.find(([name]) => name === 'web_app_open_invoice')![1]).toEqual({ slug: 'abc123' });
  });

  it('without Telegram payments or an account: pay at the studio; a paid booking shows what was paid from credit', async () => {
    open(
      recordView(
        {},
        {
          money: money({
            amount_paid: 7000,
            balance: 0,
            status: 'paid',
            pay_by: null,
            paid_by_credit: 2000,
            pay_now: 0,
          }),
          pay: { telegram: false, ips_qr: false, bank_account: null, bank_recipient: null },
        },
      ),
    );
    openApp(`/record/15${launchHash()}`);
    const section = await screen.findByTestId('payment-section');
    expect(within(section).getByTestId('paid')).toHaveTextContent(/7\s000\sRSD/);
    expect(section).toHaveTextContent('из них с баланса в студии: 2');
    expect(within(section).queryByRole('button')).toBeNull();
    expect(within(section).queryByTestId('due')).toBeNull();
  });

  it('unpaid with nothing asked in advance: the amount and "Оплата на месте"', async () => {
    open(
      recordView(
        {},
        {
          money: money({ required_now: 0, pay_by: null }),
          pay: { telegram: false, ips_qr: false, bank_account: null, bank_recipient: null },
        },
      ),
    );
    openApp(`/record/15${launchHash()}`);
    const section = await screen.findByTestId('payment-section');
    expect(section).toHaveTextContent('Оплата на месте, в студии.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('with a promo code: the price, then the discount, then the amount due, each once', async () => {
    open(
      recordView(
        { promo_code: 'VESNA10' },
        {
          money: money({ price: 6300, discount: 700, amount_due: 6300, balance: 6300, required_now: 0, pay_by: null }),
          pay: { telegram: false, ips_qr: false, bank_account: null, bank_recipient: null },
        },
      ),
    );
    openApp(`/record/15${launchHash()}`);
    const section = await screen.findByTestId('payment-section');
    const order = ['price', 'record-discount', 'record-total', 'due'].map((id) => within(section).getByTestId(id));
    expect(order.map((e) => e.textContent?.replace(/\s/g, ' '))).toEqual([
      '7 000 RSD',
      '−700 RSD',
      '6 300 RSD',
      '6 300 RSD',
    ]);
    // In the page's reading order.
    for (let i = 1; i < order.length; i++)
      expect(order[i - 1].compareDocumentPosition(order[i]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(section).toHaveTextContent('Скидка по промокоду VESNA10');
    expect(section).toHaveTextContent('Итого со скидкой');
    // The discounted price is not said twice as «Стоимость».
    expect(section.textContent).not.toMatch(/Стоимость записи6\s300/);
  });
});
