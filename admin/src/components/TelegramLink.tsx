import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import type { TelegramLink as TelegramLinkResponse } from '../../../contract/users';
import { usersApi } from '../../../contract/endpoints/users';
import { call } from '../api';
import { formatTime } from '../../../contract/format';
import { config } from '../config';
import { TITLES, toastError } from '../notify';
import { IconBrandTelegram } from './icons';

/** Asks the server for a one-time t.me link that connects this staff account to Telegram. */
export function TelegramLink({ linked }: { linked: boolean }) {
  const [link, setLink] = useState<TelegramLinkResponse | null>(null);
  const [busy, setBusy] = useState(false);
  const request = async () => {
    setBusy(true);
    try {
      setLink(await call(usersApi.telegramLink));
    } catch (err) {
      toastError(TITLES.general, err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm" maw={480}>
      <Button variant="light" leftSection={<IconBrandTelegram />} onClick={request} loading={busy} w="fit-content">
        {linked ? 'Подключить другой Telegram' : 'Подключить Telegram'}
      </Button>
      {link && (
        <Alert color="teal" variant="light" title="Ссылка для подключения" data-testid="telegram-link">
          <Text size="sm">
            Откройте ссылку и нажмите «Start» в боте:{' '}
            <Anchor href={link.url} target="_blank" rel="noopener noreferrer" style={{ overflowWrap: 'anywhere' }}>
              {link.url}
            </Anchor>
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            Ссылка одноразовая и действует до {formatTime(link.expires_at, config.businessTimezone)}.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
