import { useState } from 'react';
import { Button, Skeleton, Stack, Text } from '@mantine/core';
import useSWR from 'swr';
import type { AddressesPublic } from '../../../contract/addresses';
import type { SchedulePublic, SchedulesPublic } from '../../../contract/schedule';
import type { WorkshopsPublic } from '../../../contract/workshops';
import { api, keys } from '../api';
import { ScheduleForm } from '../forms/ScheduleForm';
import { deleteObject, runChange } from '../mutations';
import { MESSAGES, TITLES, toastError } from '../notify';
import '../pageStyles';
import { ConfirmDelete, ConfirmDialog } from './ConfirmDialog';
import { EmptyState } from './EmptyState';
import { IconPlus } from './icons';
import { PageHeader } from './PageHeader';
import { ScheduleCard } from './ScheduleCard';

export const NOTIFIED_BEFORE = 'Уведомления уже были отправлены ранее';

/** The add/edit dialog waits for the workshop and address lists it offers. */
function ScheduleDialog({ schedule, onClose }: { schedule?: SchedulePublic; onClose: () => void }) {
  const workshops = useSWR<WorkshopsPublic>(keys.workshops, { onError: (err) => toastError(TITLES.workshops, err) });
  const addresses = useSWR<AddressesPublic>(keys.addresses, { onError: (err) => toastError(TITLES.general, err) });
  if (!workshops.data || !addresses.data) return null;
  return (
    <ScheduleForm
      opened
      onClose={onClose}
      schedule={schedule}
      workshops={[...workshops.data.data].sort((a, b) => b.id - a.id)}
      addresses={addresses.data.data}
    />
  );
}

/** /schedule (upcoming: add, notify, edit, delete) and /past (edit, delete). */
export function ScheduleList({ kind }: { kind: 'upcoming' | 'past' }) {
  const upcoming = kind === 'upcoming';
  const { data, isLoading } = useSWR<SchedulesPublic>(upcoming ? keys.schedule : keys.past, {
    onError: (err) => toastError(TITLES.en, err),
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<SchedulePublic | null>(null);
  const [deleting, setDeleting] = useState<SchedulePublic | null>(null);
  const [notifying, setNotifying] = useState<SchedulePublic | null>(null);

  const notify = async (s: SchedulePublic) => {
    await runChange(() => api.post(`/schedule/notify/${s.id}`), MESSAGES.notified);
  };

  const sessions = data?.data ?? [];
  return (
    <>
      <PageHeader title={upcoming ? 'Расписание' : 'История'}>
        {upcoming && (
          <Button leftSection={<IconPlus />} onClick={() => setAdding(true)}>
            Добавить
          </Button>
        )}
      </PageHeader>
      {isLoading ? (
        <Stack gap="lg">
          <Skeleton h={220} radius="md" />
          <Skeleton h={220} radius="md" />
        </Stack>
      ) : sessions.length === 0 ? (
        <EmptyState text={upcoming ? 'Запланированных мастер-классов нет.' : 'Прошедших мастер-классов пока нет.'} />
      ) : (
        <Stack gap="lg">
          {sessions.map((s) => (
            <ScheduleCard
              key={s.id}
              schedule={s}
              onNotify={upcoming ? () => setNotifying(s) : undefined}
              onEdit={() => setEditing(s)}
              onDelete={() => setDeleting(s)}
            />
          ))}
        </Stack>
      )}
      {adding && <ScheduleDialog onClose={() => setAdding(false)} />}
      {editing && <ScheduleDialog key={editing.id} schedule={editing} onClose={() => setEditing(null)} />}
      <ConfirmDelete
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        what={deleting?.workshop.title}
        onConfirm={() => deleteObject(`/schedule/${deleting!.id}`)}
      />
      <ConfirmDialog
        opened={notifying !== null}
        onClose={() => setNotifying(null)}
        onConfirm={() => notify(notifying!)}
        title="Отправка уведомлений"
        confirmLabel="Отправить"
        color={notifying?.is_notified ? 'red' : 'teal'}
      >
        <Text>Отправить напоминание всем участникам мастер-класса?</Text>
        {notifying?.is_notified && (
          <Text c="red" fw={500}>
            {NOTIFIED_BEFORE}
          </Text>
        )}
      </ConfirmDialog>
    </>
  );
}
