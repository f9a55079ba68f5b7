import { useState } from 'react';
import { Group, NativeSelect, Paper, Skeleton } from '@mantine/core';
import { AUDIT_ENTITIES, AUDIT_ENTITY_LABELS } from '../../../contract/audit';
import { auditApi } from '../../../contract/endpoints/audit';
import { TITLES, toastError } from '../notify';
import { AuditList } from '../components/AuditList';
import { DateField } from '../components/DateField';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { Pager } from '../components/Pager';
import { useApi } from '../query';
import '../pageStyles';

const PAGE_SIZE = 20;

/** Журнал (superusers): every change, newest first, by kind of object and period. */
export default function AuditLogPage() {
  const [page, setPage] = useState(1);
  const [entity, setEntity] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { data, isLoading } = useApi(
    auditApi.list,
    { query: { skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, entity, from, to } },
    {
      onError: (err) => toastError(TITLES.general, err),
      keepPreviousData: true,
    },
  );
  const set = (fn: (v: string) => void) => (v: string) => {
    fn(v);
    setPage(1);
  };
  return (
    <>
      <PageHeader title="Журнал изменений" />
      <Group gap="sm" mb="lg" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Что изменено"
          value={entity}
          onChange={(e) => set(setEntity)(e.currentTarget.value)}
          data={[
            { value: '', label: 'Всё' },
            ...AUDIT_ENTITIES.map((e) => ({ value: e, label: AUDIT_ENTITY_LABELS[e] })),
          ]}
          w={200}
        />
        <DateField label="С" value={from} onChange={set(setFrom)} w={160} />
        <DateField label="По" value={to} onChange={set(setTo)} w={160} />
      </Group>
      {isLoading && !data ? (
        <Skeleton h={240} radius="md" />
      ) : !data || data.data.length === 0 ? (
        <EmptyState text="Записей в журнале нет." />
      ) : (
        <Paper withBorder radius="md" p="lg">
          <AuditList entries={data.data} showEntity />
        </Paper>
      )}
      {data && data.count > 0 && <Pager page={page} pageSize={PAGE_SIZE} total={data.count} onChange={setPage} />}
    </>
  );
}
