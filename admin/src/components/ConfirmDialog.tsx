import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  onConfirm: () => Promise<unknown> | void;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  color?: string;
}

/** A yes/no question before anything irreversible. */
export function ConfirmDialog({
  opened,
  onClose,
  onConfirm,
  title,
  children,
  confirmLabel,
  color = 'red',
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>{title}</Text>}
      size="sm"
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
    >
      <Stack gap="lg">
        {children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Отмена
          </Button>
          <Button color={color} onClick={confirm} loading={busy} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export const DELETE_QUESTION = 'Вы действительно хотите удалить?';

/** Deletion asks for confirmation. */
export function ConfirmDelete({
  opened,
  onClose,
  onConfirm,
  what,
}: {
  opened: boolean;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
  what?: string;
}) {
  return (
    <ConfirmDialog opened={opened} onClose={onClose} onConfirm={onConfirm} title="Удаление" confirmLabel="Удалить">
      <Text>{DELETE_QUESTION}</Text>
      {what && (
        <Text size="sm" c="dimmed">
          {what}
        </Text>
      )}
    </ConfirmDialog>
  );
}
