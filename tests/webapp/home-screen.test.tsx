import { beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { launchHash, mockApi, openApp, recordView, resetEnvironment, session, telegramEvents } from './utils';

/* After the second booking on the device, Telegram's "add to home screen" is offered once (Mini Apps 8.0+). */

/** The client answers the home-screen check with `status`. */
function homeScreenStatus(status: string) {
  const proxy = window.TelegramWebviewProxy as { postEvent(name: string, data?: string): void };
  const post = proxy.postEvent.bind(proxy);
  proxy.postEvent = (name: string, data?: string) => {
    post(name, data);
    if (name === 'web_app_check_home_screen')
      setTimeout(() =>
        (
          window as unknown as { Telegram: { WebView: { receiveEvent(n: string, d: object): void } } }
        ).Telegram.WebView.receiveEvent('home_screen_checked', { status }),
      );
  };
}

async function book(hash = launchHash()) {
  cleanup();
  const user = userEvent.setup();
  openApp(`/apply${hash}`);
  await user.click(await screen.findByText('Хинкали и хачапури'));
  await screen.findByText('Контактные данные');
  await user.click(screen.getByLabelText('Да, впервые'));
  await user.click(screen.getByRole('button', { name: 'Записаться' }));
  expect(await screen.findByText('Вы записаны!')).toBeInTheDocument();
}

const posted = (name: string) => telegramEvents.filter(([n]) => n === name).length;

beforeEach(() => {
  resetEnvironment();
  mockApi({
    'GET /schedule/public': () => ({ body: { data: [session()], count: 1 } }),
    'POST /records/': () => ({ status: 201, body: recordView() }),
  });
});

describe('add to home screen', () => {
  it('is offered once, after the second booking, when the app is not there yet', async () => {
    homeScreenStatus('missed');
    await book();
    await new Promise((r) => setTimeout(r, 100));
    expect(posted('web_app_check_home_screen')).toBe(0);
    await book();
    await waitFor(() => expect(posted('web_app_add_to_home_screen')).toBe(1));
    await book();
    await new Promise((r) => setTimeout(r, 100));
    expect(posted('web_app_check_home_screen')).toBe(1);
    expect(posted('web_app_add_to_home_screen')).toBe(1);
  });

  it('not when it is already on the home screen, nor on an older client', async () => {
    homeScreenStatus('added');
    await book();
    await book();
    await waitFor(() => expect(posted('web_app_check_home_screen')).toBe(1));
    await new Promise((r) => setTimeout(r, 100));
    expect(posted('web_app_add_to_home_screen')).toBe(0);

    resetEnvironment();
    homeScreenStatus('missed');
    const old = launchHash().replace('tgWebAppVersion=8.0', 'tgWebAppVersion=7.10');
    await book(old);
    await book(old);
    await new Promise((r) => setTimeout(r, 100));
    expect(posted('web_app_check_home_screen')).toBe(0);
  });
});
