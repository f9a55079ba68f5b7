import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Container,
  Group,
  Modal,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import useSWR from 'swr';
import type {
  PlatformDeleted,
  PlatformOwner,
  PlatformStudio,
  PlatformStudioList,
  PlatformStudioStatus,
} from '../../../contract/platform';
import { ApiError, messageOf } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { EmptyState } from '../components/EmptyState';
import { toastError, toastSuccess } from '../notify';
import '../pageStyles';
import { platformDownload, platformLogout, platformRequest } from './api';
import { OWNER_KEY, STUDIOS_KEY } from './keys';

const PHONE = '(max-width: 48em)';

export const STUDIO_COLUMNS = ['Студия', 'Статус', 'Бот', 'Очередь', 'Ошибки за 24 ч', 'Версия', 'Действия'] as const;

export const STATUS_LABELS: Record<PlatformStudioStatus, { label: string; color: string }> = {
  active: { label: 'Работает', color: 'teal' },
  suspended: { label: 'Приостановлена', color: 'orange' },
  failed: { label: 'Ошибка', color: 'red' },
  moving: { label: 'Переезжает', color: 'blue' },
};

/** "12 с", "5 мин", "3 ч", "2 дн": how long the oldest notification has waited. */
export function waited(s: number): string {
  if (s < 60) return `${Math.round(s)} с`;
  if (s < 3600) return `${Math.round(s / 60)} мин`;
  if (s < 86_400) return `${Math.round(s / 3600)} ч`;
  return `${Math.round(s / 86_400)} дн`;
}

/** A bot's problem as the owner reads it. */
function botProblem(problem: string | null): string | null {
  if (!problem) return null;
  if (problem.startsWith('setup-pending'))
    return `Не настроен в Telegram${problem.length > 'setup-pending'.length ? problem.slice('setup-pending'.length) : ''}: повторится при запуске`;
  return problem;
}

/** What a failed list load says, with what to do. */
function listProblem(err: unknown): string {
  if (err instanceof ApiError && err.status >= 500)
    return `${err.detail}. Сервер платформы не смог собрать список: посмотрите его журнал и нажмите «Повторить».`;
  return `${messageOf(err)}. Нажмите «Повторить».`;
}

