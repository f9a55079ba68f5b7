import { useState } from 'react';
import { Badge, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { fiscalApi } from '../../../contract/endpoints/fiscal';
import {
  FISCAL_INVOICE_TYPE_LABELS,
  FISCAL_PAYMENT_TYPE_LABELS,
  FISCAL_TRANSACTION_LABELS,
  type FiscalReport as Report,
} from '../../../contract/fiscal';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../contract/money';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { config } from '../config';
import { DateField } from '../components/DateField';
import { ReceiptCell, TRAINING_COLOR, TRAINING_WARNING } from '../components/FiscalReceipt';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';

/* Касса → «Фискальный отчёт»: the studio's day of receipts beside the ledger's real money; they must agree. */

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: config.businessTimezone }).format(new Date());
const paymentType = (t: string) => FISCAL_PAYMENT_TYPE_LABELS[t] ?? t;
const when = (iso: string) => formatDateTime(iso, config.businessTimezone);

function Totals({ report }: { report: Report }) {
  return (
    <Table fz="sm" className="phone-cards" data-testid="fiscal-totals">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Способ оплаты</Table.Th>
          <Table.Th ta="right">По чекам</Table.Th>
          <Table.Th ta="right">По кассе</Table.Th>
          <Table.Th ta="right">Разница</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {report.totals.map((t) => (
          <Table.Tr key={t.payment_type} data-payment-type={t.payment_type}>
            <Table.Td data-label="Способ оплаты">{paymentType(t.payment_type)}</Table.Td>
            <Table.Td data-label="По чекам" ta="right">
              {formatPrice(t.receipts)}
            </Table.Td>
            <Table.Td data-label="По кассе" ta="right">
              {t.ledger === null ? 'не деньги' : formatPrice(t.ledger)}
            </Table.Td>
            <Table.Td
              data-label="Разница"
              ta="right"
              fw={t.difference ? 700 : undefined}
              c={t.difference ? 'red.9' : undefined}
              data-testid="difference"
            >
              {t.difference === null ? '—' : formatPrice(t.difference)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Receipts({ report }: { report: Report }) {
  return (
    <Table fz="sm" className="phone-cards" data-testid="fiscal-rows">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Вид чека</Table.Th>
          <Table.Th>Операция</Table.Th>
          <Table.Th>Способ оплаты</Table.Th>
          <Table.Th ta="right">Чеков</Table.Th>
          <Table.Th ta="right">Сумма</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {report.rows.map((r) => (
          <Table.Tr key={`${r.invoice_type}-${r.transaction_type}-${r.payment_type}`}>
            <Table.Td data-label="Вид чека">{FISCAL_INVOICE_TYPE_LABELS[r.invoice_type] ?? r.invoice_type}</Table.Td>
            <Table.Td data-label="Операция">
              {FISCAL_TRANSACTION_LABELS[r.transaction_type] ?? r.transaction_type}
            </Table.Td>
            <Table.Td data-label="Способ оплаты">{paymentType(r.payment_type)}</Table.Td>
            <Table.Td data-label="Чеков" ta="right">
              {r.count}
            </Table.Td>
            <Table.Td data-label="Сумма" ta="right">
              {formatPrice(r.amount)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** What keeps the day from agreeing: receipts not issued, money with no receipt. */
function Apart({ report }: { report: Report }) {
  const counted = report.unreceipted.filter((u) => !u.exempt);
  const exempt = report.unreceipted.filter((u) => u.exempt);
  return (
    <Stack gap="sm">
      {report.pending.length > 0 && (
        <Stack gap={6} data-testid="fiscal-pending">
          <Text size="sm" fw={600} c="red.9">
            Чеки дня, которые ещё не выданы
          </Text>
          {report.pending.map((r) => (
            <Group key={r.id} gap="md" align="flex-start" wrap="wrap">
              <Text size="sm" miw={130}>
                {r.record_id !== null ? `Запись №${r.record_id}` : 'Без записи'} · {formatPrice(r.amount)}
              </Text>
              <ReceiptCell receipt={r} />
            </Group>
          ))}
        </Stack>
      )}
      {counted.length > 0 && (
        <Stack gap={4} data-testid="fiscal-unreceipted">
          <Text size="sm" fw={600} c="red.9">
            Деньги без чека
          </Text>
          {counted.map((u) => (
            <Text key={u.payment_id} size="sm">
              {when(u.at)} · {u.record_id !== null ? `запись №${u.record_id}` : 'без записи'} ·{' '}
              {PAYMENT_METHOD_LABELS[u.method as PaymentMethod] ?? u.method} · {formatPrice(u.amount)}
            </Text>
          ))}
        </Stack>
      )}
      {exempt.length > 0 && (
        <Text size="sm" c="gray.7">
          Проданные сертификаты без чека по правилу студии (чек — при использовании):{' '}
          {formatPrice(exempt.reduce((s, u) => s + u.amount, 0))}
        </Text>
      )}
    </Stack>
  );
}

/** The day's fiscal report with its date picker. */
export default function FiscalReport() {
  const [date, setDate] = useState(today());
  const { data, isLoading } = useApi(fiscalApi.report, date ? { query: { date } } : null, {
    onError: (err) => toastError(TITLES.general, err),
    keepPreviousData: true,
  });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="fiscal-report-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <Title order={3} id="fiscal-report-title" size="h4">
            Фискальный отчёт
          </Title>
          <DateField label="День" value={date} onChange={setDate} w={170} clearable={false} />
        </Group>
        {!data || isLoading ? (
          <Skeleton h={160} />
        ) : (
          <Stack gap="md" data-testid="fiscal-report">
            <Group gap="sm" wrap="wrap">
              {data.agrees ? (
                <Badge color="teal.9" variant="light" size="lg" data-testid="fiscal-agrees">
                  Чеки и касса сходятся
                </Badge>
              ) : (
                <Badge color="red.9" variant="light" size="lg" data-testid="fiscal-agrees">
                  Чеки и касса не сходятся
                </Badge>
              )}
              {data.training && (
                <Text size="sm" fw={600} c={TRAINING_COLOR}>
                  {TRAINING_WARNING}
                </Text>
              )}
            </Group>
            {data.totals.length === 0 ? (
              <Text size="sm" c="gray.7">
                В этот день денег и чеков не было
              </Text>
            ) : (
              <Totals report={data} />
            )}
            {data.rows.length > 0 && <Receipts report={data} />}
            <Apart report={data} />
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
