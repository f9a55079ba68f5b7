import { useState } from 'react';
import { Badge, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import type { AttendanceValue } from '../../../contract/records';
import { fullName } from '../../../contract/format';
import type { ScheduleListItem } from '../../../contract/schedule';
import { recordsApi } from '../../../contract/endpoints/records';
import { call } from '../api';
import { TITLES, refetchAll, toastError } from '../notify';

const NONE = 'none';
const OPTIONS = [
  { value: NONE, label: 'Не отмечен' },
  { value: 'ATTENDED', label: 'Пришёл' },
  { value: 'NO_SHOW', label: 'Не пришёл' },
];

type Row = ScheduleListItem['records'][number];

type Marked = Pick<Row, 'id' | 'attendance' | 'name' | 'last_name'>;

/** A booking's mark and its change: shown at once; the server's answer (or the refetch after an error) settles it. */
function useAttendance(r: Marked) {
  const [value, setValue] = useState<string>(r.attendance ?? NONE);
  const change = async (next: string) => {
    const before = value;
    setValue(next);
    try {
      await call(recordsApi.attendance, {
        params: { id: r.id },
        body: { attendance: next === NONE ? null : (next as AttendanceValue) },
      });
    } catch (err) {
      setValue(before);
      toastError(TITLES.general, err);
    } finally {
      void refetchAll();
    }
  };
  return [value, change] as const;
}

/** A booking's check-in mark: not marked, came, did not come. */
function AttendanceControl({ r }: { r: Marked }) {
  const [value, change] = useAttendance(r);
  const name = fullName(r);
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => void change(v)}
      data={OPTIONS}
      aria-label={`Посещение: ${name}`}
      color={value === 'NO_SHOW' ? 'red.9' : 'teal.9'}
    />
  );
}

/**
 * The mark as two buttons wide enough for a thumb at the door: «Пришёл» and «Не пришёл»; pressing the
 * chosen one again clears it (as in the bot's /today).
 */
export function AttendanceButtons({ r }: { r: Marked }) {
  const [value, change] = useAttendance(r);
  const name = fullName(r);
  const button = (mark: 'ATTENDED' | 'NO_SHOW', label: string, color: string) => (
    <Button
      flex={1}
      variant={value === mark ? 'filled' : 'default'}
      color={color}
      aria-pressed={value === mark}
      onClick={() => void change(value === mark ? NONE : mark)}
    >
      {label}
    </Button>
  );
  return (
    <Group gap="xs" wrap="nowrap" role="group" aria-label={`Посещение: ${name}`}>
      {button('ATTENDED', 'Пришёл', 'teal.9')}
      {button('NO_SHOW', 'Не пришёл', 'red.9')}
    </Group>
  );
}

function CheckInRow({ r }: { r: Row }) {
  const name = fullName(r);
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid="check-in-row" data-record-id={r.id}>
      <Stack gap={0}>
        <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
          {name}, {r.people_count} чел.
        </Text>
        {r.has_allergy && (
          <Text size="sm" c="red.9">
            Аллергия: {r.allergy_type || 'да'}
          </Text>
        )}
      </Stack>
      <AttendanceControl r={r} />
    </Group>
  );
}

/** Who came: one line per ACTIVE booking with its mark. */
export function CheckInList({ schedule }: { schedule: ScheduleListItem }) {
  const active = schedule.records.filter((r) => r.state === 'ACTIVE');
  const marked = active.filter((r) => r.attendance).length;
  return (
    <Stack gap="sm" p="sm" bg="gray.0" style={{ borderRadius: 'var(--mantine-radius-md)' }} data-testid="check-in">
      <Group gap="xs">
        <Text fw={600}>Отметка посещения</Text>
        <Badge variant="outline" color="gray.8">
          Отмечено {marked} из {active.length}
        </Badge>
      </Group>
      {active.length === 0 ? (
        <Text size="sm" c="gray.7">
          Участников нет.
        </Text>
      ) : (
        active.map((r) => <CheckInRow key={r.id} r={r} />)
      )}
    </Stack>
  );
}
