import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderAdmin } from './setup';
import { TelegramLink } from '../../admin/src/components/TelegramLink';

describe('telegram link button', () => {
  it('asks for a one-time link and shows it', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({
      'POST /users/me/telegram-link': {
        body: { url: 'https://t.me/studio_bot?start=link-abc', expires_at: '2026-11-21T11:15:00.000Z' },
      },
    });
    renderAdmin(<TelegramLink linked={false} />);
    await user.click(screen.getByRole('button', { name: 'Подключить Telegram' }));
    const link = await screen.findByRole('link', { name: 'https://t.me/studio_bot?start=link-abc' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(calls[0].method).toBe('POST');
  });

  it("shows the server's detail when no bot is configured", async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /users/me/telegram-link': { status: 503, body: { detail: 'Бот не настроен' } } });
    renderAdmin(<TelegramLink linked />);
    await user.click(screen.getByRole('button', { name: 'Подключить другой Telegram' }));
    expect(await screen.findByText('Бот не настроен')).toBeTruthy();
    expect(screen.getByText('Что-то пошло не так')).toBeTruthy();
  });
});
