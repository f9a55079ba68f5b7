import { Anchor, ScrollArea, Table, Text, Tooltip } from '@mantine/core';
import type { RecordPublic } from '../../../contract/records';
import { IconCircleCheck, IconCircleDashed, IconCircleX, IconClock } from './icons';

const STATES: Record<string, { label: string; color: string; Icon: typeof IconCircleCheck }> = {
  ACTIVE: { label: 'Активна', color: 'var(--mantine-color-teal-6)', Icon: IconCircleCheck },
  QUEUED: { label: 'В очереди', color: '#f59f00', Icon: IconClock },
  CANCELLED: { label: 'Отменена', color: 'var(--mantine-color-red-6)', Icon: IconCircleX },
};
const FALLBACK = { label: 'Неизвестно', color: 'var(--mantine-color-gray-6)', Icon: IconCircleDashed };

export function StateIcon({ state }: { state: string }) {
  const { label, color, Icon } = STATES[state] ?? FALLBACK;
  return (
    <Tooltip label={label}>
      <span role="img" aria-label={label} data-state={state} style={{ display: 'inline-flex', color }}>
        <Icon size={20} />
      </span>
    </Tooltip>
  );
}

const isCancelled = (r: RecordPublic) => r.state === 'CANCELLED' || r.is_cancelled;

/** Non-cancelled bookings first, then cancelled ones; otherwise the server's order. */
export function sortRecords(records: RecordPublic[]): RecordPublic[] {
  return [...records.filter((r) => !isCancelled(r)), ...records.filter(isCancelled)];
}

export const RECORD_COLUMNS = ['Имя', 'Количество', 'Telegram', 'Комментарий', 'Аллергия', 'Причина отмены'] as const;

export function RecordsTable({ records }: { records: RecordPublic[] }) {
  if (records.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Записей пока нет
      </Text>
    );
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table verticalSpacing="xs" highlightOnHover miw={760} fz="sm" data-testid="records-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40} aria-label="Статус" />
            {RECORD_COLUMNS.map((c) => (
              <Table.Th key={c}>{c}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sortRecords(records).map((r) => {
            const cancelled = isCancelled(r);
            return (
              <Table.Tr
                key={r.id}
                data-cancelled={cancelled || undefined}
                data-state={r.state}
                style={
                  cancelled
                    ? { color: 'var(--mantine-color-gray-5)', background: 'var(--mantine-color-gray-0)' }
                    : undefined
                }
              >
                <Table.Td>
                  <StateIcon state={r.state} />
                </Table.Td>
                <Table.Td>
                  <Anchor
                    href={`/record/${r.id}`}
                    target="_blank"
                    rel="noopener noreferrer"
                    c={cancelled ? 'gray.5' : undefined}
                    fz="sm"
                  >
                    {[r.name, r.last_name].filter(Boolean).join(' ')}
                  </Anchor>
                </Table.Td>
                <Table.Td>{r.people_count ?? 1}</Table.Td>
                <Table.Td>
                  {r.telegram_login ? (
                    <Anchor
                      href={`https://t.me/${r.telegram_login.replace(/^@/, '')}`}
                      target="_blank"
                      rel="noopener noreferrer"
                      c={cancelled ? 'gray.5' : undefined}
                      fz="sm"
                    >
                      @{r.telegram_login.replace(/^@/, '')}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-line' }}>{r.comment || '—'}</Table.Td>
                <Table.Td>{r.has_allergy ? r.allergy_type || 'Да' : '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-line' }}>{r.cancel_reason || '—'}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
