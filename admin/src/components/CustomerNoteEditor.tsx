import { useState } from 'react';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { NOTE_MAX } from '../../../contract/customers';
import { customersApi } from '../../../contract/endpoints/customers';
import { call } from '../api';
import { runChange } from '../mutations';

/** Staff's note about a customer («вегетарианец», «всегда с вином»): shown on each of their bookings. */
export function CustomerNoteEditor({ telegramId, note }: { telegramId: number; note: string | null }) {
  const [text, setText] = useState(note ?? '');
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    await runChange(
      () => call(customersApi.note, { params: { telegram_id: telegramId }, body: { note: text } }),
      text.trim() ? 'Заметка сохранена' : 'Заметка удалена',
    );
    setBusy(false);
  };
  return (
    <Stack gap={6}>
      <Textarea
        label="Заметка о клиенте"
        description="Видна сотрудникам в каждой записи клиента, в списке участников и в /today; клиент видит её в своих данных (/mydata)"
        autosize
        minRows={2}
        maxLength={NOTE_MAX}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        data-testid="customer-note-input"
      />
      <Group justify="flex-end">
        <Button size="xs" onClick={save} loading={busy} disabled={text.trim() === (note ?? '')}>
          Сохранить заметку
        </Button>
      </Group>
    </Stack>
  );
}
