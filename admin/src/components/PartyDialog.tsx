import { useState } from 'react';
import { Alert, NumberInput, Text } from '@mantine/core';
import { recordsApi } from '../../../contract/endpoints/records';
import { PEOPLE_MAX, PEOPLE_MIN } from '../../../contract/common';
import { formatPrice } from '../../../contract/format';
import { call } from '../api';
import { runChange } from '../mutations';
import { FormModal } from './FormModal';
import { useApi } from '../query';

/**
 * «Изменить количество»: the customer's own command (free seats, the queue, the price following the party);
 * a refusal comes back as the server's sentence in the toast and the dialog stays open.
 */
export function PartyDialog({
  record,
  onClose,
}: {
  record: { id: number; name: string; people_count: number };
  onClose: () => void;
}) {
  const [people, setPeople] = useState<number | string>(record.people_count);
  const [saving, setSaving] = useState(false);
  const valid = typeof people === 'number' && people >= PEOPLE_MIN && people <= PEOPLE_MAX;
  // The command moves an active booking that no longer fits to the queue, whole: staff are told before saving.
  const { data: view } = useApi(recordsApi.get, { params: { id: record.id } });
  const toQueue = valid && view?.record.state === 'ACTIVE' && people - view.record.people_count > view.places_available;
  const submit = async () => {
    if (!valid) return;
    setSaving(true);
    const ok = await runChange(
      () => call(recordsApi.updatePeople, { params: { id: record.id }, body: { people_count: people } }),
      (view) =>
        [
          `${view.record.name}: ${view.record.people_count} чел.`,
          view.record.state === 'QUEUED' ? 'в очереди' : '',
          view.money ? `цена ${formatPrice(view.money.price)}` : '',
        ]
          .filter(Boolean)
          .join(', '),
      'Не удалось изменить количество',
    );
    setSaving(false);
    if (ok) onClose();
  };
  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Количество человек: ${record.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      saving={saving}
      saveDisabled={!valid || people === record.people_count}
    >
      <Text size="sm">Сейчас: {record.people_count} чел.</Text>
      <NumberInput
        label="Количество человек"
        min={PEOPLE_MIN}
        max={PEOPLE_MAX}
        allowDecimal={false}
        value={people}
        onChange={setPeople}
        error={valid ? undefined : `От ${PEOPLE_MIN} до ${PEOPLE_MAX}`}
        data-autofocus
      />
      {toQueue && (
        <Alert color="orange" variant="light" data-testid="party-to-queue">
          Свободных мест: {view.places_available}. Запись целиком уйдёт в очередь и займёт места, когда они освободятся.
        </Alert>
      )}
    </FormModal>
  );
}
