import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { useParams } from 'wouter';
import { fiscalApi } from '../../../contract/endpoints/fiscal';
import {
  FISCAL_PAYMENT_TYPE_LABELS,
  FISCAL_RECEIPT_TYPE_LABELS,
  type FiscalReceiptPublic,
} from '../../../contract/fiscal';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { call } from '../api';
import { config, withBase } from '../config';
import { PageHeader } from '../components/PageHeader';
import { ReceiptStateBadge } from '../components/FiscalReceipt';
import { toastError, TITLES } from '../notify';
import { useApi } from '../query';
import { useCan } from '../session';
import '../pageStyles';
import '../fiscal-receipt.css';

/*
 * The printable receipt: the PFR's journal as it is, in a monospace block, its verification QR code and
 * URL, on 80 mm roll paper or A6. The first print is the original; a reprint says «ОВО НИЈЕ ФИСКАЛНИ
 * РАЧУН» above and below, as the rules require of a copy. Training receipts say they are training ones.
 */

/** What the rules require a copy to say. */
const NOT_FISCAL = 'ОВО НИЈЕ ФИСКАЛНИ РАЧУН';

const PAPERS = {
  roll: { label: '80 мм', page: '@page { size: 80mm auto; margin: 3mm 4mm; }' },
  a6: { label: 'A6', page: '@page { size: A6 portrait; margin: 8mm; }' },
} as const;
type Paper = keyof typeof PAPERS;

const when = (iso: string | null) => (iso ? formatDateTime(iso, config.businessTimezone) : '—');

function Receipt({ r, copy, paper }: { r: FiscalReceiptPublic; copy: boolean; paper: Paper }) {
  return (
    <div className={`receipt-print receipt-${paper}`} data-testid="printable-receipt" data-copy={copy}>
      {copy && <p className="receipt-mark">{NOT_FISCAL}</p>}
      {r.training && <p className="receipt-mark">Учебный чек — не имеет фискальной силы</p>}
      {r.journal ? (
        <pre className="receipt-journal" data-testid="receipt-journal">
          {r.journal.replace(/\r\n/g, '\n').trimEnd()}
        </pre>
      ) : (
        <p className="receipt-plain">
          {FISCAL_RECEIPT_TYPE_LABELS[r.type]} {formatPrice(r.amount)} · {r.invoice_number}
        </p>
      )}
      {r.verification_qr && (
        <img className="receipt-qr" src={r.verification_qr} alt="QR-код проверки чека" width={164} height={164} />
      )}
      {r.verification_url && <p className="receipt-url">{r.verification_url}</p>}
      {copy && <p className="receipt-mark">{NOT_FISCAL}</p>}
    </div>
  );
}

/** /receipts/:id — a receipt to look at and print. */
export default function FiscalReceipt() {
  const { id } = useParams<{ id: string }>();
  const { known, can } = useCan();
  const allowed = can('fiscal.read');
  const { data, mutate } = useApi(fiscalApi.receipt, allowed ? { params: { id: Number(id) } } : null, {
    onError: (err) => toastError(TITLES.general, err),
  });
  const [paper, setPaper] = useState<Paper>('roll');
  const [copy, setCopy] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  // Printed once the page shows what was decided (the original or a copy).
  const [prints, setPrints] = useState(0);
  useEffect(() => {
    if (prints > 0) window.print();
  }, [prints]);

  if (known && !allowed)
    return (
      <Stack align="center" gap="xs" py="xl" data-testid="no-access">
        <Text fw={700} size="xl">
          Нет доступа
        </Text>
        <Text c="dimmed">Чеки смотрят владелец и менеджеры студии.</Text>
      </Stack>
    );
  if (!data) return <Skeleton h={420} radius="md" />;
  const printable = data.state === 'issued' && !!data.journal;
  // Before printing, the page shows what the next print will be.
  const isCopy = copy ?? data.printed_at !== null;

  const print = async () => {
    setBusy(true);
    try {
      const answer = await call(fiscalApi.print, { params: { id: data.id } });
      setCopy(answer.copy);
      await mutate(answer, { revalidate: false });
      setPrints((n) => n + 1);
    } catch (err) {
      toastError(TITLES.general, err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="lg">
      <style>{PAPERS[paper].page}</style>
      <div>
        <PageHeader title={`Чек: ${FISCAL_RECEIPT_TYPE_LABELS[data.type].toLowerCase()}`} />
        <Stack gap="sm">
          {data.training && (
            <Alert color="orange" variant="light" title="Учебный чек" data-testid="training-receipt">
              Выдан в учебном режиме PFR: не имеет фискальной силы.
            </Alert>
          )}
          <Group gap="sm" wrap="wrap">
            <ReceiptStateBadge state={data.state} />
            <Text size="sm">
              {formatPrice(data.amount)} · {FISCAL_PAYMENT_TYPE_LABELS[data.payment_type] ?? data.payment_type}
            </Text>
            {data.record_id !== null && (
              <Text size="sm" c="gray.7">
                Запись №{data.record_id}
                {data.customer_name ? ` · ${data.customer_name}` : ''}
                {data.workshop_title ? ` · ${data.workshop_title}` : ''}
              </Text>
            )}
          </Group>
          <Text size="sm" c="gray.7">
            Время оплаты: {when(data.esir_time)} · подписан PFR: {when(data.sdc_time)}
            {data.referent && (
              <>
                {' '}
                · ссылается на{' '}
                <Anchor href={withBase(`/receipts/${data.referent.id}`)} size="sm" c="teal.9" td="underline">
                  {data.referent.invoice_number ?? `чек ${data.referent.id}`}
                </Anchor>
              </>
            )}
          </Text>
          {printable ? (
            <Group gap="sm" wrap="wrap" align="flex-end">
              <SegmentedControl
                aria-label="Бумага"
                value={paper}
                onChange={(v) => setPaper(v as Paper)}
                data={Object.entries(PAPERS).map(([value, p]) => ({ value, label: p.label }))}
              />
              <Button onClick={() => void print()} loading={busy}>
                {isCopy ? 'Печать копии' : 'Печать'}
              </Button>
              <Text size="sm" c="gray.7" data-testid="print-kind">
                {isCopy
                  ? `Уже печатался ${when(data.printed_at)}: печатается копия с пометкой «${NOT_FISCAL}»`
                  : 'Первая печать — оригинал чека'}
              </Text>
            </Group>
          ) : (
            <Text size="sm" c="gray.7">
              {data.state !== 'issued'
                ? 'Чек ещё не выдан: напечатать можно выданный чек.'
                : 'Чек выдан кассой студии (ручной режим): его печатает она.'}
            </Text>
          )}
        </Stack>
      </div>
      {data.state === 'issued' && (
        <Paper withBorder radius="md" p="md" className="receipt-sheet">
          <Receipt r={data} copy={isCopy} paper={paper} />
        </Paper>
      )}
    </Stack>
  );
}
