import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { STAFF_ROLE_LABELS, type UserPublic } from '../../../contract/users';
import { usersApi } from '../../../contract/endpoints/users';
import { ConfirmDelete } from '../components/ConfirmDialog';
import { IconEdit, IconPlus, IconTrash } from '../components/icons';
import { PageHeader } from '../components/PageHeader';
import { UserForm } from '../forms/UserForm';
import { deleteObject } from '../mutations';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import '../pageStyles';
import { useCurrentUser } from '../session';
import { useCan } from '../session';

export const USER_COLUMNS = ['Имя', 'Email', 'Роль', 'Статус', 'Действия'] as const;
/** An account's status: a disabled one cannot log in. */
export const USER_STATUS_LABELS = { active: 'Активен', disabled: 'Отключён' } as const;

function StatusDot({ active }: { active: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <Box w={8} h={8} style={{ borderRadius: '50%', flexShrink: 0 }} bg={active ? 'teal.6' : 'red.6'} aria-hidden />
      <Text size="sm">{USER_STATUS_LABELS[active ? 'active' : 'disabled']}</Text>
    </Group>
  );
}

export function UsersTable({
  users,
  me,
  onEdit,
  onDelete,
}: {
  users: UserPublic[];
  me?: UserPublic;
  onEdit: (u: UserPublic) => void;
  onDelete: (u: UserPublic) => void;
}) {
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table className="phone-cards" verticalSpacing="sm" highlightOnHover miw={680} data-testid="users-table">
        <Table.Thead>
          <Table.Tr>
            {USER_COLUMNS.map((c) => (
              <Table.Th key={c}>{c}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((u) => {
            const isMe = u.id === me?.id;
            return (
              <Table.Tr key={u.id} data-user-id={u.id}>
                <Table.Td data-label={USER_COLUMNS[0]}>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm" c={u.full_name ? undefined : 'dimmed'}>
                      {u.full_name || 'N/A'}
                    </Text>
                    {isMe && (
                      <Badge size="sm" color="teal" variant="light">
                        Вы
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td data-label={USER_COLUMNS[1]}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {u.email}
                  </Text>
                </Table.Td>
                <Table.Td data-label={USER_COLUMNS[2]}>
                  <Text size="sm">{STAFF_ROLE_LABELS[u.role ?? (u.is_superuser ? 'owner' : 'manager')]}</Text>
                </Table.Td>
                <Table.Td data-label={USER_COLUMNS[3]}>
                  <StatusDot active={u.is_active} />
                </Table.Td>
                <Table.Td data-label={USER_COLUMNS[4]}>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="Редактировать">
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        onClick={() => onEdit(u)}
                        aria-label={`Редактировать ${u.email}`}
                      >
                        <IconEdit />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={isMe ? 'Нельзя удалить себя' : 'Удалить'}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => onDelete(u)}
                        disabled={isMe}
                        aria-label={`Удалить ${u.email}`}
                      >
                        <IconTrash />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

export default function Users() {
  const { data: me, isLoading: meLoading } = useCurrentUser();
  const allowed = useCan().can('users.manage');
  const { data, isLoading } = useApi(usersApi.list, allowed ? { query: { skip: 0, limit: 100 } } : null, {
    onError: (err) => toastError(TITLES.en, err),
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserPublic | null>(null);
  const [deleting, setDeleting] = useState<UserPublic | null>(null);

  return (
    <>
      <PageHeader title="Пользователи">
        {allowed && (
          <Button leftSection={<IconPlus />} onClick={() => setAdding(true)}>
            Добавить
          </Button>
        )}
      </PageHeader>
      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }}>
        {meLoading || isLoading || !data ? (
          <Stack p="sm">
            <Skeleton h={28} />
            <Skeleton h={28} />
            <Skeleton h={28} />
          </Stack>
        ) : (
          <UsersTable users={data.data} me={me} onEdit={setEditing} onDelete={setDeleting} />
        )}
      </Paper>
      {adding && <UserForm opened onClose={() => setAdding(false)} />}
      {editing && <UserForm key={editing.id} user={editing} opened onClose={() => setEditing(null)} />}
      <ConfirmDelete
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        what={deleting?.email}
        onConfirm={() => deleteObject(usersApi.delete, { params: { user_id: deleting!.id } })}
      />
    </>
  );
}
