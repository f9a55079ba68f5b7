import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Drawer.css';
import '@mantine/core/styles/Menu.css';
import { ActionIcon, Button, Divider, Drawer, Group, Loader, Menu, Stack, Table, Text, Title } from '@mantine/core';
import { recordsApi } from '../../../contract/endpoints/records';
import { paymentsApi } from '../../../contract/endpoints/payments';
import { RECORD_SOURCES, RECORD_STATE_LABELS, type RecordPublic } from '../../../contract/records';
import { PAYMENT_KIND_LABELS, PAYMENT_METHOD_LABELS } from '../../../contract/money';
import { formatDateTime, formatPrice, fullName } from '../../../contract/format';
import { config } from '../config';
import { useApi } from '../query';
import { useCan } from '../session';
import { TITLES, toastError } from '../notify';
import { AuditList } from './AuditList';
import { PaymentBadge } from './PaymentDialog';
import { Svg, type IconProps } from './icons';

/** What staff may open from a booking's row or its view. */
export type BookingAction = 'view' | 'party' | 'payment' | 'credit';

/** A booking as a session's row carries it: enough to know which actions apply. */
export type BookingRow = Pick<RecordPublic, 'id' | 'name' | 'last_name' | 'state' | 'people_count' | 'telegram_id'> & {
  allowed?: { pay: boolean };
  customer_note?: string | null;
};

const IconDots = (p: IconProps) => (
  <Svg {...p}>
    <path d="M5 12h.01M12 12h.01M19 12h.01" strokeWidth={3} />
  </Svg>
);

/** The actions the reader's role and the booking allow, in the menu's order (one rule for the menu and the view). */
export function bookingActions(r: BookingRow, can: (c: Parameters<ReturnType<typeof useCan>['can']>[0]) => boolean) {
  const actions: { kind: BookingAction; label: string }[] = [{ kind: 'view', label: 'Открыть запись' }];
  if (can('bookings.manage') && r.state !== 'CANCELLED') actions.push({ kind: 'party', label: 'Изменить количество' });
  if (r.allowed?.pay || can('price.override')) actions.push({ kind: 'payment', label: 'Оплата и цена' });
  if (can('credit.adjust') && r.telegram_id != null) actions.push({ kind: 'credit', label: 'Баланс клиента в студии' });
  return actions;
}

