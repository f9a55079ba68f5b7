import type { FormEventHandler, ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/** A dialog holding one form: fields, then 'Сохранить' and 'Отмена'. */
export function FormModal({
  opened,
  onClose,
  title,
  onSubmit,
  saveDisabled,
  saving,
  children,
  size = 'md',
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  saveDisabled?: boolean;
  saving?: boolean;
  children: ReactNode;
  size?: string;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
      title={
        <Text fw={700} size="lg">
          {title}
        </Text>
      }
      size={size}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {children}
          <Group justify="flex-end" gap="sm" mt="sm">
            <Button variant="default" onClick={onClose}>
              Отмена
            </Button>
            <Button type="submit" disabled={saveDisabled} loading={saving}>
              Сохранить
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
