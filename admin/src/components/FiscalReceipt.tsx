import { useState } from 'react';
import { Anchor, Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { fiscalApi } from '../../../contract/endpoints/fiscal';
import {
  BUYER_ID_CODES_OFFERED,
  BUYER_ID_KINDS,
  FISCAL_RECEIPT_STATE_LABELS,
  FISCAL_RECEIPT_TYPE_LABELS,
  type FiscalReceiptBrief,
  type FiscalReceiptState,
} from '../../../contract/fiscal';
import { call } from '../api';
import { withBase } from '../config';
import { runChange } from '../mutations';
import { useCan } from '../session';
import { FormModal } from './FormModal';

export { TRAINING_COLOR, TRAINING_WARNING } from './fiscal-words';

/* A payment's fiscal receipt as the ledger and Касса show it, and what staff type for it (a number, a buyer's ID). */

/** The state's colour: issued green, waiting yellow, a buyer's ID missing orange, refused red. */
const COLORS: Record<FiscalReceiptState, string> = {
  issued: 'teal.9',
  waiting: 'yellow.9',
  needs_buyer: 'orange.9',
  refused: 'red.9',
};

/** Where a receipt prints (its own page, outside any dialog). */
export const receiptPage = (id: number) => `/receipts/${id}`;

export function ReceiptStateBadge({ state }: { state: FiscalReceiptState }) {
  return (
    <Badge size="sm" variant="light" color={COLORS[state]} data-testid="receipt-state" data-state={state}>
      {FISCAL_RECEIPT_STATE_LABELS[state]}
    </Badge>
  );
}

/** The PFR's number typed from the studio's own register (manual mode), once. */
function ManualNumberDialog({ receipt, onClose }: { receipt: FiscalReceiptBrief; onClose: () => void }) {
  const [number, setNumber] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <FormModal
      opened
      onClose={onClose}
      title="Номер чека из кассы"
      saving={busy}
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void runChange(
          () => call(fiscalApi.manual, { params: { id: receipt.id }, body: { invoice_number: number } }),
          'Номер чека сохранён',
        ).then((ok) => {
          setBusy(false);
          if (ok) onClose();
        });
      }}
    >
      <Text size="sm">
        {FISCAL_RECEIPT_TYPE_LABELS[receipt.type]} на {receipt.amount.toLocaleString('ru-RU')} RSD. Введите номер,
        который напечатала касса (PFR) студии. Номер сохраняется один раз.
      </Text>
      <TextInput
        label="Номер чека (PFR)"
        description="Как на чеке: XXXXXXXX-XXXXXXXX-N"
        placeholder="RX4F7Y5L-RX4F7Y5L-138"
        required
        value={number}
        onChange={(e) => setNumber(e.currentTarget.value)}
        autoComplete="off"
      />
    </FormModal>
  );
}

/** A refund's buyer identification: the rulebook's document code and its number. */
function BuyerIdDialog({ receipt, onClose }: { receipt: FiscalReceiptBrief; onClose: () => void }) {
  const [code, setCode] = useState<(typeof BUYER_ID_CODES_OFFERED)[number]>('20');
  const [number, setNumber] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <FormModal
      opened
      onClose={onClose}
      title="Документ покупателя для возврата"
      saving={busy}
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void runChange(
          () => call(fiscalApi.buyer, { params: { id: receipt.id }, body: { code, number } }),
          'Документ покупателя сохранён: чек отправляется',
        ).then((ok) => {
          setBusy(false);
          if (ok) onClose();
        });
      }}
    >
      <Text size="sm">
        Чек возврата должен назвать покупателя. Спросите документ у клиента; в журнал номер не записывается.
      </Text>
      <Select
        label="Документ"
        data={BUYER_ID_CODES_OFFERED.map((c) => ({ value: c, label: `${c} — ${BUYER_ID_KINDS[c].label}` }))}
        value={code}
        onChange={(v) => v && setCode(v as typeof code)}
        allowDeselect={false}
      />
      <TextInput
        label="Номер документа"
        description={BUYER_ID_KINDS[code].hint}
        required
        value={number}
        onChange={(e) => setNumber(e.currentTarget.value)}
        autoComplete="off"
      />
    </FormModal>
  );
}

/**
 * A ledger row's receipt: type, number and state, training marked; for staff who may, the number to
 * type (manual mode), the buyer's ID a refund waits for, and the printable receipt once issued.
 */
export function ReceiptCell({ receipt }: { receipt: FiscalReceiptBrief | null | undefined }) {
  const { can } = useCan();
  const [open, setOpen] = useState<'number' | 'buyer' | null>(null);
  if (!receipt)
    return (
      <Text size="sm" c="gray.7">
        —
      </Text>
    );
  const typing = can('fiscal.receipts');
  return (
    <Stack gap={2} align="flex-start" data-testid="receipt-cell" data-receipt={receipt.id}>
      <Group gap={6} wrap="wrap">
        <Text size="sm" fw={600}>
          {FISCAL_RECEIPT_TYPE_LABELS[receipt.type]}
        </Text>
        <ReceiptStateBadge state={receipt.state} />
        {receipt.training && (
          <Badge size="sm" variant="outline" color="orange.9">
            Учебный
          </Badge>
        )}
      </Group>
      {receipt.invoice_number &&
        (can('fiscal.read') ? (
          <Anchor
            href={withBase(receiptPage(receipt.id))}
            target="_blank"
            rel="noopener"
            size="sm"
            ff="monospace"
            c="teal.9"
            style={{ whiteSpace: 'nowrap' }}
          >
            {receipt.invoice_number}
          </Anchor>
        ) : (
          <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
            {receipt.invoice_number}
          </Text>
        ))}
      {receipt.state === 'refused' && receipt.last_error && (
        <Text size="xs" c="red.9" style={{ overflowWrap: 'anywhere' }}>
          {receipt.last_error}
        </Text>
      )}
      {typing && receipt.mode === 'manual' && receipt.state === 'waiting' && (
        <Button size="compact-xs" variant="light" onClick={() => setOpen('number')}>
          Ввести номер
        </Button>
      )}
      {typing && receipt.state === 'needs_buyer' && (
        <Button size="compact-xs" variant="light" color="orange.9" onClick={() => setOpen('buyer')}>
          Документ покупателя
        </Button>
      )}
      {open === 'number' && <ManualNumberDialog receipt={receipt} onClose={() => setOpen(null)} />}
      {open === 'buyer' && <BuyerIdDialog receipt={receipt} onClose={() => setOpen(null)} />}
    </Stack>
  );
}
