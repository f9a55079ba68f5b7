import { useState } from 'react';
import { Button, Group, Modal, Paper, Stack, Text, Textarea } from '@mantine/core';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import type { ScheduleListItem, ScheduleRemoval } from '../../../contract/schedule';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { call } from '../api';
import { config } from '../config';
import { runChange } from '../mutations';

export const SESSION_CANCELLED = 'Мастер-класс отменён';
/** Where a refund owed is recorded once staff have paid it back. */
export const OWED_HINT = 'Верните их клиентам и отметьте возврат в меню записи: «Оплата и цена».';

/** «Паста», 5 марта 2030 г., 18:00 */
export const SessionLine = ({ schedule }: { schedule: ScheduleListItem }) => (
  <Text style={{ overflowWrap: 'anywhere' }}>
    «{schedule.workshop.title}», {formatDateTime(schedule.date, config.businessTimezone)}
  </Text>
);

function MoneyRow({ label, amount, strong = false }: { label: string; amount: number; strong?: boolean }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm" data-testid="money-row">
      <Text size="sm" fw={strong ? 600 : undefined}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 600 : 500} style={{ whiteSpace: 'nowrap' }}>
        {formatPrice(amount)}
      </Text>
    </Group>
  );
}

/**
 * What the open bookings paid and where the cancel sends it, as the server splits it (the money rules of a
 * cancelled booking): the customers' studio balance, the gift certificates, owed back.
 */
export function CancelMoney({ removal }: { removal: ScheduleRemoval }) {
  const { paid, to_credit, to_certificates, owed } = removal.money;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="cancel-money">
      {paid > 0 ? (
        <Stack gap={6}>
          <MoneyRow label="Оплачено по этим записям" amount={paid} strong />
          <Text size="sm" c="gray.7">
            После отмены деньги пойдут:
          </Text>
          {to_credit > 0 && <MoneyRow label="на баланс клиентов в студии" amount={to_credit} />}
          {to_certificates > 0 && <MoneyRow label="обратно на подарочные сертификаты" amount={to_certificates} />}
          {owed > 0 && (
            <>
              <MoneyRow label="к возврату клиентам" amount={owed} />
              <Text size="xs" c="gray.7">
                {OWED_HINT}
              </Text>
            </>
          )}
        </Stack>
      ) : (
        <Text size="sm">По этим записям ничего не оплачено: возвращать ничего не нужно.</Text>
      )}
    </Paper>
  );
}

/** What the session's bookings cancelled before still owe their customers (the cancel leaves them as they are). */
export const EarlierRefunds = ({ removal }: { removal: ScheduleRemoval }) =>
  removal.refunds_owed > 0 ? (
    <Text size="sm" data-testid="earlier-refunds">
      По записям, отменённым раньше, клиентам ещё нужно вернуть {formatPrice(removal.refunds_owed)}.
    </Text>
  ) : null;

/** How many bookings the cancel cancels, and who is told: customers in Telegram by the bot, the others by staff. */
function bookingsLine({ bookings, queued, without_telegram }: ScheduleRemoval) {
  const told = bookings - without_telegram;
  return [
    `Все записи (${bookings}) будут отменены${queued > 0 ? `, из них в очереди — ${queued}` : ''}.`,
    told > 0 && 'Клиенты получат в Telegram сообщение с причиной, другими датами и тем, куда пойдут их деньги.',
    without_telegram > 0 && `Клиентам без Telegram\u00a0(${without_telegram}) сообщите об отмене сами.`,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * «Отменить мастер-класс»: asks the reason its customers will read, then cancels every booking. It says how many
 * bookings that is, what they paid and where the money goes; opened from «Удалить», it says why not a delete.
 */
export function CancelSessionDialog({
  schedule,
  removal,
  fromDelete = false,
  onClose,
}: {
  schedule: ScheduleListItem;
  removal: ScheduleRemoval;
  /** Opened from «Удалить»: the session is cancelled instead. */
  fromDelete?: boolean;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { bookings } = removal;
  const confirm = async () => {
    if (!reason.trim()) return setError('Укажите причину отмены');
    setBusy(true);
    const ok = await runChange(
      () => call(scheduleApi.cancel, { params: { id: schedule.id }, body: { reason: reason.trim() } }),
      SESSION_CANCELLED,
    );
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={<Text fw={700}>Отменить мастер-класс?</Text>}
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
    >
      <Stack gap="md">
        <SessionLine schedule={schedule} />
        {fromDelete && (
          <Text size="sm" fw={500} data-testid="not-deleted">
            Мастер-класс с записями или оплатами не удаляют, а отменяют: он останется в Истории как отменённый.
          </Text>
        )}
        <Text size="sm" data-testid="cancel-bookings">
          {bookings > 0
            ? bookingsLine(removal)
            : 'Действующих записей нет. Мастер-класс останется в Истории как отменённый.'}
        </Text>
        {bookings > 0 && <CancelMoney removal={removal} />}
        <EarlierRefunds removal={removal} />
        <Textarea
          label="Причина (её увидят клиенты)"
          required
          autosize
          minRows={2}
          maxLength={500}
          value={reason}
          error={error}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setError(null);
          }}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Назад
          </Button>
          <Button color="red" onClick={confirm} loading={busy}>
            Отменить мастер-класс
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