/** The «⋯» menu of a booking's row. */
export function BookingMenu({ r, onPick }: { r: BookingRow; onPick: (kind: BookingAction) => void }) {
  const { can } = useCan();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray.8" size="sm" aria-label={`Действия с записью: ${fullName(r)}`}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {bookingActions(r, can).map((a) => (
          <Menu.Item key={a.kind} onClick={() => onPick(a.kind)}>
            {a.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Text size="sm" c="gray.7" miw={130}>
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/**
 * The staff view of one booking (a click on its name): the booking, its customer, its money and ledger and its
 * history, with the actions of its row.
 */
export function BookingDrawer({
  row,
  onPick,
  onClose,
}: {
  row: BookingRow;
  onPick: (kind: BookingAction) => void;
  onClose: () => void;
}) {
  const { can } = useCan();
  const onError = (err: unknown) => toastError(TITLES.general, err);
  const { data: view } = useApi(recordsApi.get, { params: { id: row.id } }, { onError });
  const { data: ledger } = useApi(paymentsApi.ledger, { params: { id: row.id } }, { onError });
  const { data: history } = useApi(
    recordsApi.history,
    can('bookings.manage') ? { params: { id: row.id }, query: { limit: 100 } } : null,
    { onError },
  );
  const r = view?.record;
  const m = ledger?.money ?? view?.money;
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="lg"
      title={<Text fw={700}>{`Запись №${row.id}: ${fullName(row)}`}</Text>}
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
    >
      {!r ? (
        <Loader size="sm" aria-label="Загрузка" />
      ) : (
        <Stack gap="md" data-testid="booking-view">
          <Group gap="xs">
            {bookingActions(row, can)
              .filter((a) => a.kind !== 'view')
              .map((a) => (
                <Button key={a.kind} size="xs" variant="default" onClick={() => onPick(a.kind)}>
                  {a.label}
                </Button>
              ))}
          </Group>
          <Stack gap={4}>
            <Title order={3} size="h5">
              Запись
            </Title>
            <Line label="Мастер-класс">
              {r.schedule.workshop.title}, {formatDateTime(r.schedule.date, config.businessTimezone)}
            </Line>
            <Line label="Статус">
              {RECORD_STATE_LABELS[r.state]}
              {view.queue_position != null && ` (№${view.queue_position} в очереди)`}
            </Line>
            <Line label="Количество">{r.people_count} чел.</Line>
            <Line label="Записан(а)">{formatDateTime(r.created_at, config.businessTimezone)}</Line>
            {r.comment && <Line label="Комментарий">{r.comment}</Line>}
            {r.has_allergy && <Line label="Аллергия">{r.allergy_type || 'да'}</Line>}
            {r.source && (
              <Line label="Откуда узнал(а)">{RECORD_SOURCES[r.source as keyof typeof RECORD_SOURCES] ?? r.source}</Line>
            )}
            <Line label="Впервые">{r.is_first_time ? 'да' : 'нет'}</Line>
            {r.cancel_reason && <Line label="Причина отмены">{r.cancel_reason}</Line>}
          </Stack>
          <Divider />
          <Stack gap={4}>
            <Title order={3} size="h5">
              Клиент
            </Title>
            <Line label="Имя">{fullName(r)}</Line>
            <Line label="Telegram">
              {r.telegram_login
                ? `@${r.telegram_login.replace(/^@/, '')}`
                : r.telegram_id
                  ? `id ${r.telegram_id}`
                  : '—'}
            </Line>
            {row.customer_note && <Line label="Заметка">{row.customer_note}</Line>}
          </Stack>
          <Divider />
          <Stack gap={4} data-testid="booking-money">
            <Title order={3} size="h5">
              Деньги
            </Title>
            {!m ? (
              <Text size="sm">—</Text>
            ) : (
              <>
                <Line label="Цена">
                  {formatPrice(m.price)}
                  {m.price_override !== null && ` (вручную: ${formatPrice(m.price_override)} за человека)`}
                </Line>
                {(m.discount ?? 0) > 0 && <Line label="Скидка">−{formatPrice(m.discount ?? 0)}</Line>}
                <Line label="Оплачено">{formatPrice(m.amount_paid)}</Line>
                <Line label={m.balance < 0 ? 'К возврату' : 'Остаток'}>{formatPrice(Math.abs(m.balance))}</Line>
                <Group gap={6}>
                  <PaymentBadge status={m.status} />
                </Group>
              </>
            )}
            {ledger && ledger.payments.length > 0 && (
              <Table.ScrollContainer minWidth={420} type="native">
                <Table fz="sm" striped data-testid="booking-ledger">
                  <Table.Tbody>
                    {ledger.payments.map((p) => (
                      <Table.Tr key={p.id}>
                        <Table.Td>{formatDateTime(p.at, config.businessTimezone)}</Table.Td>
                        <Table.Td>{PAYMENT_KIND_LABELS[p.kind]}</Table.Td>
                        <Table.Td>{PAYMENT_METHOD_LABELS[p.method]}</Table.Td>
                        <Table.Td ta="right">{formatPrice(p.amount)}</Table.Td>
                        <Table.Td>{p.note}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
          {history && (
            <>
              <Divider />
              <Stack gap={4}>
                <Title order={3} size="h5">
                  История
                </Title>
                {history.data.length === 0 ? (
                  <Text size="sm" c="gray.7">
                    Изменений пока нет.
                  </Text>
                ) : (
                  <AuditList entries={history.data} />
                )}
              </Stack>
            </>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
