import { Badge, Group, Stack, Text } from '@mantine/core';
import { AUDIT_ACTION_LABELS, AUDIT_ENTITY_LABELS, AUDIT_FIELD_LABELS, type AuditEntry } from '../../../contract/audit';
import { ATTENDANCE_LABELS, PARTICIPANT_STATE_LABELS } from '../../../contract/records';
import { formatDateTime } from '../../../contract/format';
import { config } from '../config';

/** Not worth a line: the entry already names the object. */
const HIDDEN = new Set(['id']);

function show(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'state') return STATE_LABELS.get(String(value)) ?? String(value);
  if (field === 'attendance') return ATTENDANCE_LABELS[value as keyof typeof ATTENDANCE_LABELS] ?? String(value);
  if (field === 'date' && typeof value === 'string') return formatDateTime(value, config.businessTimezone);
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** "Поле: было → стало" for each field an entry names. */
const STATE_LABELS = new Map(Object.entries(PARTICIPANT_STATE_LABELS));

export function changeLines(e: Pick<AuditEntry, 'before' | 'after'>): string[] {
  const fields = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])].filter(
    (f) => !HIDDEN.has(f),
  );
  return fields.map((f) => {
    const label = AUDIT_FIELD_LABELS[f] ?? f;
    const before = e.before && f in e.before ? show(f, e.before[f]) : null;
    const after = e.after && f in e.after ? show(f, e.after[f]) : null;
    if (before !== null && after !== null) return `${label}: ${before} → ${after}`;
    return `${label}: ${after ?? before}`;
  });
}

/** Log entries, newest first: when, who, what, before → after. */
export function AuditList({ entries, showEntity = false }: { entries: AuditEntry[]; showEntity?: boolean }) {
  return (
    <Stack gap="sm" data-testid="audit-list">
      {entries.map((e) => (
        <Stack
          key={e.id}
          gap={2}
          data-testid="audit-entry"
          style={{ borderLeft: '3px solid var(--mantine-color-gray-3)', paddingLeft: 12 }}
        >
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {AUDIT_ACTION_LABELS[e.action] ?? e.action}
            </Text>
            {showEntity && (
              <Badge variant="outline" color="gray.8" size="sm">
                {AUDIT_ENTITY_LABELS[e.entity] ?? e.entity} #{e.entity_id}
              </Badge>
            )}
            <Text size="sm" c="gray.7">
              {formatDateTime(e.at, config.businessTimezone)} · {e.actor.name}
            </Text>
          </Group>
          {changeLines(e).map((line) => (
            <Text key={line} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {line}
            </Text>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
