import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_BUSINESS_SETTINGS } from '../../contract/business-settings';
import { BusinessSettingsForm } from '../../admin/src/forms/BusinessSettingsForm';
import { mockApi, renderAdmin } from './setup';

describe('Настройки → Бизнес: the certificate amounts on sale', () => {
  it('are typed as a list ("3 500, 6000") and saved as numbers; a word is refused with the field’s message', async () => {
    const { calls } = mockApi({ 'PUT /business-settings/': (req) => ({ body: req.body }) });
    renderAdmin(<BusinessSettingsForm settings={DEFAULT_BUSINESS_SETTINGS} editable />);
    const field = screen.getByLabelText('Суммы подарочных сертификатов, RSD') as HTMLInputElement;
    expect(field.value).toBe('3500, 5000, 7000, 10000');

    await userEvent.clear(field);
    await userEvent.type(field, 'много');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await screen.findByText('Введите сумму');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.clear(field);
    await userEvent.type(field, '3 500, 6000');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(
      (calls.find((c) => c.method === 'PUT')!.body as { certificate_amounts: number[] }).certificate_amounts,
    ).toEqual([3500, 6000]);
  });
});
