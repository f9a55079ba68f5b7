import { useState } from 'react';
import { Anchor, Badge, Group, Modal, ScrollArea, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { customersApi } from '../../../contract/endpoints/customers';
import { ATTENDANCE_LABELS, PARTICIPANT_STATE_LABELS } from '../../../contract/records';
import { formatDateTime, fullName } from '../../../contract/format';
import { config } from '../config';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { Pager } from '../components/Pager';
import { CustomerNoteEditor } from '../components/CustomerNoteEditor';
import '../pageStyles';

const PAGE_SIZE = 20;
const when = (iso: string | null) => (iso ? formatDateTime(iso, config.businessTimezone) : '—');

/** One customer's bookings, latest session first. */
function CustomerHistory({ telegramId, onClose }: { telegramId: number; onClose: () => void }) {
  const { data } = useApi(
    customersApi.get,
    { params: { telegram_id: telegramId } },
    {
      onError: (err) => toastError(TITLES.general, err),
    },
  );
  return (
    <Modal opened onClose={onClose} title={data ? `Клиент: ${fullName(data)}` : 'Клиент'} size="xl">
      {!data ? (
        <Skeleton h={160} />
      ) : (
        <Stack gap="md" data-testid="customer-history">
          <Group gap="xs">
            <Badge variant="outline" color="gray.8">
              Записей {data.bookings}
            </Badge>
            <Badge variant="outline" color="teal.9">
              Пришёл {data.attended}
            </Badge>
            <Badge variant="outline" color="red.9">
              Неявок {data.no_shows}
            </Badge>
            <Badge variant="outline" color="gray.8">
              Отмен {data.cancellations}
            </Badge>
          </Group>
          {data.allergies.length > 0 && <Text c="red.9">Аллергия: {data.allergies.join(', ')}</Text>}
          <CustomerNoteEditor key={data.note ?? ''} telegramId={data.telegram_id} note={data.note ?? null} />
          <ScrollArea type="auto">
            <Table miw={560} fz="sm" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Дата</Table.Th>
                  <Table.Th>Мастер-класс</Table.Th>
                  <Table.Th>Статус</Table.Th>
                  <Table.Th>Количество</Table.Th>
                  <Table.Th>Посещение</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.records.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>{when(r.date)}</Table.Td>
                    <Table.Td>{r.workshop_title}</Table.Td>
                    <Table.Td>
                      {PARTICIPANT_STATE_LABELS[r.state]}
                      {r.cancel_reason ? `: ${r.cancel_reason}` : ''}
                    </Table.Td>
                    <Table.Td>{r.people_count}</Table.Td>
                    <Table.Td>{r.attendance ? ATTENDANCE_LABELS[r.attendance] : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Stack>
      )}
    </Modal>
  );
}

/** Клиенты: everyone who booked from Telegram, searchable by name or login, with their history. */
export default function CustomersListPage() {
  const [q, setQ] = useState('');
  const [query] = useDebouncedValue(q.trim(), 300);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const { data, isLoading } = useApi(
    customersApi.list,
    { query: { skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, q: query } },
    {
      onError: (err) => toastError(TITLES.general, err),
      keepPreviousData: true,
    },
  );
  return (
    <>
      <PageHeader title="Клиенты" />
      <TextInput
        label="Поиск по имени или логину"
        placeholder="Анна или @anna"
        value={q}
        onChange={(e) => {
          setQ(e.currentTarget.value);
          setPage(1);
        }}
        mb="lg"
        maw={420}
      />
      {isLoading && !data ? (
        <Skeleton h={240} radius="md" />
      ) : !data || data.data.length === 0 ? (
        <EmptyState text={query ? 'Никого не нашлось.' : 'Клиентов пока нет.'} />
      ) : (
        <ScrollArea type="auto" bg="white" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Table miw={860} verticalSpacing="sm" highlightOnHover fz="sm" data-testid="customers-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Имя</Table.Th>
                <Table.Th>Telegram</Table.Th>
                <Table.Th>Записей</Table.Th>
                <Table.Th>Пришёл</Table.Th>
                <Table.Th>Неявок</Table.Th>
                <Table.Th>Отмен</Table.Th>
                <Table.Th>Последний визит</Table.Th>
                <Table.Th>Аллергия</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((c) => (
                <Table.Tr key={c.telegram_id}>
                  <Table.Td>
                    <Anchor component="button" type="button" fz="sm" ta="left" onClick={() => setOpen(c.telegram_id)}>
                      {fullName(c) || '—'}
                    </Anchor>
                    {c.note && (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        Заметка: {c.note}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{c.telegram_login ? `@${c.telegram_login}` : c.telegram_id}</Table.Td>
                  <Table.Td>{c.bookings}</Table.Td>
                  <Table.Td>{c.attended}</Table.Td>
                  <Table.Td>
                    {c.no_shows > 0 ? (
                      <Text c="red.9" fz="sm" fw={600}>
                        {c.no_shows}
                      </Text>
                    ) : (
                      0
                    )}
                  </Table.Td>
                  <Table.Td>{c.cancellations}</Table.Td>
                  <Table.Td>{when(c.last_visit)}</Table.Td>
                  <Table.Td>{c.allergies.join(', ') || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {data && data.count > 0 && <Pager page={page} pageSize={PAGE_SIZE} total={data.count} onChange={setPage} />}
      {open !== null && <CustomerHistory telegramId={open} onClose={() => setOpen(null)} />}
    </>
  );
}
