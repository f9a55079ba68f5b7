import { useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, Card, Divider, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { RecordPublic } from '../../../contract/records';
import type { ScheduleListItem } from '../../../contract/schedule';
import { formatDateTime, formatPrice, isPast } from '../../../contract/format';
import { config } from '../config';
import { IconBell, IconEdit, IconMapPin, IconTrash } from './icons';
import { IconChecklist } from './action-icons';
import { CheckInList } from './CheckInList';
import { CsvButton } from './CsvButton';
import { urlOf } from '../../../contract/endpoints/client';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import { RecordsTable } from './RecordsTable';
import { StaffBookingDialog } from './StaffBookingDialog';
import { useCan } from '../session';

/** People per state: the sum of people_count (default 1) per booking. */
export function countPeople(records: Pick<RecordPublic, 'state' | 'people_count'>[]) {
  const sum = (state: string) =>
    records.filter((r) => r.state === state).reduce((n, r) => n + (r.people_count ?? 1), 0);
  return { active: sum('ACTIVE'), cancelled: sum('CANCELLED'), queued: sum('QUEUED') };
}

/** Seats and people at a glance; the seats badge shows even before the first booking. */
export function ScheduleBadges({ schedule }: { schedule: ScheduleListItem }) {
  const { active, cancelled, queued } = countPeople(schedule.records);
  const free = Math.max(0, schedule.capacity - active);
  return (
    <Group gap="xs">
      <Badge color={free > 0 ? 'gray' : 'orange'} variant="light" size="lg" data-testid="seats-badge">
        Мест {schedule.capacity} · свободно {free}
      </Badge>
      {active > 0 && (
        <Badge color="teal" variant="light" size="lg">
          Участники {active}/{schedule.capacity}
        </Badge>
      )}
      {cancelled > 0 && (
        <Badge color="red" variant="light" size="lg">
          Отменили запись {cancelled}
        </Badge>
      )}
      {queued > 0 && (
        <Badge color="yellow" variant="light" size="lg">
          В очереди {queued}
        </Badge>
      )}
    </Group>
  );
}

export interface ScheduleCardProps {
  schedule: ScheduleListItem;
  onNotify?: () => void;
  /** Absent for a role that may not change sessions (a host). */
  onEdit?: () => void;
  onDelete?: () => void;
  /** «Отменить мастер-класс»: upcoming sessions only. */
  onCancel?: () => void;
  /** The chef's list as CSV (exports: not for a host). */
  canExport?: boolean;
  /** Phone width: bookings as cards, each with its check-in mark. */
  phone?: boolean;
}

export function ScheduleCard({
  schedule,
  onNotify,
  onEdit,
  onDelete,
  onCancel,
  canExport = true,
  phone = false,
}: ScheduleCardProps) {
  const { workshop, address } = schedule;
  // A cancelled session is history: no edit, no reminder, no check-in.
  const cancelled = Boolean(schedule.cancelled_at);
  // The server says per booking whether it may be checked in now (the hour before, a host's days, its state).
  const canCheckIn = schedule.records.some((r) => r.allowed?.checkin.ok);
  const [checkIn, setCheckIn] = useState(false);
  // A customer who phones in is booked from the session's card, while it can still be booked.
  const canBook = useCan().can('bookings.manage') && !cancelled && !isPast(schedule.date);
  const [booking, setBooking] = useState(false);
  return (
    <Card padding="lg" data-testid="schedule-card" data-schedule-id={schedule.id}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={4}>
            <Title order={3} fz={{ base: 'lg', sm: 'xl' }} style={{ overflowWrap: 'anywhere' }}>
              {workshop.title}
            </Title>
            <Group gap="md">
              <Text fw={500}>{formatDateTime(schedule.date, config.businessTimezone)}</Text>
              <Text c="teal.9" fw={600}>
                {formatPrice(workshop.price)}
              </Text>
              {cancelled && (
                <Badge color="red" variant="filled" data-testid="cancelled-badge">
                  Отменён
                </Badge>
              )}
            </Group>
            {cancelled && schedule.cancel_reason && (
              <Text size="sm" c="red.9" style={{ overflowWrap: 'anywhere' }}>
                Причина отмены: {schedule.cancel_reason}
              </Text>
            )}
          </Stack>
          <Group gap={4} wrap="nowrap">
            {onNotify && !cancelled && (
              <Tooltip label={schedule.is_notified ? 'Уведомления уже отправлены' : 'Отправить уведомления'}>
                <ActionIcon
                  variant={schedule.is_notified ? 'light' : 'subtle'}
                  color={schedule.is_notified ? 'red' : 'gray'}
                  onClick={onNotify}
                  aria-label="Отправить уведомления"
                  data-notified={schedule.is_notified || undefined}
                >
                  <IconBell />
                </ActionIcon>
              </Tooltip>
            )}
            {!cancelled && onEdit && (
              <Tooltip label="Редактировать">
                <ActionIcon variant="subtle" color="gray" onClick={onEdit} aria-label="Редактировать">
                  <IconEdit />
                </ActionIcon>
              </Tooltip>
            )}
            {onDelete && (
              <Tooltip label="Удалить">
                <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label="Удалить">
                  <IconTrash />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Group>
        <ScheduleBadges schedule={schedule} />
        <Group gap="xs">
          {canExport && (
            <CsvButton
              size="xs"
              url={urlOf(scheduleApi.participantsCsv, { params: { id: schedule.id } })}
              fileName={`participants-${schedule.id}.csv`}
              label="Список участников (CSV)"
            />
          )}
          {canCheckIn && !phone && (
            <Button
              size="xs"
              variant={checkIn ? 'filled' : 'default'}
              leftSection={<IconChecklist />}
              onClick={() => setCheckIn((v) => !v)}
              aria-expanded={checkIn}
            >
              Отметить посещение
            </Button>
          )}
          {canBook && (
            <Button size="xs" variant="light" onClick={() => setBooking(true)}>
              Записать клиента
            </Button>
          )}
          {onCancel && !cancelled && (
            <Button size="xs" variant="light" color="red" onClick={onCancel}>
              Отменить мастер-класс
            </Button>
          )}
        </Group>
        {/* At phone width each participant's card carries its check-in mark. */}
        {canCheckIn && !phone && checkIn && <CheckInList schedule={schedule} />}
        <RecordsTable records={schedule.records} phone={phone} />
        {booking && <StaffBookingDialog scheduleId={schedule.id} onClose={() => setBooking(false)} />}
        <Divider />
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <IconMapPin style={{ flexShrink: 0, marginTop: 2, color: 'var(--mantine-color-teal-6)' }} />
          <Stack gap={2}>
            <Anchor href={address.map_link} target="_blank" rel="noopener noreferrer" fw={500}>
              {address.title}
            </Anchor>
            {address.description && (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
                {address.description}
              </Text>
            )}
          </Stack>
        </Group>
      </Stack>
    </Card>
  );
}
