import { useState } from 'react';
import { Anchor, Button, Group, ScrollArea, Select, Skeleton, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  CERTIFICATE_STATUSES,
  CERTIFICATE_STATUS_LABELS,
  formatPlaces,
  type CertificateStatus,
} from '../../../contract/certificates';
import { certificatesApi } from '../../../contract/endpoints/certificates';
import { formatDate, formatPrice } from '../../../contract/format';
import { config } from '../config';
import { CertificateDialog, CertificateStatusBadge } from '../components/CertificateDialog';
import { EmptyState } from '../components/EmptyState';
import { IconPlus } from '../components/icons';
import { PageHeader } from '../components/PageHeader';
import { Pager } from '../components/Pager';
import { CertificateIssueForm } from '../forms/CertificateIssueForm';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import '../pageStyles';

const PAGE_SIZE = 20;

/** Сертификаты: every gift certificate, searchable by code, recipient or buyer; issue one; open one for its ledger. */
export default function CertificatesPage() {
  const [q, setQ] = useState('');
  const [query] = useDebouncedValue(q.trim(), 300);
  const [status, setStatus] = useState<CertificateStatus | null>(null);
  const [page, setPage] = useState(1);
  const [issuing, setIssuing] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const { data, error, isLoading } = useApi(
    certificatesApi.list,
    { query: { q: query || undefined, status: status ?? undefined, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE } },
    { onError: (err) => toastError(TITLES.general, err), keepPreviousData: true },
  );
  const tz = config.businessTimezone;
  return (
    <>
      <PageHeader title="Сертификаты">
        <Button leftSection={<IconPlus />} onClick={() => setIssuing(true)}>
          Выпустить
        </Button>
      </PageHeader>
      <Group align="flex-end" gap="sm" mb="lg" wrap="wrap">
        <TextInput
          label="Поиск по коду, получателю или покупателю"
          placeholder="ABCD-EFGH или Анна"
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 360 }}
        />
        <Select
          label="Статус"
          placeholder="Все"
          clearable
          data={CERTIFICATE_STATUSES.map((s) => ({ value: s, label: CERTIFICATE_STATUS_LABELS[s] }))}
          value={status}
          onChange={(v) => {
            setStatus(v as CertificateStatus | null);
            setPage(1);
          }}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      {isLoading && !data ? (
        <Skeleton h={240} radius="md" />
      ) : !data ? (
        <EmptyState text={error ? 'Не удалось загрузить сертификаты. Обновите страницу.' : 'Сертификатов пока нет.'} />
      ) : data.data.length === 0 ? (
        <EmptyState
          text={
            query || status ? 'Ничего не нашлось.' : 'Сертификатов пока нет. Нажмите «Выпустить», чтобы продать первый.'
          }
        />
      ) : (
        <ScrollArea type="auto" bg="white" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Table
            className="phone-cards"
            miw={820}
            verticalSpacing="sm"
            highlightOnHover
            fz="sm"
            data-testid="certificates-table"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Код</Table.Th>
                <Table.Th>Получатель</Table.Th>
                <Table.Th>Покупатель</Table.Th>
                <Table.Th ta="right">Номинал</Table.Th>
                <Table.Th ta="right">Остаток</Table.Th>
                <Table.Th>Действует до</Table.Th>
                <Table.Th>Статус</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((c) => (
                <Table.Tr key={c.id} data-code={c.code}>
                  <Table.Td data-label="Код">
                    <Anchor
                      component="button"
                      type="button"
                      fz="sm"
                      ff="monospace"
                      fw={600}
                      onClick={() => setOpen(c.code)}
                      aria-label={`Сертификат ${c.code}`}
                    >
                      {c.code}
                    </Anchor>
                  </Table.Td>
                  <Table.Td data-label="Получатель">{c.recipient_name ?? '—'}</Table.Td>
                  <Table.Td data-label="Покупатель">
                    {c.buyer_name ?? (c.buyer_telegram_id ? 'через Telegram' : '—')}
                  </Table.Td>
                  {c.kind === 'places' && c.places !== null ? (
                    <Table.Td data-label="Номинал" ta="right">
                      {formatPlaces(c.places)}
                      <Text fz="xs" c="gray.7">
                        оплачено {formatPrice(c.amount)}
                      </Text>
                    </Table.Td>
                  ) : (
                    <Table.Td data-label="Номинал" ta="right">
                      {formatPrice(c.amount)}
                    </Table.Td>
                  )}
                  <Table.Td data-label="Остаток" ta="right">
                    <Text fz="sm" fw={c.balance > 0 ? 600 : undefined}>
                      {c.kind === 'places' ? formatPlaces(c.balance) : formatPrice(c.balance)}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label="Действует до">{formatDate(c.expires_at, tz)}</Table.Td>
                  <Table.Td data-label="Статус">
                    <CertificateStatusBadge status={c.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {data && data.count > 0 && <Pager page={page} pageSize={PAGE_SIZE} total={data.count} onChange={setPage} />}
      {issuing && (
        <CertificateIssueForm
          onClose={() => setIssuing(false)}
          onIssued={(c) => {
            setIssuing(false);
            setOpen(c.code);
          }}
        />
      )}
      {open !== null && <CertificateDialog code={open} onClose={() => setOpen(null)} />}
    </>
  );
}
