import { Alert, Anchor, Stack } from '@mantine/core';
import { Link } from 'wouter';
import { fiscalApi } from '../../../contract/endpoints/fiscal';
import { formatDateTime } from '../../../contract/format';
import { config } from '../config';
import { useApi } from '../query';
import { useCan } from '../session';
import { TRAINING_COLOR, TRAINING_WARNING } from './fiscal-words';

/** How often the admin looks at the fiscal outbox again (no PFR call: the sender's last view). */
const REFRESH_MS = 60_000;

/**
 * Across the admin, for whoever reads receipts: training mode (receipts without fiscal effect), and the
 * PFR's trouble the sender met (PIN required, unreachable, refused receipts) with where to act on it.
 */
export function FiscalBanner() {
  const { can } = useCan();
  const { data } = useApi(fiscalApi.status, can('fiscal.read') ? { query: { probe: false } } : null, {
    refreshInterval: REFRESH_MS,
  });
  if (!data || data.mode === 'off') return null;
  const h = data.health;
  const settings = (
    <Anchor component={Link} href="/settings?tab=fiscal" c="inherit" fw={600} td="underline">
      Настройки → Фискализация
    </Anchor>
  );
  const since = h.since ? ` с ${formatDateTime(h.since, config.businessTimezone)}` : '';
  const alerts = [
    data.training && (
      <Alert key="training" color={TRAINING_COLOR} variant="filled" py={8} data-testid="training-banner">
        {TRAINING_WARNING}
      </Alert>
    ),
    data.mode === 'lpfr' && h.state === 'pin_required' && (
      <Alert key="pin" color="red" variant="light" py={8} data-testid="fiscal-trouble">
        PFR ждёт PIN{since}: чеки не выдаются, ожидают {h.waiting}. {can('fiscal.settings') ? 'Введите PIN: ' : ''}
        {can('fiscal.settings') ? settings : 'PIN вводит владелец студии.'}
      </Alert>
    ),
    data.mode === 'lpfr' && h.state === 'unreachable' && (
      <Alert key="down" color="red" variant="light" py={8} data-testid="fiscal-trouble">
        PFR не отвечает{since}: чеки ждут отправки ({h.waiting}) и уйдут, когда он ответит. {settings}
      </Alert>
    ),
    h.refused > 0 && (
      <Alert key="refused" color="red" variant="light" py={8} data-testid="fiscal-refused">
        PFR отклонил чеков: {h.refused}. Они отмечены «Отклонён» в Кассе.
      </Alert>
    ),
  ].filter(Boolean);
  return alerts.length === 0 ? null : (
    <Stack gap="xs" mb="md">
      {alerts}
    </Stack>
  );
}
