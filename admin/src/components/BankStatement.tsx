import { useState } from 'react';
import {
  Button,
  Card,
  FileButton,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { paymentsApi } from '../../../contract/endpoints/payments';
import {
  BANK_COLUMN_DEFAULTS,
  type BankLinePublic,
  type BankStatementImport,
  type BankStatementResult,
} from '../../../contract/bank-statement';
import { formatPrice } from '../../../contract/format';
import { call } from '../api';
import { runChange } from '../mutations';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';

/** A statement file as text: UTF-8, else the Windows-1250 Serbian banks often export in. */
async function readStatement(file: File): Promise<string> {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1250').decode(bytes);
  }
}

const resultText = (r: BankStatementResult) =>
  `Строк с поступлениями: ${r.lines}. Сверено: ${r.matched}, ждут разбора: ${r.unmatched}, загружены раньше: ${r.already}`;

type Columns = NonNullable<BankStatementImport['columns']>;
const COLUMN_FIELDS = [
  ['date', 'Дата'],
  ['amount', 'Сумма поступления'],
  ['reference', 'Поиск по ссылке (poziv na broj)'],
  ['payer', 'Плательщик'],
] as const;

/** «Загрузить выписку»: a CSV file from the bank, or IPS payments pasted as CSV; column names when the bank's differ. */
export function BankStatementUpload() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [columns, setColumns] = useState<Columns>({});
  const [busy, setBusy] = useState(false);
  const close = () => {
    setOpen(false);
    setText('');
    setFileName(null);
  };
  const upload = async () => {
    setBusy(true);
    const named = Object.fromEntries(Object.entries(columns).filter(([, v]) => v && v.trim())) as Columns;
    const done = await runChange(
      () =>
        call(paymentsApi.bankStatement, {
          body: { text, ...(Object.keys(named).length > 0 && { columns: named }) },
        }),
      resultText,
    );
    setBusy(false);
    if (done) close();
  };
  return (
    <>
      <Button variant="light" onClick={() => setOpen(true)}>
        Загрузить выписку
      </Button>
      <Modal opened={open} onClose={close} title="Выписка банка" size="lg">
        <Stack gap="sm">
          <Text size="sm" c="gray.7">
            Поступления сверяются с записями по ссылке из IPS QR (poziv na broj, модель 97) и сумме; остальные ждут
            разбора в «Несверенных деньгах». Повторная загрузка той же выписки ничего не меняет.
          </Text>
          <Group gap="sm">
            <FileButton
              accept=".csv,.txt,text/csv,text/plain"
              onChange={(file) => {
                if (!file) return;
                setFileName(file.name);
                void readStatement(file).then(setText);
              }}
            >
              {(props) => (
                <Button variant="default" {...props}>
                  Выбрать файл CSV
                </Button>
              )}
            </FileButton>
            {fileName && <Text size="sm">{fileName}</Text>}
          </Group>
          <Textarea
            label="Или вставьте строки выписки (CSV с заголовком)"
            autosize
            minRows={4}
            maxRows={10}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setFileName(null);
            }}
            styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
          />
          <Text size="sm" fw={600}>
            Названия столбцов, если в выписке они другие
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            {COLUMN_FIELDS.map(([field, label]) => (
              <TextInput
                key={field}
                size="xs"
                label={label}
                placeholder={BANK_COLUMN_DEFAULTS[field][0]}
                value={columns[field] ?? ''}
                onChange={(e) => setColumns({ ...columns, [field]: e.currentTarget.value })}
              />
            ))}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="subtle" color="gray.8" onClick={close}>
              Отмена
            </Button>
            <Button loading={busy} disabled={!text.trim()} onClick={() => void upload()}>
              Загрузить
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** One unmatched line: what came, from whom, with what reference; attach it to a booking or dismiss it. */
function BankLine({ line }: { line: BankLinePublic }) {
  const [recordId, setRecordId] = useState<number | string>(line.reference_record_id ?? '');
  const [dismissing, setDismissing] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    await runChange(run, done);
    setBusy(false);
  };
  return (
    <Card withBorder padding="sm" radius="md" data-testid="bank-line">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">
            {line.booked_on.split('-').reverse().join('.')} · {line.payer || 'плательщик не указан'}
          </Text>
          <Text fw={700}>{formatPrice(line.amount)}</Text>
        </Group>
        <Text size="xs" c="gray.7">
          {line.reference ? `Ссылка: ${line.reference}` : 'Без ссылки'}
          {line.purpose ? ` · ${line.purpose}` : ''}
          {line.reference_record_id !== null
            ? ` · по ссылке запись №${line.reference_record_id}, сумма не совпала`
            : ''}
        </Text>
        {!dismissing ? (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <NumberInput
              size="xs"
              label="№ записи"
              value={recordId}
              onChange={setRecordId}
              min={1}
              allowDecimal={false}
              hideControls
              w={110}
            />
            <Button
              size="xs"
              variant="light"
              loading={busy}
              disabled={!recordId}
              onClick={() =>
                void act(
                  () =>
                    call(paymentsApi.attachBankLine, {
                      params: { id: line.id },
                      body: { record_id: Number(recordId) },
                    }),
                  `Перевод записан на запись №${recordId}`,
                )
              }
            >
              Привязать
            </Button>
            <Button size="xs" variant="subtle" color="gray.8" disabled={busy} onClick={() => setDismissing(true)}>
              Отклонить
            </Button>
          </Group>
        ) : (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              size="xs"
              label="Почему это не оплата записи"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              style={{ flex: '1 1 200px' }}
            />
            <Button
              size="xs"
              loading={busy}
              disabled={!reason.trim()}
              onClick={() =>
                void act(
                  () => call(paymentsApi.dismissBankLine, { params: { id: line.id }, body: { reason } }),
                  'Строка отклонена, причина записана в журнал',
                )
              }
            >
              Отклонить
            </Button>
            <Button size="xs" variant="subtle" color="gray.8" onClick={() => setDismissing(false)}>
              Отмена
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** The statement lines nobody matched (one request shared by whoever asks). */
export const useUnmatchedBankLines = () =>
  useApi(
    paymentsApi.bankLines,
    { query: { status: 'unmatched', limit: 100 } },
    { onError: (err) => toastError(TITLES.general, err) },
  );

/** The statement lines nobody matched, each until staff attach or dismiss it; nothing while there are none. */
export function UnmatchedBankLines() {
  const { data } = useUnmatchedBankLines();
  if (!data || data.count === 0) return null;
  return (
    <Stack gap="xs" data-testid="bank-lines">
      <Text size="sm" c="gray.7">
        Поступления без пары: {data.count}
      </Text>
      {data.data.map((line) => (
        <BankLine key={line.id} line={line} />
      ))}
    </Stack>
  );
}

/** «Выписка банка» on Касса: the upload (the lines left to sort out wait on «Несверенные деньги»). */
export function BankStatement() {
  return (
    <Card withBorder padding="md" radius="md" data-testid="bank-statement">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} fz="lg">
            Выписка банка
          </Title>
          <BankStatementUpload />
        </Group>
      </Stack>
    </Card>
  );
}
