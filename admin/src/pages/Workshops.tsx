import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import type { WorkshopPublic } from '../../../contract/workshops';
import { workshopsApi } from '../../../contract/endpoints/workshops';
import { ConfirmDelete } from '../components/ConfirmDialog';
import { EmptyState } from '../components/EmptyState';
import { IconEdit, IconPlus, IconTrash } from '../components/icons';
import { PageHeader } from '../components/PageHeader';
import { WorkshopForm } from '../forms/WorkshopForm';
import { formatPrice } from '../../../contract/format';
import { deleteObject } from '../mutations';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import '../pageStyles';

const LANGUAGE_TAGS = { en: 'EN', sr: 'SR' } as const;

function WorkshopCard({
  workshop,
  onEdit,
  onDelete,
}: {
  workshop: WorkshopPublic;
  onEdit: () => void;
  onDelete: () => void;
}) {
  // The mini-app shows the Russian title where a language has none: staff should know.
  const untranslated = (['en', 'sr'] as const)
    .filter((l) => !workshop[`title_${l}`]?.trim())
    .map((l) => LANGUAGE_TAGS[l]);
  return (
    <Card padding="lg" data-testid="workshop-card">
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={4} style={{ overflowWrap: 'anywhere' }}>
            {workshop.title}
          </Title>
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Редактировать">
              <ActionIcon variant="subtle" color="gray" onClick={onEdit} aria-label={`Редактировать ${workshop.title}`}>
                <IconEdit />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Удалить">
              <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={`Удалить ${workshop.title}`}>
                <IconTrash />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <Group gap="xs">
          <Badge variant="light" color="teal" size="lg" w="fit-content">
            {formatPrice(workshop.price)}
          </Badge>
          {untranslated.length > 0 && (
            <Tooltip label="Клиенты на этих языках увидят название по-русски">
              <Badge variant="light" color="orange" size="lg" data-testid="missing-translation">
                Нет перевода названия: {untranslated.join(', ')}
              </Badge>
            </Tooltip>
          )}
        </Group>
        {workshop.description && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }} lineClamp={6}>
            {workshop.description}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

export default function Workshops() {
  const { data, isLoading } = useApi(
    workshopsApi.list,
    {},
    {
      onError: (err) => toastError(TITLES.workshops, err),
    },
  );
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<WorkshopPublic | null>(null);
  const [deleting, setDeleting] = useState<WorkshopPublic | null>(null);
  const workshops = [...(data?.data ?? [])].sort((a, b) => b.id - a.id);

  return (
    <>
      <PageHeader title="Мастер-классы">
        <Button leftSection={<IconPlus />} onClick={() => setAdding(true)}>
          Добавить
        </Button>
      </PageHeader>
      {isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={160} radius="md" />
          ))}
        </SimpleGrid>
      ) : workshops.length === 0 ? (
        <EmptyState text="Мастер-классов пока нет. Добавьте первый." />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {workshops.map((w) => (
            <WorkshopCard key={w.id} workshop={w} onEdit={() => setEditing(w)} onDelete={() => setDeleting(w)} />
          ))}
        </SimpleGrid>
      )}
      {adding && <WorkshopForm opened onClose={() => setAdding(false)} />}
      {editing && <WorkshopForm key={editing.id} workshop={editing} opened onClose={() => setEditing(null)} />}
      <ConfirmDelete
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        what={deleting?.title}
        onConfirm={() => deleteObject(workshopsApi.delete, { params: { id: deleting!.id } })}
      />
    </>
  );
}
