import { useState } from 'react';
import { ActionIcon, Anchor, Button, Card, Group, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { AddressPublic } from '../../../contract/addresses';
import { addressesApi } from '../../../contract/endpoints/addresses';
import { useApi } from '../query';
import { AddressForm } from '../forms/AddressForm';
import { deleteObject } from '../mutations';
import { TITLES, toastError } from '../notify';
import { ConfirmDelete } from './ConfirmDialog';
import { EmptyState } from './EmptyState';
import { IconEdit, IconMapPin, IconPlus, IconTrash } from './icons';

export function AddressList() {
  const { data, isLoading } = useApi(
    addressesApi.list,
    {},
    {
      onError: (err) => toastError(TITLES.general, err),
    },
  );
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<AddressPublic | null>(null);
  const [deleting, setDeleting] = useState<AddressPublic | null>(null);
  const addresses = data?.data ?? [];
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={3}>Адреса</Title>
        <Button leftSection={<IconPlus />} onClick={() => setAdding(true)}>
          Добавить
        </Button>
      </Group>
      {isLoading ? (
        <Stack>
          <Skeleton h={80} />
          <Skeleton h={80} />
        </Stack>
      ) : addresses.length === 0 ? (
        <EmptyState text="Адресов пока нет. Добавьте первый." />
      ) : (
        <Stack gap="sm">
          {addresses.map((a) => (
            <Card key={a.id} padding="md" data-testid="address-card" shadow="none">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Group gap="sm" align="flex-start" wrap="nowrap">
                  <IconMapPin style={{ flexShrink: 0, marginTop: 2, color: 'var(--mantine-color-teal-6)' }} />
                  <Stack gap={2}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {a.title}
                    </Text>
                    <Anchor
                      href={a.map_link}
                      target="_blank"
                      rel="noopener noreferrer"
                      size="sm"
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {a.map_link}
                    </Anchor>
                    {a.description && (
                      <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
                        {a.description}
                      </Text>
                    )}
                  </Stack>
                </Group>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label="Редактировать">
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      onClick={() => setEditing(a)}
                      aria-label={`Редактировать ${a.title}`}
                    >
                      <IconEdit />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Удалить">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => setDeleting(a)}
                      aria-label={`Удалить ${a.title}`}
                    >
                      <IconTrash />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {adding && <AddressForm opened onClose={() => setAdding(false)} />}
      {editing && <AddressForm key={editing.id} address={editing} opened onClose={() => setEditing(null)} />}
      <ConfirmDelete
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        what={deleting?.title}
        onConfirm={() => deleteObject(addressesApi.delete, { params: { id: deleting!.id } })}
      />
    </>
  );
}