function StudioRow({
  studio,
  latest,
  busy,
  onSuspend,
  onResume,
  onExport,
  onDelete,
}: {
  studio: PlatformStudio;
  latest: string;
  busy: string | null;
  onSuspend: () => void;
  onResume: () => void;
  onExport: () => void;
  onDelete: () => void;
}) {
  // Phone: each row is a card (phone-cards.css) whose values sit on the right.
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  const side = phone ? 'flex-end' : 'flex-start';
  const status = STATUS_LABELS[studio.status];
  const h = studio.health;
  const problem = botProblem(studio.bot?.problem ?? null);
  const bot =
    studio.bot?.state === 'lost'
      ? { label: 'потерян', color: 'red' }
      : problem
        ? { label: 'не настроен', color: 'orange' }
        : { label: 'работает', color: 'teal' };
  return (
    <Table.Tr data-studio={studio.slug}>
      <Table.Td data-label={STUDIO_COLUMNS[0]} miw={140}>
        <Stack gap={2} align={side}>
          <Text size="sm" fw={600}>
            {studio.name}
          </Text>
          <Anchor href={`/s/${studio.slug}/`} size="sm" target="_blank" rel="noopener">
            /s/{studio.slug}
          </Anchor>
        </Stack>
      </Table.Td>
      <Table.Td data-label={STUDIO_COLUMNS[1]} miw={130}>
        <Stack gap={4} align={side}>
          <Badge color={status.color} variant="light" data-testid="studio-status">
            {status.label}
          </Badge>
          {studio.problem && (
            <Text size="xs" c="dimmed" maw={240}>
              {studio.problem}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td data-label={STUDIO_COLUMNS[2]} miw={190}>
        {studio.bot ? (
          <Stack gap={4} align={side}>
            <Group gap={6} wrap="wrap" justify={side}>
              <Text size="sm">@{studio.bot.username}</Text>
              <Badge size="sm" variant="light" color={bot.color} style={{ flexShrink: 0 }}>
                {bot.label}
              </Badge>
            </Group>
            {problem && (
              <Text size="xs" c="dimmed" maw={240}>
                {problem}
              </Text>
            )}
            {studio.webhook?.last_error && (
              <Text size="xs" c="red.9" maw={240}>
                Вебхук: {studio.webhook.last_error}
              </Text>
            )}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Нет бота
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label={STUDIO_COLUMNS[3]}>
        {h ? (
          <Stack gap={2} align={side}>
            <Text size="sm" data-testid="studio-backlog">
              {h.pending === 0 ? 'пусто' : `${h.pending} в очереди`}
            </Text>
            {h.oldest_pending_s !== null && h.pending > 0 && (
              <Text size="xs" c="dimmed">
                старейшее ждёт {waited(h.oldest_pending_s)}
              </Text>
            )}
            {h.retrying > 0 && (
              <Text size="xs" c="dimmed">
                повторяются: {h.retrying}
              </Text>
            )}
          </Stack>
        ) : (
          <Text size="xs" c="red.9" maw={200}>
            {studio.health_problem ?? 'Нет данных'}
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label={STUDIO_COLUMNS[4]} miw={150}>
        {h && (
          <Stack gap={2} align={side} data-testid="studio-failures">
            <Text size="sm">не доставлено: {h.failed_24h}</Text>
            <Text size="sm" title={h.rate_limited_24h === null ? 'Этот сервер не считает ответы 429' : undefined}>
              429 от Telegram: {h.rate_limited_24h ?? 'не считаются'}
            </Text>
            {h.last_error && (
              <Text size="xs" c="dimmed" maw={240} lineClamp={2} title={h.last_error}>
                {h.last_error}
              </Text>
            )}
          </Stack>
        )}
      </Table.Td>
      <Table.Td data-label={STUDIO_COLUMNS[5]}>
        {studio.version === latest ? (
          <Text size="sm" title={studio.version}>
            актуальная
          </Text>
        ) : (
          <Stack gap={2} align={side}>
            <Badge size="sm" variant="light" color="orange">
              не обновлена
            </Badge>
            <Text size="xs" ff="monospace">
              {studio.version || '—'}
            </Text>
          </Stack>
        )}
      </Table.Td>
      <Table.Td data-label={STUDIO_COLUMNS[6]} miw={phone ? undefined : 230}>
        <Group gap={6} justify="flex-end" wrap="wrap">
          {studio.status === 'suspended' ? (
            <Button size="xs" variant="light" onClick={onResume} loading={busy === 'resume'} disabled={busy !== null}>
              Возобновить
            </Button>
          ) : (
            <Button
              size="xs"
              variant="light"
              color="orange"
              onClick={onSuspend}
              disabled={busy !== null || studio.status === 'moving'}
            >
              Приостановить
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            onClick={onExport}
            loading={busy === 'export'}
            disabled={busy !== null || studio.status === 'moving'}
          >
            Выгрузить
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={onDelete}
            disabled={busy !== null || studio.status === 'moving'}
          >
            Удалить
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** «Удалить» asks for the studio's address typed out: nothing of it can be brought back afterwards. */
function DeleteDialog({
  studio,
  onClose,
  onDeleted,
}: {
  studio: PlatformStudio | null;
  onClose: () => void;
  onDeleted: (result: PlatformDeleted, studio: PlatformStudio) => void;
}) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    if (busy) return;
    setTyped('');
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (!studio) return;
    setBusy(true);
    setError(null);
    try {
      const result = await platformRequest<PlatformDeleted>('DELETE', `/studios/${studio.id}`, { confirm: typed });
      setTyped('');
      onDeleted(result, studio);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened={studio !== null}
      onClose={close}
      title={<Text fw={700}>Удалить студию «{studio?.name}»?</Text>}
      size="md"
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
    >
      <Stack gap="md">
        <Text size="sm">
          Будут удалены все данные студии: записи, клиенты, платежи, расписание. Вернуть их нельзя. Если они могут
          понадобиться, сначала нажмите «Выгрузить».
        </Text>
        <TextInput
          label={`Введите адрес студии: ${studio?.slug ?? ''}`}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          data-testid="delete-confirm"
          onKeyDown={(e) => {
            if (e.key === 'Enter' && typed === studio?.slug) void confirm();
          }}
        />
        {error && (
          <Alert color="red" variant="light" title="Не удалилось">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={busy}>
            Отмена
          </Button>
          <Button color="red" onClick={confirm} loading={busy} disabled={typed !== studio?.slug}>
            Удалить навсегда
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function LoadingRows() {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Загрузка студий" data-testid="studios-loading">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} h={56} radius="md" />
      ))}
    </Stack>
  );
}

/** The platform owner's page (`/platform`): every studio with its state and health, and what may be done to it. */
export default function PlatformStudios() {
  const list = useSWR(STUDIOS_KEY, () => platformRequest<PlatformStudioList>('GET', '/studios'), {
    refreshInterval: 30_000,
    keepPreviousData: true,
  });
  const me = useSWR(OWNER_KEY, () => platformRequest<PlatformOwner>('GET', '/me'));
  const [busy, setBusy] = useState<{ id: number; action: string } | null>(null);
  const [suspending, setSuspending] = useState<PlatformStudio | null>(null);
  const [deleting, setDeleting] = useState<PlatformStudio | null>(null);

  const replace = (studio: PlatformStudio) =>
    list.mutate(
      (current) => current && { ...current, studios: current.studios.map((s) => (s.id === studio.id ? studio : s)) },
      { revalidate: false },
    );

  const act = async (studio: PlatformStudio, action: 'suspend' | 'resume') => {
    setBusy({ id: studio.id, action });
    try {
      await replace(await platformRequest<PlatformStudio>('POST', `/studios/${studio.id}/${action}`));
      toastSuccess(
        action === 'suspend'
          ? `Студия «${studio.name}» приостановлена: её страницы и бот не работают.`
          : `Студия «${studio.name}» снова работает.`,
      );
    } catch (err) {
      toastError(action === 'suspend' ? 'Не удалось приостановить' : 'Не удалось возобновить', err);
      void list.mutate();
    } finally {
      setBusy(null);
    }
  };

  const exportStudio = async (studio: PlatformStudio) => {
    setBusy({ id: studio.id, action: 'export' });
    try {
      const name = await platformDownload(`/studios/${studio.id}/export`, `${studio.slug}.ndjson.gz`);
      toastSuccess(`Архив студии сохранён: ${name}`);
    } catch (err) {
      toastError('Не удалось выгрузить студию', err);
    } finally {
      setBusy(null);
    }
  };

  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  const studios = list.data?.studios;
  return (
    <Box bg="gray.0" mih="100vh">
      <Container size="xl" py="lg" px={{ base: 'sm', sm: 'lg' }} component="main">
        <Group justify="space-between" align="flex-start" mb="lg" gap="sm">
          <Stack gap={2}>
            <Title order={1} fz={{ base: 24, sm: 30 }}>
              Студии платформы
            </Title>
            <Text size="sm" c="dimmed">
              {me.data ? `Владелец платформы: ${me.data.email}` : 'Владелец платформы'}
              {studios ? ` · студий: ${studios.length}` : ''}
            </Text>
          </Stack>
          <Group gap="xs">
            <Button
              variant="default"
              size="sm"
              onClick={() => void list.mutate()}
              loading={list.isValidating && !!studios}
            >
              Обновить
            </Button>
            <Button variant="subtle" size="sm" onClick={platformLogout}>
              Выйти
            </Button>
          </Group>
        </Group>

        {list.error !== undefined && (
          <Alert color="red" variant="light" title="Список студий не загрузился" mb="md" data-testid="studios-error">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{listProblem(list.error)}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void list.mutate()}>
                Повторить
              </Button>
            </Stack>
          </Alert>
        )}

        {!studios && list.error === undefined && <LoadingRows />}
        {studios && studios.length === 0 && (
          <Stack gap="xs">
            <EmptyState text="Студий пока нет" />
            <Text size="sm" c="dimmed" ta="center">
              Студия появляется, когда её владелец создаёт бота через бот платформы.
            </Text>
          </Stack>
        )}
        {studios && studios.length > 0 && (
          <Paper withBorder={!phone} radius="md" p={phone ? 0 : 'xs'} bg={phone ? 'transparent' : 'white'}>
            <ScrollArea type="auto" offsetScrollbars>
              <Table className="phone-cards" verticalSpacing="sm" miw={1000} data-testid="studios-table">
                <Table.Thead>
                  <Table.Tr>
                    {STUDIO_COLUMNS.map((c) => (
                      <Table.Th key={c} ta={c === 'Действия' ? 'right' : undefined}>
                        {c}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {studios.map((s) => (
                    <StudioRow
                      key={s.id}
                      studio={s}
                      latest={list.data!.latest_version}
                      busy={busy?.id === s.id ? busy.action : null}
                      onSuspend={() => setSuspending(s)}
                      onResume={() => void act(s, 'resume')}
                      onExport={() => void exportStudio(s)}
                      onDelete={() => setDeleting(s)}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Paper>
        )}
      </Container>

      <ConfirmDialog
        opened={suspending !== null}
        onClose={() => setSuspending(null)}
        onConfirm={() => (suspending ? act(suspending, 'suspend') : undefined)}
        title={`Приостановить «${suspending?.name ?? ''}»?`}
        confirmLabel="Приостановить"
        // Filled orange under white text is 4.3:1 (below AA): the primary colour instead.
        color="teal"
      >
        <Text size="sm">
          Страницы, приложение и бот студии перестанут работать сразу, данные останутся. Клиенты увидят, что студия
          приостановлена. Вернуть можно кнопкой «Возобновить».
        </Text>
      </ConfirmDialog>

      <DeleteDialog
        studio={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(result, studio) => {
          setDeleting(null);
          void list.mutate(
            (current) => current && { ...current, studios: current.studios.filter((s) => s.slug !== result.slug) },
            { revalidate: true },
          );
          const gone = `Студия «${studio.name}» (/s/${result.slug}) удалена.`;
          if (result.webhook_problem)
            notifications.show({
              color: 'orange',
              title: gone,
              message: `${result.webhook_problem}. Telegram будет слать боту обновления, пока вебхук не снят: удалите бота или смените его токен в @BotFather.`,
              withBorder: true,
              autoClose: false,
              closeButtonProps: { 'aria-label': 'Закрыть уведомление' },
            });
          else toastSuccess(gone);
        }}
      />
    </Box>
  );
}
