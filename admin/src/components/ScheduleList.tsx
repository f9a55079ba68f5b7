import { startTransition, useEffect, useState } from 'react';
import { Button, Group, NativeSelect, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { urlOf } from '../../../contract/endpoints/client';
import { addressesApi } from '../../../contract/endpoints/addresses';
import { recordsApi } from '../../../contract/endpoints/records';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import { workshopsApi } from '../../../contract/endpoints/workshops';
import type { ScheduleListItem, ScheduleListPage } from '../../../contract/schedule';
import { call } from '../api';
import { ScheduleForm } from '../forms/ScheduleForm';
import { runChange } from '../mutations';
import { MESSAGES, TITLES, toastError } from '../notify';
import '../pageStyles';
import { ConfirmDialog } from './ConfirmDialog';
import { EmptyState } from './EmptyState';
import { IconPlus } from './icons';
import { PageHeader } from './PageHeader';
import { useApi } from '../query';
import { Pager } from './Pager';
import { CsvButton } from './CsvButton';
import { DateField } from './DateField';
import { ScheduleCard } from './ScheduleCard';
import { ScheduleWeek } from './ScheduleWeek';
import { ScheduleRemovalDialog, type RemovalIntent } from './ScheduleRemovalDialog';
import { useCan } from '../session';

export const NOTIFIED_BEFORE = 'Уведомления уже были отправлены ранее';

/** The add/edit dialog waits for the workshop and address lists it offers. */
function ScheduleDialog({ schedule, onClose }: { schedule?: ScheduleListItem; onClose: () => void }) {
  const workshops = useApi(workshopsApi.list, {}, { onError: (err) => toastError(TITLES.workshops, err) });
  const addresses = useApi(addressesApi.list, {}, { onError: (err) => toastError(TITLES.general, err) });
  if (!workshops.data || !addresses.data) return null;
  return (
    <ScheduleForm
      opened
      onClose={onClose}
      schedule={schedule}
      workshops={[...workshops.data.data].sort((a, b) => b.id - a.id)}
      addresses={addresses.data.data}
    />
  );
}

export const PAGE_SIZE = 20;
const FIRST_CARDS = 3;

interface Filter {
  from: string;
  to: string;
  workshopId: string;
}
const NO_FILTER: Filter = { from: '', to: '', workshopId: '' };

/** The list's page of the API: `skip`/`limit`, and the dates and workshop chosen. */
const listQuery = (page: number, f: Filter) => ({
  skip: (page - 1) * PAGE_SIZE,
  limit: PAGE_SIZE,
  from: f.from,
  to: f.to,
  workshop_id: f.workshopId ? Number(f.workshopId) : null,
});

/** Dates (a day each, both included) and a workshop; a period can be exported as CSV. */
function FilterBar({ filter, onChange }: { filter: Filter; onChange: (f: Filter) => void }) {
  const workshops = useApi(workshopsApi.list, {}, { onError: (err) => toastError(TITLES.workshops, err) });
  return (
    <Group gap="sm" mb="lg" align="flex-end" wrap="wrap" data-testid="list-filter">
      <DateField label="С" value={filter.from} onChange={(from) => onChange({ ...filter, from })} w={160} />
      <DateField label="По" value={filter.to} onChange={(to) => onChange({ ...filter, to })} w={160} />
      <NativeSelect
        label="Мастер-класс"
        value={filter.workshopId}
        onChange={(e) => onChange({ ...filter, workshopId: e.currentTarget.value })}
        data={[
          { value: '', label: 'Все' },
          ...(workshops.data?.data ?? []).map((w) => ({ value: String(w.id), label: w.title })),
        ]}
        w={220}
      />
      <CsvButton
        url={urlOf(recordsApi.exportCsv, { query: { from: filter.from, to: filter.to } })}
        fileName="bookings.csv"
        label="Записи за период (CSV)"
      />
    </Group>
  );
}

/** Upcoming sessions: all or one workshop's, as cards a page at a time or as a compact week. */
function UpcomingBar({
  filter,
  onChange,
  view,
  onView,
}: {
  filter: Filter;
  onChange: (f: Filter) => void;
  view: 'cards' | 'week';
  onView: (v: 'cards' | 'week') => void;
}) {
  const workshops = useApi(workshopsApi.list, {}, { onError: (err) => toastError(TITLES.workshops, err) });
  return (
    <Group gap="sm" mb="lg" align="flex-end" wrap="wrap" data-testid="upcoming-filter">
      <NativeSelect
        label="Мастер-класс"
        value={filter.workshopId}
        onChange={(e) => onChange({ ...filter, workshopId: e.currentTarget.value })}
        data={[
          { value: '', label: 'Все' },
          ...(workshops.data?.data ?? []).map((w) => ({ value: String(w.id), label: w.title })),
        ]}
        w={{ base: '100%', xs: 220 }}
      />
      <SegmentedControl
        aria-label="Вид"
        value={view}
        onChange={(v) => onView(v as 'cards' | 'week')}
        data={[
          { value: 'cards', label: 'Карточки' },
          { value: 'week', label: 'Неделя' },
        ]}
      />
    </Group>
  );
}

/** /schedule (upcoming: add, notify, edit, delete) and /past (edit, delete), a page at a time. */
export function ScheduleList({ kind }: { kind: 'upcoming' | 'past' }) {
  const upcoming = kind === 'upcoming';
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const { data, isLoading } = useApi(
    upcoming ? scheduleApi.list : scheduleApi.past,
    { query: listQuery(page, filter) },
    {
      onError: (err) => toastError(TITLES.en, err),
      keepPreviousData: true,
    },
  );
  const { can } = useCan();
  // Without schedule.manage (a host): no adding, editing, reminding, cancelling or deleting.
  const manage = can('schedule.manage');
  // Without bookings.manage (a host) the door's view: the day's sessions, a week of History, no exports.
  const host = !can('bookings.manage');
  // Once for the page, not per card: History draws twenty cards with all their bookings.
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ScheduleListItem | null>(null);
  const [notifying, setNotifying] = useState<ScheduleListItem | null>(null);
  // «Удалить» or «Отменить мастер-класс»: the server says which dialog fits (a session with bookings is cancelled).
  const [removing, setRemoving] = useState<{ schedule: ScheduleListItem; intent: RemovalIntent } | null>(null);
  const [view, setView] = useState<'cards' | 'week'>('cards');

  const notify = async (s: ScheduleListItem) => {
    await runChange(() => call(scheduleApi.notify, { params: { id: s.id } }), MESSAGES.notified);
  };

  // A page's first cards render at once, the rest right after without blocking: a History page of
  // twenty sessions with all their bookings is usable before its last card is drawn.
  const [shownAll, setShownAll] = useState<ScheduleListPage | undefined>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setShownAll(data)), 0);
    return () => clearTimeout(timer);
  }, [data]);
  const allShown = shownAll === data;
  const sessions = (data?.data ?? []).slice(0, allShown ? undefined : FIRST_CARDS);
  const card = (s: ScheduleListItem) => (
    <ScheduleCard
      key={s.id}
      schedule={s}
      onNotify={upcoming && manage ? () => setNotifying(s) : undefined}
      onEdit={manage ? () => setEditing(s) : undefined}
      onDelete={manage ? () => setRemoving({ schedule: s, intent: 'delete' }) : undefined}
      onCancel={upcoming && manage ? () => setRemoving({ schedule: s, intent: 'cancel' }) : undefined}
      canExport={!host}
      phone={phone}
    />
  );
  const week = upcoming && view === 'week';
  return (
    <>
      <PageHeader title={upcoming ? 'Расписание' : 'История'}>
        {upcoming && manage && (
          <Button leftSection={<IconPlus />} onClick={() => setAdding(true)}>
            Добавить
          </Button>
        )}
      </PageHeader>
      {host && (
        <Text c="dimmed" mt={-8} mb="lg">
          {upcoming ? 'Мастер-классы сегодня и завтра.' : 'Мастер-классы за последнюю неделю.'}
        </Text>
      )}
      {/* Upcoming: a workshop and cards or the week. History gathers years of sessions: dates, a workshop
          and the period's CSV. A host's lists are its days, without filters or exports. */}
      {upcoming && !host && (
        <UpcomingBar
          filter={filter}
          onChange={(f) => {
            setFilter(f);
            setPage(1);
          }}
          view={view}
          onView={setView}
        />
      )}
      {!upcoming && !host && (
        <FilterBar
          filter={filter}
          onChange={(f) => {
            setFilter(f);
            setPage(1);
          }}
        />
      )}
      {week ? (
        <ScheduleWeek workshopId={filter.workshopId ? Number(filter.workshopId) : null} card={card} />
      ) : isLoading && !data ? (
        // Only before the first page: a new filter's list keeps the previous cards until it arrives.
        <Stack gap="lg">
          <Skeleton h={220} radius="md" />
          <Skeleton h={220} radius="md" />
        </Stack>
      ) : sessions.length === 0 ? (
        <EmptyState text={upcoming ? 'Запланированных мастер-классов нет.' : 'Прошедших мастер-классов пока нет.'} />
      ) : (
        <Stack gap="lg">{sessions.map(card)}</Stack>
      )}
      {!week && data && data.count > 0 && (
        <Pager page={page} pageSize={PAGE_SIZE} total={data.count} onChange={setPage} />
      )}
      {adding && <ScheduleDialog onClose={() => setAdding(false)} />}
      {editing && <ScheduleDialog key={editing.id} schedule={editing} onClose={() => setEditing(null)} />}
      {removing && (
        <ScheduleRemovalDialog
          key={`${removing.intent}-${removing.schedule.id}`}
          schedule={removing.schedule}
          intent={removing.intent}
          onClose={() => setRemoving(null)}
        />
      )}
      <ConfirmDialog
        opened={notifying !== null}
        onClose={() => setNotifying(null)}
        onConfirm={() => notify(notifying!)}
        title="Отправка уведомлений"
        confirmLabel="Отправить"
        color={notifying?.is_notified ? 'red' : 'teal'}
      >
        <Text>Отправить напоминание всем участникам мастер-класса?</Text>
        {notifying?.is_notified && (
          <Text c="red" fw={500}>
            {NOTIFIED_BEFORE}
          </Text>
        )}
      </ConfirmDialog>
    </>
  );
}
