import { lazy, Suspense, useState } from 'react';
import { Card, Checkbox, Group, ScrollArea, Select, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { urlOf } from '../../../contract/endpoints/client';
import { paymentsApi } from '../../../contract/endpoints/payments';
import {
  PAYMENT_KIND_LABELS,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  type PaymentMethod,
} from '../../../contract/money';
import { formatPlaces } from '../../../contract/certificates';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { config } from '../config';
import { BankStatement } from '../components/BankStatement';
import { CsvButton } from '../components/CsvButton';
import { DateField } from '../components/DateField';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { UnreconciledMoney } from '../components/UnreconciledMoney';
import { Pager } from '../components/Pager';
import { PaymentDialog } from '../components/PaymentDialog';
import { ReceiptCell } from '../components/FiscalReceipt';
import { useCan } from '../session';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import '../pageStyles';

const PAGE_SIZE = 50;

// The day's fiscal report loads only where the studio fiscalizes.
const FiscalReport = lazy(() => import('./FiscalReport'));

const when = (iso: string | null) => (iso ? formatDateTime(iso, config.businessTimezone) : '—');

/** The studio's day as YYYY-MM-DD, `daysAgo` days back. */
function day(daysAgo: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: config.businessTimezone }).format(
    new Date(Date.now() - daysAgo * 86_400_000),
  );
  return parts;
}

/** RSD and, when there are any, places of places certificates beside them (their value is known only when used). */
const withPlaces = (amount: number, places: number | undefined) =>
  places ? `${formatPrice(amount)} и ${formatPlaces(places)}` : formatPrice(amount);

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card withBorder padding="md" radius="md">
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fw={700} fz="xl">
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="gray.7">
          {hint}
        </Text>
      )}
    </Card>
  );
}

