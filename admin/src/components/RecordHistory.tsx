import { Loader, Modal, Text } from '@mantine/core';
import { recordsApi } from '../../../contract/endpoints/records';
import { useApi } from '../query';
import { TITLES, toastError } from '../notify';
import { AuditList } from './AuditList';

/** "История изменений" of one booking: who changed what and when. */
export function RecordHistory({ recordId, name, onClose }: { recordId: number; name: string; onClose: () => void }) {
  const { data, isLoading } = useApi(
    recordsApi.history,
    { params: { id: recordId }, query: { limit: 100 } },
    {
      onError: (err) => toastError(TITLES.general, err),
    },
  );
  return (
    <Modal opened onClose={onClose} title={`История записи: ${name}`} size="lg">
      {isLoading || !data ? (
        <Loader size="sm" aria-label="Загрузка" />
      ) : data.data.length === 0 ? (
        <Text c="gray.7">Изменений пока нет.</Text>
      ) : (
        <AuditList entries={data.data} />
      )}
    </Modal>
  );
}
