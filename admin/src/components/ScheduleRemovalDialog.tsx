import { useState } from 'react';
import { Button, Center, Group, Loader, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import type { ScheduleListItem, ScheduleRemoval } from '../../../contract/schedule';
import { formatPrice } from '../../../contract/format';
import { SCOPE_OPTIONS } from '../forms/ScheduleForm';
import { deleteObject } from '../mutations';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import { CancelSessionDialog, EarlierRefunds, SessionLine } from './CancelSessionDialog';
import { ConfirmDelete, ConfirmDialog, DELETE_QUESTION } from './ConfirmDialog';

/*
 * A session's «Удалить» and «Отменить мастер-класс». The server says what each would do (GET
 * /schedule/{id}/removal, the commands' own rules): a session nothing of anyone's is on is deleted after the
 * usual question; one with bookings or money is cancelled instead, the dialog naming the bookings and where
 * their money goes; a past or cancelled one with bookings can be neither and stays in История, which the dialog
 * says up front instead of a question the server would refuse.
 */

export type RemovalIntent = 'delete' | 'cancel';

const TITLE: Record<RemovalIntent, string> = { delete: 'Удаление', cancel: 'Отменить мастер-класс?' };

/** The usual question, with the series' choice for a session of a weekly series. */
function DeleteSessionDialog({ schedule, onClose }: { schedule: ScheduleListItem; onClose: () => void }) {
  const [scope, setScope] = useState<'one' | 'following'>('one');
  if (schedule.series_id == null)
    return (
      <ConfirmDelete
        opened
        onClose={onClose}
        what={schedule.workshop.title}
        onConfirm={() => deleteObject(scheduleApi.delete, { params: { id: schedule.id } })}
      />
    );
  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      onConfirm={() => deleteObject(scheduleApi.delete, { params: { id: schedule.id }, query: { scope } })}
      title="Удаление"
      confirmLabel="Удалить"
    >
      <Text>{DELETE_QUESTION}</Text>
      <Text size="sm" c="gray.7">
        {schedule.workshop.title} — повторяющийся мастер-класс
      </Text>
      <SegmentedControl
        aria-label="Что удалить"
        data={SCOPE_OPTIONS}
        value={scope}
        onChange={(v) => setScope(v as 'one' | 'following')}
      />
    </ConfirmDialog>
  );
}

/** Neither deleted nor cancelled (past, or cancelled already): why, what it holds, and that it stays in История. */
function KeptSessionDialog({
  schedule,
  removal,
  intent,
  onClose,
}: {
  schedule: ScheduleListItem;
  removal: ScheduleRemoval;
  intent: RemovalIntent;
  onClose: () => void;
}) {
  const why = intent === 'cancel' ? removal.cancel.detail : removal.delete.detail;
  return (
    <Modal
      opened
      onClose={onClose}
      title={<Text fw={700}>{TITLE[intent]}</Text>}
      size="md"
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
    >
      <Stack gap="md" data-testid="session-kept">
        <SessionLine schedule={schedule} />
        <Text size="sm">{why}</Text>
        {removal.bookings > 0 && (
          <Text size="sm" fw={500}>
            Записей: {removal.bookings}, оплачено по ним: {formatPrice(removal.money.paid)}.
          </Text>
        )}
        <EarlierRefunds removal={removal} />
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Понятно
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Asks the server what removing the session would do, then opens the dialog that fits: the delete question,
 * the cancel (with the bookings and the money), or why it stays. The first fresh answer decides: a later
 * refresh (after another change, on focus) never swaps the dialog under the reason being typed.
 */
export function ScheduleRemovalDialog({
  schedule,
  intent,
  onClose,
}: {
  schedule: ScheduleListItem;
  intent: RemovalIntent;
  onClose: () => void;
}) {
  const fresh = useApi(
    scheduleApi.removal,
    { params: { id: schedule.id } },
    {
      onError: (err) => {
        toastError(TITLES.general, err);
        onClose();
      },
    },
  );
  const [removal, setRemoval] = useState<ScheduleRemoval | null>(null);
  // A cached answer may be old: wait for the one asked now (adjusting state while rendering, as React allows).
  if (removal === null && fresh.data && !fresh.isValidating) setRemoval(fresh.data);
  if (removal === null)
    return (
      <Modal
        opened
        onClose={onClose}
        title={<Text fw={700}>{TITLE[intent]}</Text>}
        size="sm"
        closeButtonProps={{ 'aria-label': 'Закрыть' }}
      >
        <Center py="lg" aria-busy="true">
          <Loader size="sm" aria-label="Загрузка" />
        </Center>
      </Modal>
    );
  if (intent === 'delete' && removal.delete.ok) return <DeleteSessionDialog schedule={schedule} onClose={onClose} />;
  if (removal.cancel.ok)
    return (
      <CancelSessionDialog schedule={schedule} removal={removal} fromDelete={intent === 'delete'} onClose={onClose} />
    );
  return <KeptSessionDialog schedule={schedule} removal={removal} intent={intent} onClose={onClose} />;
}
