import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { paymentsApi } from '../../../contract/endpoints/payments';
import {
  UNRECONCILED_DECISION_LABELS,
  UNRECONCILED_KIND_LABELS,
  type UnreconciledDecision,
  type UnreconciledItem,
} from '../../../contract/unreconciled';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { call } from '../api';
import { config } from '../config';
import { runChange } from '../mutations';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import { useCan } from '../session';

const DONE: Record<UnreconciledDecision, string> = {
  credit: 'Деньги зачислены на баланс клиента',
  refund: 'Возврат записан',
  keep: 'Оставлено, причина записана в журнал',
};

/** One finding: what is wrong, whose and how much, and the three decisions (keeping asks for a reason). */
function Line({ item, canDecide }: { item: UnreconciledItem; canDecide: boolean }) {
  const [keeping, setKeeping] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const decide = async (decision: UnreconciledDecision) => {
    setBusy(true);
    await runChange(
      () =>
        call(paymentsApi.decideUnreconciled, {
          params: { id: item.id },
          body: decision === 'keep' ? { decision, reason } : { decision },
        }),
      DONE[decision],
    );
    setBusy(false);
  };
  return (
    <Card withBorder padding="sm" radius="md" data-testid="unreconciled-line">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Badge color="red.9" variant="light" style={{ textTransform: 'none' }}>
            {UNRECONCILED_KIND_LABELS[item.kind]}
          </Badge>
          <Text fw={700}>{formatPrice(item.amount)}</Text>
        </Group>
        <Text size="sm">
          {item.record_id !== null ? `Запись №${item.record_id}` : 'Без записи'}
          {item.name ? ` · ${item.name}` : ''}
          {item.workshop_title ? ` · ${item.workshop_title}` : item.record_exists ? '' : ' · запись удалена'}
          {item.schedule_date ? `, ${formatDateTime(item.schedule_date, config.businessTimezone)}` : ''}
        </Text>
        <Text size="xs" c="gray.7">
          Найдено {formatDateTime(item.found_at, config.businessTimezone)}
        </Text>
        {canDecide && !keeping && (
          <Group gap="xs" wrap="wrap">
            {/* Nothing paid yet (a hold past its time): there is no money to move, only to look at. */}
            {item.amount > 0 && (
              <>
                <Button size="xs" variant="light" loading={busy} onClick={() => void decide('credit')}>
                  {UNRECONCILED_DECISION_LABELS.credit}
                </Button>
                <Button size="xs" variant="light" loading={busy} onClick={() => void decide('refund')}>
                  {UNRECONCILED_DECISION_LABELS.refund}
                </Button>
              </>
            )}
            <Button size="xs" variant="subtle" color="gray.8" disabled={busy} onClick={() => setKeeping(true)}>
              {UNRECONCILED_DECISION_LABELS.keep}
            </Button>
          </Group>
        )}
        {canDecide && keeping && (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              size="xs"
              label="Почему оставить"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              style={{ flex: '1 1 200px' }}
            />
            <Button size="xs" loading={busy} disabled={!reason.trim()} onClick={() => void decide('keep')}>
              {UNRECONCILED_DECISION_LABELS.keep}
            </Button>
            <Button size="xs" variant="subtle" color="gray.8" onClick={() => setKeeping(false)}>
              Отмена
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/**
 * «Несверенные деньги»: money the sweeper found unaccounted for (and, later, bank lines nobody matched),
 * each until staff decide it. Shown only while there is something to decide.
 */
export function UnreconciledMoney() {
  const { can } = useCan();
  const { data } = useApi(paymentsApi.unreconciled, {}, { onError: (err) => toastError(TITLES.general, err) });
  if (!data || data.items.length === 0) return null;
  return (
    <Card withBorder padding="md" radius="md" data-testid="unreconciled-money">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} fz="lg">
            Несверенные деньги
          </Title>
          <Text size="sm" c="gray.7">
            {data.items.length} · решите, куда их отнести
          </Text>
        </Group>
        {data.items.map((item) => (
          <Line key={item.id} item={item} canDecide={can('money.refund')} />
        ))}
      </Stack>
    </Card>
  );
}
