import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import type { SchedulePublic } from '../../../contract/schedule';
import { formatDateTime } from '../../../contract/format';
import { call } from '../api';
import { config } from '../config';
import { runChange } from '../mutations';

export const SESSION_CANCELLED = 'Мастер-класс отменён';

/** «Отменить мастер-класс»: asks the reason its customers will read, then cancels every booking. */
export function CancelSessionDialog({ schedule, onClose }: { schedule: SchedulePublic; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = schedule.records.filter((r) => r.state !== 'CANCELLED').length;
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
        <Text>
          «{schedule.workshop.title}», {formatDateTime(schedule.date, config.businessTimezone)}
        </Text>
        <Text size="sm">
          {open > 0
            ? `Все записи (${open}) будут отменены, клиенты получат сообщение с причиной и другими датами, оплата вернётся по правилам студии.`
            : 'Записей нет. Мастер-класс останется в истории как отменённый.'}
        </Text>
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
