import '@mantine/charts/styles.css';
import { useMemo, useState } from 'react';
import { BarChart } from '@mantine/charts';
import {
  Group,
  Paper,
  Progress,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { statsApi } from '../../../contract/endpoints/stats';
import { RECORD_SOURCES } from '../../../contract/records';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { config } from '../config';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';

const PERIODS = [
  { value: '7', label: '7 дней' },
  { value: '30', label: '30 дней' },
  { value: '90', label: '90 дней' },
  { value: '365', label: 'Год' },
];
const DAY_MS = 86_400_000;
const percent = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);
/** Short names under the bars (the full ones overlap and recharts then drops them). */
const SHORT_SOURCES: Record<string, string> = {
  friends: 'Друзья',
  certificate: 'Сертификат',
  events: 'Мероприятия',
};
const sourceLabel = (s: string | null) =>
  s === null ? 'Не указано' : (SHORT_SOURCES[s] ?? RECORD_SOURCES[s as keyof typeof RECORD_SOURCES] ?? s);

function Figure({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid="figure">
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fz={{ base: 18, sm: 24 }} fw={700} lh={1.3}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="gray.7">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** A group of figures that share one basis, said under its heading. */
function Basis({ title, text, children }: { title: string; text: string; children: React.ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={4} fz="md">
        {title}
      </Title>
      <Text size="sm" c="gray.7">
        {text}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        {children}
      </SimpleGrid>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={3} fz="lg" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** Главная: how sessions fill, who comes and from where, for a chosen period, and the coming week. */
export default function DashboardStats() {
  const [days, setDays] = useState('30');
  // One period per choice: the query (the cache key) must not change on every render.
  const query = useMemo(() => {
    const to = new Date();
    const from = new Date(to.getTime() - Number(days) * DAY_MS);
    return { from: from.toISOString(), to: to.toISOString() };
  }, [days]);
  const { data } = useApi(
    statsApi.dashboard,
    { query },
    { onError: (err) => toastError(TITLES.general, err), keepPreviousData: true },
  );

  return (
    <Stack gap="lg" data-testid="dashboard-stats">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>Как идут дела</Title>
        <SegmentedControl value={days} onChange={setDays} data={PERIODS} aria-label="Период" color="teal.9" />
      </Group>
      {!data ? (
        <Skeleton h={320} radius="md" />
      ) : (
        <>
          <Basis title="Занятия периода" text="Занятия, прошедшие за период, и записи на них (когда бы их ни сделали).">
            <Figure label="Занятий" value={data.schedules} hint="прошли за период" />
            <Figure
              label="Мест продано"
              value={`${data.seats_sold} из ${data.capacity}`}
              hint={`заполнено ${percent(data.fill_rate)}`}
            />
            <Figure label="Записей на занятия" value={data.bookings} hint={`впервые: ${data.first_timers}`} />
            <Figure label="Отмен" value={data.cancellations} hint="записей на эти занятия" />
            <Figure
              label="Неявки"
              value={percent(data.no_show_rate)}
              hint={`пришли ${data.attended}, не пришли ${data.no_shows}`}
            />
            <Figure
              label="Оценки"
              value={data.ratings.average === null ? '—' : data.ratings.average.toFixed(1)}
              hint={`оценок: ${data.ratings.count}`}
            />
            <Figure
              label="В очереди"
              value={data.queue_demand.reduce((n, q) => n + q.people, 0)}
              hint="человек ждали места"
            />
          </Basis>
          <Basis title="Сделано за период" text="Записи и деньги по дате, когда их сделали, на занятия любых дат.">
            <Figure label="Новых записей" value={data.bookings_made} hint={`человек: ${data.people_made}`} />
            <Figure label="Выручка" value={formatPrice(data.revenue)} hint="получено минус возвраты" />
          </Basis>
          <Basis title="Долги" text="Кто кому должен.">
            <Figure label="Должны студии" value={formatPrice(data.money_due)} hint="за занятия периода" />
            <Figure label="Студия должна вернуть" value={formatPrice(data.refunds_owed)} hint="на сегодня" />
          </Basis>

          <Section title="Откуда узнали">
            {data.sources.length === 0 ? (
              <Text c="gray.7">Записей за период нет.</Text>
            ) : (
              <BarChart
                h={260}
                data={data.sources.map((s) => ({
                  source: sourceLabel(s.source),
                  Записи: s.bookings,
                  Пришли: s.attended,
                }))}
                dataKey="source"
                series={[
                  { name: 'Записи', color: 'teal.9' },
                  { name: 'Пришли', color: 'blue.8' },
                ]}
                withLegend
                tickLine="y"
              />
            )}
          </Section>

          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Section title="Причины отмен">
              {data.cancel_reasons.length === 0 ? (
                <Text c="gray.7">Отмен за период нет.</Text>
              ) : (
                <Stack gap={6}>
                  {data.cancel_reasons.map((r) => (
                    <Group key={r.reason} justify="space-between" wrap="nowrap">
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {r.reason || 'Без причины'}
                      </Text>
                      <Text size="sm" fw={600}>
                        {r.count}
                      </Text>
                    </Group>
                  ))}
                </Stack>
              )}
            </Section>
            <Section title="Спрос в очереди">
              {data.queue_demand.length === 0 ? (
                <Text c="gray.7">Очередей за период не было.</Text>
              ) : (
                <Stack gap={6}>
                  {data.queue_demand.map((q) => (
                    <Group key={q.workshop_id} justify="space-between" wrap="nowrap">
                      <Text size="sm">{q.title}</Text>
                      <Text size="sm" fw={600}>
                        {q.people} чел.
                      </Text>
                    </Group>
                  ))}
                </Stack>
              )}
            </Section>
          </SimpleGrid>

          <Section title="Промокоды">
            {(data.promo_codes ?? []).length === 0 ? (
              <Text c="gray.7">Промокодами за период не пользовались.</Text>
            ) : (
              <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': 'Промокоды' }}>
                <Table className="phone-cards" miw={480} fz="sm" verticalSpacing="xs" data-testid="promo-figures">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Код</Table.Th>
                      <Table.Th>Записей</Table.Th>
                      <Table.Th>Человек</Table.Th>
                      <Table.Th>Выручка</Table.Th>
                      <Table.Th>Скидки</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {(data.promo_codes ?? []).map((p) => (
                      <Table.Tr key={p.promo_code_id}>
                        <Table.Td data-label="Код" ff="monospace">
                          {p.code}
                        </Table.Td>
                        <Table.Td data-label="Записей">{p.bookings}</Table.Td>
                        <Table.Td data-label="Человек">{p.people}</Table.Td>
                        <Table.Td data-label="Выручка">{formatPrice(p.revenue)}</Table.Td>
                        <Table.Td data-label="Скидки">{formatPrice(p.discount)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
          </Section>

          <Section title="Ближайшие 7 дней">
            {data.next_days.length === 0 ? (
              <Text c="gray.7">Занятий на неделе нет.</Text>
            ) : (
              // Focusable, so a keyboard can scroll the table on a narrow screen.
              <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': 'Ближайшие 7 дней' }}>
                <Table className="phone-cards" miw={560} fz="sm" verticalSpacing="xs" data-testid="next-days">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Дата</Table.Th>
                      <Table.Th>Мастер-класс</Table.Th>
                      <Table.Th>Заполнено</Table.Th>
                      <Table.Th>В очереди</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.next_days.map((s) => (
                      <Table.Tr key={s.schedule_id}>
                        <Table.Td data-label="Дата">{formatDateTime(s.date, config.businessTimezone)}</Table.Td>
                        <Table.Td data-label="Мастер-класс">{s.title}</Table.Td>
                        <Table.Td data-label="Заполнено">
                          <Group gap="xs" wrap="nowrap">
                            <Progress
                              value={s.capacity > 0 ? (100 * s.taken) / s.capacity : 0}
                              w={100}
                              color="teal.9"
                              aria-label={`Заполнено ${s.taken} из ${s.capacity}`}
                            />
                            <Text size="sm">
                              {s.taken}/{s.capacity}
                            </Text>
                          </Group>
                        </Table.Td>
                        <Table.Td data-label="В очереди">{s.queued}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
          </Section>
        </>
      )}
    </Stack>
  );
}
