import { useState, type ReactNode } from 'react';
import { Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import { formatTime, toZonedInput } from '../../../contract/format';
import { PAGE_MAX } from '../../../contract/paging';
import type { ScheduleListItem } from '../../../contract/schedule';
import { config } from '../config';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import { countPeople } from './ScheduleCard';

const WEEKDAYS = ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'];
const MONTHS = ['янв', 'фев', 'мар', 'апр', 'мая', 'июн', 'июл', 'авг', 'сен', 'окт', 'ноя', 'дек'];

/** 'YYYY-MM-DD' moved by whole days (calendar days: no clock, no time zone). */
function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The Monday of the studio's current week. */
function thisMonday(): string {
  const today = toZonedInput(Date.now(), config.businessTimezone).slice(0, 10);
  const weekday = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return addDays(today, -weekday);
}

const dayLabel = (day: string) => {
  const [, m, d] = day.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]}`;
};

/**
 * Расписание as a week on one screen: seven days (a column each on a wide screen, a list on a phone),
 * each session a line with its time, workshop and free seats; a line opens the session's card below.
 */
export function ScheduleWeek({
  workshopId,
  card,
}: {
  workshopId: number | null;
  card: (s: ScheduleListItem) => ReactNode;
}) {
  const [monday, setMonday] = useState(thisMonday);
  const [openId, setOpenId] = useState<number | null>(null);
  const sunday = addDays(monday, 6);
  const tz = config.businessTimezone;
  const { data, isLoading } = useApi(
    scheduleApi.list,
    { query: { from: monday, to: sunday, workshop_id: workshopId, skip: 0, limit: PAGE_MAX } },
    { onError: (err) => toastError(TITLES.general, err), keepPreviousData: true },
  );
  const opened = data?.data.find((s) => s.id === openId);
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const byDay = (day: string) =>
    (data?.data ?? []).filter((s) => toZonedInput(s.date, tz).slice(0, 10) === day && !s.cancelled_at);
  return (
    <Stack gap="sm" data-testid="schedule-week">
      <Group justify="space-between" wrap="nowrap">
        <Button variant="default" size="xs" onClick={() => setMonday(addDays(monday, -7))} aria-label="Прошлая неделя">
          ←
        </Button>
        <Text fw={600}>
          {dayLabel(monday)} — {dayLabel(sunday)}
        </Text>
        <Button variant="default" size="xs" onClick={() => setMonday(addDays(monday, 7))} aria-label="Следующая неделя">
          →
        </Button>
      </Group>
      {isLoading && !data ? (
        <Skeleton h={160} radius="md" />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 7 }} spacing="xs">
          {days.map((day, i) => {
            const sessions = byDay(day);
            return (
              <Paper key={day} withBorder p="xs" radius="md" data-day={day} miw={0}>
                <Group gap="xs" justify="space-between" wrap="nowrap">
                  <Text size="sm" fw={600}>
                    {WEEKDAYS[i]}, {dayLabel(day)}
                  </Text>
                  {sessions.length === 0 && (
                    <Text size="xs" c="dimmed">
                      нет
                    </Text>
                  )}
                </Group>
                {sessions.length > 0 && (
                  <Stack gap={4} mt={4}>
                    {sessions.map((s) => {
                      const free = Math.max(0, s.capacity - countPeople(s.records).active);
                      return (
                        <UnstyledButton
                          key={s.id}
                          onClick={() => setOpenId(s.id === openId ? null : s.id)}
                          aria-expanded={s.id === openId}
                          data-testid="week-session"
                        >
                          <Text size="xs" fw={600}>
                            {formatTime(s.date, tz)}
                          </Text>
                          <Text size="sm" lh={1.2} style={{ overflowWrap: 'anywhere' }}>
                            {s.workshop.title}
                          </Text>
                          <Text size="xs" c={free > 0 ? 'dimmed' : 'orange.9'}>
                            свободно {free} из {s.capacity}
                          </Text>
                        </UnstyledButton>
                      );
                    })}
                  </Stack>
                )}
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
      {opened && card(opened)}
    </Stack>
  );
}
