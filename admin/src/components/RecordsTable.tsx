import { useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { ATTENDANCE_LABELS, RECORD_STATE_LABELS, type RecordState } from '../../../contract/records';
import { fullName, plural } from '../../../contract/format';
import { IconCircleCheck, IconCircleDashed, IconCircleX, IconClock, IconListDetails } from './icons';
import { RecordHistory } from './RecordHistory';
import { PaymentBadge, PaymentDialog } from './PaymentDialog';
import { AttendanceButtons } from './CheckInList';
import { useCan } from '../session';
import type { SessionBooking } from '../../../contract/schedule';
import { BookingDrawer, BookingMenu, type BookingAction } from './BookingDrawer';
import { PartyDialog } from './PartyDialog';
import { CreditDialog } from './CreditDialog';

const STATES: Record<string, { label: string; color: string; Icon: typeof IconCircleCheck }> = {
  ACTIVE: { label: RECORD_STATE_LABELS.ACTIVE, color: 'var(--mantine-color-teal-6)', Icon: IconCircleCheck },
  QUEUED: { label: RECORD_STATE_LABELS.QUEUED, color: '#f59f00', Icon: IconClock },
  CANCELLED: { label: RECORD_STATE_LABELS.CANCELLED, color: 'var(--mantine-color-red-6)', Icon: IconCircleX },
};
const FALLBACK = { label: 'Неизвестно', color: 'var(--mantine-color-gray-6)', Icon: IconCircleDashed };

export function StateIcon({ state }: { state: string }) {
  const { label, color, Icon } = STATES[state] ?? FALLBACK;
  return (
    // A native title, not a Tooltip: History renders hundreds of these at once.
    <span role="img" aria-label={label} title={label} data-state={state} style={{ display: 'inline-flex', color }}>
      <Icon size={20} />
    </span>
  );
}

const isCancelled = (r: { state: RecordState }) => r.state === 'CANCELLED';

/** Non-cancelled bookings first, then cancelled ones; otherwise the server's order. */
export function sortRecords<R extends { state: RecordState }>(records: R[]): R[] {
  return [...records.filter((r) => !isCancelled(r)), ...records.filter(isCancelled)];
}

export const RECORD_COLUMNS = ['Имя', 'Количество', 'Telegram', 'Комментарий', 'Аллергия', 'Причина отмены'] as const;

/**
 * A staff row as a session's list sends it: the booking, its customer's no-shows at earlier sessions and note,
 * the payment badge and what the reader may do (the server's rules); the rest is read when it is opened.
 */
type StaffRecord = SessionBooking;

const NO_SHOWS = ['неявка', 'неявки', 'неявок'] as const;

/** Next to the name: the check-in mark, earlier no-shows and the booking's history (each button only when allowed). */
function RecordMarks({ r, onHistory, onPayment }: { r: StaffRecord; onHistory?: () => void; onPayment?: () => void }) {
  const noShows = r.earlier_no_shows ?? 0;
  return (
    <>
      {/* Free bookings and cancelled ones that never paid have nothing to show. */}
      {hasMoney(r) && <PaymentBadge status={r.payment!.status} onClick={onPayment} />}
      {r.attendance && (
        <Badge
          size="sm"
          variant="light"
          color={r.attendance === 'ATTENDED' ? 'teal.9' : 'red.9'}
          data-testid="attendance"
        >
          {ATTENDANCE_LABELS[r.attendance]}
        </Badge>
      )}
      {r.confirmed_at && r.state === 'ACTIVE' && !r.attendance && (
        <Tooltip label="Ответил(а) «Приду» на напоминание">
          <Badge size="sm" variant="light" color="teal.9" data-testid="confirmed">
            Придёт
          </Badge>
        </Tooltip>
      )}
      {r.rating != null && (
        <Tooltip label="Оценка после мастер-класса">
          <Badge size="sm" variant="light" color="yellow.9" data-testid="rating">
            {`★ ${r.rating}`}
          </Badge>
        </Tooltip>
      )}
      {/* title, not Tooltip: a long History page has hundreds of rows, and each Tooltip costs a render. */}
      {noShows > 0 && (
        <Badge
          size="sm"
          variant="outline"
          color="red.9"
          data-testid="earlier-no-shows"
          title="Не пришёл(а) на прошлые занятия"
        >
          {noShows} {plural(noShows, NO_SHOWS)}
        </Badge>
      )}
      {onHistory && (
        <ActionIcon
          variant="subtle"
          color="gray.8"
          size="sm"
          onClick={onHistory}
          aria-label="История изменений"
          title="История изменений"
        >
          <IconListDetails size={16} />
        </ActionIcon>
      )}
    </>
  );
}

const telegramHandle = (login: string) => login.replace(/^@/, '');

/** A booking has money to take or show: free ones and cancelled ones that never paid have none. */
const hasMoney = (r: StaffRecord) =>
  Boolean(r.payment) &&
  (r.payment!.price > 0 || r.payment!.status !== 'unpaid') &&
  !(r.state === 'CANCELLED' && r.payment!.status === 'unpaid');

/**
 * One participant at phone width, as a host at the door reads it: name, party, allergy, comment and note
 * first, then the check-in mark and the payment button, large enough to press.
 */
function RecordCard({
  r,
  onHistory,
  onPayment,
  onPick,
}: {
  r: StaffRecord;
  onHistory?: () => void;
  onPayment?: () => void;
  onPick: (kind: BookingAction) => void;
}) {
  const cancelled = isCancelled(r);
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      bg={cancelled ? 'gray.1' : undefined}
      c={cancelled ? 'gray.7' : undefined}
      data-testid="record-card"
      data-record-id={r.id}
      data-state={r.state}
    >
      <Stack gap={6}>
        <Group gap={8} wrap="nowrap" align="flex-start">
          <StateIcon state={r.state} />
          <Anchor
            component="button"
            type="button"
            fw={600}
            ta="left"
            c={cancelled ? 'gray.7' : undefined}
            style={{ overflowWrap: 'anywhere', flex: 1 }}
            onClick={() => onPick('view')}
          >
            {fullName(r)}
          </Anchor>
          <Text fw={500} style={{ whiteSpace: 'nowrap' }}>
            {r.people_count ?? 1} чел.
          </Text>
          <BookingMenu r={r} onPick={onPick} />
        </Group>
        {r.has_allergy && (
          <Text size="sm" c="red.9" fw={500} style={{ overflowWrap: 'anywhere' }}>
            Аллергия: {r.allergy_type || 'да'}
          </Text>
        )}
        {r.comment && (
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            Комментарий: {r.comment}
          </Text>
        )}
        {r.customer_note && (
          <Text size="sm" c="gray.7" style={{ whiteSpace: 'pre-line' }} data-testid="customer-note">
            Заметка: {r.customer_note}
          </Text>
        )}
        {cancelled && r.cancel_reason && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            Причина отмены: {r.cancel_reason}
          </Text>
        )}
        <Group gap={6} wrap="wrap">
          {r.telegram_login && (
            <Anchor
              href={`https://t.me/${telegramHandle(r.telegram_login)}`}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              c={cancelled ? 'gray.7' : undefined}
            >
              @{telegramHandle(r.telegram_login)}
            </Anchor>
          )}
          <RecordMarks r={r} onHistory={onHistory} />
        </Group>
        {r.allowed?.checkin.ok && <AttendanceButtons r={r} />}
        {onPayment && hasMoney(r) && (
          <Button variant="light" onClick={onPayment} data-testid="payment-button">
            Оплата
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * A session's bookings: a table on wide screens, one card per participant at phone width. Each row's check-in
 * mark (phone cards carry it) and payment button follow the server's `allowed`; a booking's history is for
 * those who manage bookings.
 */
export function RecordsTable({
  records,
  phone = false,
}: {
  records: StaffRecord[];
  /** Phone width: one card per participant instead of the table. */
  phone?: boolean;
}) {
  const withHistory = useCan().can('bookings.manage');
  const [history, setHistory] = useState<StaffRecord | null>(null);
  const [payment, setPayment] = useState<StaffRecord | null>(null);
  // The staff view of a booking, and the party or credit dialog opened from its row or that view.
  const [viewing, setViewing] = useState<StaffRecord | null>(null);
  const [action, setAction] = useState<{ kind: 'party' | 'credit'; r: StaffRecord } | null>(null);
  const pick = (r: StaffRecord, kind: BookingAction) => {
    if (kind === 'view') setViewing(r);
    else if (kind === 'payment') setPayment(r);
    else setAction({ kind, r });
  };
  if (records.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Записей пока нет
      </Text>
    );
  const dialogs = (
    <>
      {history && <RecordHistory recordId={history.id} name={fullName(history)} onClose={() => setHistory(null)} />}
      {payment && <PaymentDialog recordId={payment.id} title={fullName(payment)} onClose={() => setPayment(null)} />}
      {viewing && (
        <BookingDrawer row={viewing} onPick={(kind) => pick(viewing, kind)} onClose={() => setViewing(null)} />
      )}
      {action?.kind === 'party' && (
        <PartyDialog
          record={{ id: action.r.id, name: fullName(action.r), people_count: action.r.people_count }}
          onClose={() => setAction(null)}
        />
      )}
      {action?.kind === 'credit' && action.r.telegram_id != null && (
        <CreditDialog
          customer={{ telegram_id: action.r.telegram_id, name: fullName(action.r) }}
          onClose={() => setAction(null)}
        />
      )}
    </>
  );
  const historyOf = (r: StaffRecord) => (withHistory ? () => setHistory(r) : undefined);
  const paymentOf = (r: StaffRecord) => (r.allowed?.pay ? () => setPayment(r) : undefined);
  if (phone)
    return (
      <>
        <Stack gap="sm" data-testid="records-cards">
          {sortRecords(records).map((r) => (
            <RecordCard
              key={r.id}
              r={r}
              onHistory={historyOf(r)}
              onPayment={paymentOf(r)}
              onPick={(kind) => pick(r, kind)}
            />
          ))}
        </Stack>
        {dialogs}
      </>
    );
  return (
    <>
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
                      ? { color: 'var(--mantine-color-gray-7)', background: 'var(--mantine-color-gray-1)' }
                      : undefined
                  }
                >
                  <Table.Td>
                    <StateIcon state={r.state} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="wrap">
                      <Anchor
                        component="button"
                        type="button"
                        c={cancelled ? 'gray.7' : undefined}
                        fz="sm"
                        ta="left"
                        onClick={() => pick(r, 'view')}
                      >
                        {fullName(r)}
                      </Anchor>
                      <RecordMarks r={r} onHistory={historyOf(r)} onPayment={paymentOf(r)} />
                      <BookingMenu r={r} onPick={(kind) => pick(r, kind)} />
                    </Group>
                    {r.customer_note && (
                      <Text size="xs" c="dimmed" mt={2} style={{ whiteSpace: 'pre-line' }} data-testid="customer-note">
                        Заметка: {r.customer_note}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{r.people_count ?? 1}</Table.Td>
                  <Table.Td>
                    {r.telegram_login ? (
                      <Anchor
                        href={`https://t.me/${r.telegram_login.replace(/^@/, '')}`}
                        target="_blank"
                        rel="noopener noreferrer"
                        c={cancelled ? 'gray.7' : undefined}
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
      {dialogs}
    </>
  );
}
