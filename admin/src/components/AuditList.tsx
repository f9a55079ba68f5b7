import { Badge, Group, Stack, Text } from '@mantine/core';
import { AUDIT_ACTION_LABELS, AUDIT_ENTITY_LABELS, AUDIT_FIELD_LABELS, type AuditEntry } from '../../../contract/audit';
import { ATTENDANCE_LABELS, PARTICIPANT_STATE_LABELS } from '../../../contract/records';
import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from '../../../contract/money';
import { STAFF_ROLE_LABELS } from '../../../contract/users';
import { formatDateTime, formatMoney } from '../../../contract/format';
import { config } from '../config';

/** Ids the entry names otherwise (its object, a ledger row, a Telegram account): not worth a line. */
const HIDDEN = new Set(['id', 'payment_id', 'telegram_id']);
/** Fields whose value is a code with a Russian name. */
const VALUE_LABELS: Record<string, Record<string, string>> = {
  state: PARTICIPANT_STATE_LABELS,
  attendance: ATTENDANCE_LABELS,
  status: PAYMENT_STATUS_LABELS,
  method: PAYMENT_METHOD_LABELS,
  role: STAFF_ROLE_LABELS,
};
const MONEY = new Set(['amount', 'amount_paid', 'price']);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function show(field: string, value: unknown, names: Record<string, string>): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field.endsWith('_id')) return names[`${field}:${String(value)}`] ?? 'удалено';
  const label = VALUE_LABELS[field]?.[String(value)];
  if (label) return label;
  if (MONEY.has(field) && typeof value === 'number') return formatMoney(value);
  if (typeof value === 'string' && INSTANT.test(value)) return formatDateTime(value, config.businessTimezone);
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const empty = (v: unknown) => v === null || v === undefined || v === '';

/** "Поле: было → стало" for each field the entry changed (fields left as they were, or empty, are skipped). */
export function changeLines(e: Pick<AuditEntry, 'before' | 'after'> & { names?: AuditEntry['names'] }): string[] {
  const names = e.names ?? {};
  const fields = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])].filter(
    (f) => !HIDDEN.has(f),
  );
  return fields.flatMap((f) => {
    const inBefore = e.before !== null && f in e.before;
    const inAfter = e.after !== null && f in e.after;
    if (inBefore && inAfter && same(e.before![f], e.after![f])) return [];
    // What an object was created or deleted with: only the fields it had.
    if (inBefore !== inAfter && empty((inAfter ? e.after : e.before)![f])) return [];
    const label = AUDIT_FIELD_LABELS[f] ?? f;
    const before = inBefore ? show(f, e.before![f], names) : null;
    const after = inAfter ? show(f, e.after![f], names) : null;
    if (before !== null && after !== null) return [`${label}: ${before} → ${after}`];
    return [`${label}: ${after ?? before}`];
  });
}

/** Log entries, newest first: when, who, what (by name), before → after. */
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
              <Badge
                variant="outline"
                color="gray.8"
                size="sm"
                tt="none"
                maw="100%"
                styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
                h="auto"
              >
                {AUDIT_ENTITY_LABELS[e.entity] ?? e.entity}
                {e.subject ? `: ${e.subject}` : ''}
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
