import { useState } from 'react';
import { Badge, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { paymentsApi } from '../../../contract/endpoints/payments';
import {
  UNRECONCILED_DECISION_LABELS,
  UNRECONCILED_KIND_LABELS,
  OWED_REFUND_METHODS,
  type OwedRefundItem,
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
import { UnmatchedBankLines, useUnmatchedBankLines } from './BankStatement';

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

type PayoutMethod = (typeof OWED_REFUND_METHODS)[number];
const PAYOUT_LABELS: Record<PayoutMethod, string> = {
  cash: 'Наличными',
  card: 'На карту',
  bank_transfer: 'Переводом',
};

/** A refund owed to a customer who erased their data: only the amount is known; staff record it paid out. */
function OwedRefundLine({ item, canPay }: { item: OwedRefundItem; canPay: boolean }) {
  const [method, setMethod] = useState<PayoutMethod | null>(null);
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    if (!method) return;
    setBusy(true);
    await runChange(
      () => call(paymentsApi.payOwedRefund, { params: { id: item.id }, body: { method } }),
      'Выплата записана в кассу',
    );
    setBusy(false);
  };
  return (
    <Card withBorder padding="sm" radius="md" data-testid="owed-refund-line">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Badge color="orange.9" variant="light" style={{ textTransform: 'none' }}>
            Возврат после удаления данных
          </Badge>
          <Text fw={700}>{formatPrice(item.amount)}</Text>
        </Group>
        <Text size="xs" c="gray.7">
          Баланс в студии на момент удаления данных, {formatDateTime(item.created_at, config.businessTimezone)}
        </Text>
        {canPay && (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <Select
              size="xs"
              label="Как выплачено"
              placeholder="Выберите"
              data={OWED_REFUND_METHODS.map((m) => ({ value: m, label: PAYOUT_LABELS[m] }))}
              value={method}
              onChange={(v) => setMethod(v as PayoutMethod | null)}
              allowDeselect={false}
              w={160}
            />
            <Button size="xs" variant="light" loading={busy} disabled={!method} onClick={() => void pay()}>
              Выплачено
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/**
 * «Несверенные деньги»: the one place for money waiting on a staff decision: what the sweeper found
 * unaccounted for, bank lines nobody matched, and refunds owed to customers who erased their data.
 * Shown only while there is something to decide.
 */
export function UnreconciledMoney() {
  const { can } = useCan();
  const { data } = useApi(paymentsApi.unreconciled, {}, { onError: (err) => toastError(TITLES.general, err) });
  const { data: bank } = useUnmatchedBankLines();
  const findings = data?.items ?? [];
  const owed = data?.owed_refunds ?? [];
  const open = findings.length + owed.length + (bank?.count ?? 0);
  if (open === 0) return null;
  return (
    <Card withBorder padding="md" radius="md" data-testid="unreconciled-money">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} fz="lg">
            Несверенные деньги
          </Title>
          <Text size="sm" c="gray.7">
            {open} · решите, куда их отнести
          </Text>
        </Group>
        {findings.map((item) => (
          <Line key={item.id} item={item} canDecide={can('money.refund')} />
        ))}
        <UnmatchedBankLines />
        {owed.map((item) => (
          <OwedRefundLine key={`owed-${item.id}`} item={item} canPay={can('money.refund')} />
        ))}
      </Stack>
    </Card>
  );
}