/** Касса: what came in and went out in a period, per method, what is owed back and the credit customers hold. */
export default function CashDesk() {
  const [from, setFrom] = useState(day(30));
  const [to, setTo] = useState(day(0));
  const [method, setMethod] = useState<PaymentMethod | null>(null);
  const [missing, setMissing] = useState(false);
  const { can } = useCan();
  const [open, setOpen] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const query = {
    from: from || undefined,
    to: to || undefined,
    method: method ?? undefined,
    receipt: missing ? ('missing' as const) : undefined,
  };
  const { data } = useApi(
    paymentsApi.cashDesk,
    { query: { ...query, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE } },
    { onError: (err) => toastError(TITLES.general, err), keepPreviousData: true },
  );
  const fiscal = !!data?.fiscal && data.fiscal.mode !== 'off';
  // Another period or method starts from its first page.
  const pick =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  return (
    <Stack gap="lg">
      <PageHeader title="Касса" />
      <UnreconciledMoney />
      <BankStatement />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DateField label="С" value={from} onChange={pick(setFrom)} w={170} />
        <DateField label="По" value={to} onChange={pick(setTo)} w={170} />
        <Select
          label="Способ"
          placeholder="Все способы"
          clearable
          data={PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
          value={method}
          onChange={(v) => pick(setMethod)(v as PaymentMethod | null)}
          w={210}
        />
        {(fiscal || missing) && (
          <Checkbox
            label="Без чека"
            description="деньги, чей чек ещё не выдан"
            checked={missing}
            onChange={(e) => pick(setMissing)(e.currentTarget.checked)}
            data-testid="filter-missing"
          />
        )}
        <CsvButton
          url={urlOf(paymentsApi.cashDeskCsv, { query })}
          fileName={`payments-${from}-${to}.csv`}
          label="Скачать CSV"
        />
      </Group>
      {!data ? (
        <Skeleton h={320} radius="md" />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" data-testid="cash-totals">
            <Figure label="Получено" value={formatPrice(data.received)} hint="без оплат с баланса в студии" />
            <Figure label="Возвращено" value={formatPrice(data.refunded)} />
            <Figure label="К возврату" value={formatPrice(data.refunds_owed)} hint="по всем записям сейчас" />
            <Figure
              label="Балансы в студии"
              value={formatPrice(data.credit_outstanding)}
              hint="деньги клиентов у студии"
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" data-testid="certificate-totals">
            <Figure
              label="Продано сертификатов"
              value={formatPrice(data.certificates.sold)}
              hint="получено за период"
            />
            <Figure
              label="Оплачено сертификатами"
              value={formatPrice(data.certificates.redeemed)}
              hint="за период, за вычетом возвратов"
            />
            <Figure
              label="Остаток на сертификатах"
              value={withPlaces(data.certificates.outstanding, data.certificates.outstanding_places)}
              hint={
                data.certificates.outstanding_places
                  ? 'обязательство студии сейчас; место стоит цену занятия, на которое запишутся'
                  : 'обязательство студии сейчас'
              }
            />
            <Figure
              label="Списано"
              value={withPlaces(
                data.certificates.expired + data.certificates.voided,
                (data.certificates.expired_places ?? 0) + (data.certificates.voided_places ?? 0),
              )}
              hint={`истекли ${withPlaces(data.certificates.expired, data.certificates.expired_places)}, аннулированы ${withPlaces(data.certificates.voided, data.certificates.voided_places)}`}
            />
          </SimpleGrid>
          <Group gap="md">
            {Object.entries(data.totals).map(([m, total]) => (
              <Text key={m} size="sm">
                {PAYMENT_METHOD_LABELS[m as PaymentMethod] ?? m}: <b>{formatPrice(total)}</b>
              </Text>
            ))}
          </Group>
          {data.payments.length === 0 ? (
            <EmptyState text={missing ? 'За этот период все деньги с чеками' : 'За этот период операций нет'} />
          ) : (
            <ScrollArea type="auto">
              <Table
                className="phone-cards"
                miw={fiscal ? 900 : 760}
                fz="sm"
                striped
                highlightOnHover
                data-testid="cash-list"
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Когда</Table.Th>
                    <Table.Th>Запись, клиент</Table.Th>
                    <Table.Th>Мастер-класс</Table.Th>
                    <Table.Th>Операция</Table.Th>
                    <Table.Th>Способ</Table.Th>
                    <Table.Th ta="right">Сумма</Table.Th>
                    {fiscal && <Table.Th>Чек</Table.Th>}
                    <Table.Th>Комментарий</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.payments.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td data-label="Когда">{when(p.at)}</Table.Td>
                      <Table.Td data-label="Запись, клиент">
                        {p.record_id !== null && p.workshop_title !== null ? (
                          <Text
                            component="button"
                            type="button"
                            size="sm"
                            c="teal.9"
                            td="underline"
                            style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer' }}
                            onClick={() => setOpen(p.record_id)}
                          >
                            №{p.record_id}
                          </Text>
                        ) : (
                          (p.record_id ?? '—')
                        )}
                        {p.customer_name && (
                          <Text size="xs" c="gray.7">
                            {p.customer_name}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td data-label="Мастер-класс">
                        {p.workshop_title ?? '—'}
                        {p.schedule_date && (
                          <Text size="xs" c="gray.7">
                            {when(p.schedule_date)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td data-label="Операция">{PAYMENT_KIND_LABELS[p.kind]}</Table.Td>
                      <Table.Td data-label="Способ">{PAYMENT_METHOD_LABELS[p.method]}</Table.Td>
                      <Table.Td data-label="Сумма" ta="right">
                        {formatPrice(p.amount)}
                      </Table.Td>
                      {fiscal && (
                        <Table.Td data-label="Чек">
                          <ReceiptCell receipt={p.receipt} />
                        </Table.Td>
                      )}
                      <Table.Td data-label="Комментарий">{p.note}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          )}
          {data.count > 0 && <Pager page={page} pageSize={PAGE_SIZE} total={data.count} onChange={setPage} />}
        </>
      )}
      {fiscal && can('fiscal.read') && (
        <Suspense fallback={<Skeleton h={200} radius="md" />}>
          <FiscalReport />
        </Suspense>
      )}
      {open !== null && <PaymentDialog recordId={open} title={`запись №${open}`} onClose={() => setOpen(null)} />}
    </Stack>
  );
}
