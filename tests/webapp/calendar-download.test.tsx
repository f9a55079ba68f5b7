import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { launchHash, mockApi, openApp, recordView, resetEnvironment, telegramEvents } from './utils';

beforeEach(() => resetEnvironment());

const ICS = 'https://studio.example/api/v1/records/15/calendar.ics?sig=abc';

function open() {
  mockApi({
    'GET /records/15': () => ({ body: recordView({}, { calendar_url: ICS }) }),
    'GET /me/credit': () => ({ body: { balance: 0 } }),
  });
}

describe('«Добавить в календарь» inside Telegram', () => {
  it("uses Telegram's download dialog where the client has it (Mini Apps 8.0+)", async () => {
    open();
    openApp(`/record/15${launchHash()}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Добавить в календарь' }));
    await waitFor(() => expect(telegramEvents.some(([name]) => name === 'web_app_request_file_download')).toBe(true));
    expect(telegramEvents.find(([name]) => name === 'web_app_request_file_download')![1]).toEqual({
      url: ICS,
      file_name: 'masterclass.ics',
    });
    expect(telegramEvents.some(([name]) => name === 'web_app_open_link')).toBe(false);
  });

  it("opens the file in Telegram's browser on an older client", async () => {
    open();
    openApp(`/record/15${launchHash().replace('tgWebAppVersion=8.0', 'tgWebAppVersion=7.10')}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Добавить в календарь' }));
    await waitFor(() => expect(telegramEvents.some(([name]) => name === 'web_app_open_link')).toBe(true));
    expect(telegramEvents.find(([name]) => name === 'web_app_open_link')![1]).toMatchObject({ url: ICS });
    expect(telegramEvents.some(([name]) => name === 'web_app_request_file_download')).toBe(false);
  });
});
