import { beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { launchHash, mockApi, openApp, resetEnvironment, session, telegramEvents } from './utils';

/* The contact form's draft kept by Telegram on the device (DeviceStorage, Mini Apps 9.0+). */

/** The device's storage as a Telegram client keeps it, answering the mini-app's requests. */
let device: Map<string, string>;

function fakeDeviceStorage() {
  device = new Map();
  const proxy = window.TelegramWebviewProxy as { postEvent(name: string, data?: string): void };
  const post = proxy.postEvent.bind(proxy);
  proxy.postEvent = (name: string, data?: string) => {
    post(name, data);
    const p = data ? JSON.parse(data) : {};
    const answer = (event: string, payload: object) =>
      setTimeout(() =>
        (
          window as unknown as { Telegram: { WebView: { receiveEvent(n: string, d: object): void } } }
        ).Telegram.WebView.receiveEvent(event, payload),
      );
    if (name === 'web_app_device_storage_save_key') {
      if (p.value === null) device.delete(p.key);
      else device.set(p.key, p.value);
      answer('device_storage_key_saved', { req_id: p.req_id });
    }
    if (name === 'web_app_device_storage_get_key')
      answer('device_storage_key_received', { req_id: p.req_id, value: device.get(p.key) ?? null });
  };
}

const version = (v: string) => launchHash().replace('tgWebAppVersion=8.0', `tgWebAppVersion=${v}`);

async function toContactForm(hash: string) {
  const user = userEvent.setup();
  openApp(`/apply${hash}`);
  await user.click(await screen.findByText('Хинкали и хачапури'));
  await screen.findByText('Контактные данные');
  return user;
}

beforeEach(() => {
  resetEnvironment();
  fakeDeviceStorage();
  mockApi({ 'GET /schedule/public': () => ({ body: { data: [session()], count: 1 } }) });
});

describe('the contact form draft', () => {
  it('is kept in DeviceStorage as it is typed and restored when the mini-app is opened again', async () => {
    const user = await toContactForm(version('9.0'));
    await user.clear(screen.getByLabelText('Имя'));
    await user.type(screen.getByLabelText('Имя'), 'Мария');
    await user.click(screen.getByLabelText('Есть аллергия'));
    await user.type(screen.getByLabelText('На что аллергия'), 'орехи');
    await waitFor(() => expect(JSON.parse(device.get('contact-draft') ?? '{}')).toMatchObject({ name: 'Мария' }));
    await waitFor(() =>
      expect(JSON.parse(device.get('contact-draft')!)).toMatchObject({ has_allergy: true, allergy_type: 'орехи' }),
    );

    // Closed and opened again: a new page, the same device.
    cleanup();
    telegramEvents.length = 0;
    await toContactForm(version('9.0'));
    await waitFor(() => expect(screen.getByLabelText('Имя')).toHaveValue('Мария'));
    expect(screen.getByLabelText('На что аллергия')).toHaveValue('орехи');
  });

  it('is not asked for on a client without DeviceStorage', async () => {
    device.set('contact-draft', JSON.stringify({ name: 'Мария' }));
    const user = await toContactForm(version('8.0'));
    await user.type(screen.getByLabelText('Фамилия'), 'Петрова');
    await new Promise((r) => setTimeout(r, 600));
    expect(telegramEvents.filter(([name]) => name.startsWith('web_app_device_storage'))).toEqual([]);
    expect(screen.getByLabelText('Имя')).not.toHaveValue('Мария');
  });
});
