import { useState } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { paymentsApi } from '../../../contract/endpoints/payments';
import {
  PAYMENT_KIND_LABELS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  REFUND_METHODS,
  type PaymentCreate,
  type PaymentStatus,
  type PriceOverride,
  type RefundCreate,
} from '../../../contract/money';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { call } from '../api';
import { CertificateRedeem } from './CertificateRedeem';
import { ReceiptCell, TRAINING_COLOR, TRAINING_WARNING } from './FiscalReceipt';
import { config } from '../config';
import { runChange } from '../mutations';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';

/** The badge's colour: paid green, part paid yellow, money owed back red, unpaid grey. */
const COLORS: Record<PaymentStatus, string> = {
  paid: 'teal.9',
  deposit_paid: 'yellow.9',
  unpaid: 'gray.8',
  refund_owed: 'red.9',
  refunded: 'gray.8',
  credited: 'blue.9',
};

/**
 * A booking's payment badge (Оплачено / Депозит / Не оплачено / К возврату …); opens the payment dialog,
 * or only shows the status without `onClick` (a host outside its days).
 */
export function PaymentBadge({ status, onClick }: { status: PaymentStatus; onClick?: () => void }) {
  const label = PAYMENT_STATUS_LABELS[status];
  return onClick ? (
    <Badge
      component="button"
      type="button"
      size="sm"
      variant="light"
      color={COLORS[status]}
      data-testid="payment-badge"
      data-status={status}
      style={{ cursor: 'pointer' }}
      onClick={onClick}
      title="Оплата записи"
    >
      {label}
    </Badge>
  ) : (
    <Badge size="sm" variant="light" color={COLORS[status]} data-testid="payment-badge" data-status={status}>
      {label}
    </Badge>
  );
}

const rsd = (n: number) => formatPrice(n);
const methodOptions = (methods: readonly string[]) =>
  methods.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m as keyof typeof PAYMENT_METHOD_LABELS] }));

/**
 * One money form: an amount (empty: the default the server takes), where the money went, a comment.
 * With `deliberate`, a checkbox marks an amount beyond what is owed as meant, and the comment becomes its reason.
 */
function MoneyForm({
  methods,
  submit,
  label,
  hint,
  initial,
  deliberate = false,
}: {
  methods: readonly string[];
  submit: (body: { amount?: number; method: string; note: string | null; over_owed?: boolean }) => Promise<boolean>;
  label: string;
  hint: string;
  initial?: number;
  deliberate?: boolean;
}) {
  const [amount, setAmount] = useState<number | string>(initial ?? '');
  const [method, setMethod] = useState<string | null>(methods[0]);
  const [note, setNote] = useState('');
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const ok = await submit({
      ...(typeof amount === 'number' && { amount }),
      method: method ?? methods[0],
      note: note.trim() || null,
      ...(over && { over_owed: true }),
    });
    setBusy(false);
    if (ok) {
      setAmount('');
      setNote('');
    }
  };
  return (
    <Group align="flex-end" gap="xs" wrap="wrap">
      <NumberInput
        label="Сумма, дин."
        description={hint}
        value={amount}
        onChange={setAmount}
        min={1}
        allowDecimal={false}
        thousandSeparator=" "
        w={170}
      />
      <Select
        label="Способ"
        data={methodOptions(methods)}
        value={method}
        onChange={setMethod}
        w={190}
        allowDeselect={false}
      />
      <TextInput
        label={over ? 'Причина' : 'Комментарий'}
        required={over}
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        w={200}
      />
      {deliberate && (
        <Checkbox
          label="Сверх причитающегося"
          checked={over}
          onChange={(e) => setOver(e.currentTarget.checked)}
          mb={8}
        />
      )}
      <Button onClick={() => void run()} loading={busy}>
        {label}
      </Button>
    </Group>
  );
}

/** Staff's price per person (it follows the party): empty goes back to the price fixed at booking; a reason always. */
function PriceForm({ current, submit }: { current: number | null; submit: (body: PriceOverride) => Promise<boolean> }) {
  const [price, setPrice] = useState<number | string>(current ?? '');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const ok = await submit({ price: typeof price === 'number' ? price : null, reason: reason.trim() });
    setBusy(false);
    if (ok) setReason('');
  };
  return (
    <Group align="flex-end" gap="xs" wrap="wrap" data-testid="price-form">
      <NumberInput
        label="Цена за человека, дин."
        description="пусто: цена при записи"
        value={price}
        onChange={setPrice}
        min={0}
        allowDecimal={false}
        thousandSeparator=" "
        w={190}
      />
      <TextInput label="Причина" required value={reason} onChange={(e) => setReason(e.currentTarget.value)} w={240} />
      <Button variant="default" onClick={() => void run()} loading={busy}>
        Изменить цену
      </Button>
    </Group>
  );
}

/** A booking's money: price (and its promo discount), paid, balance, the ledger, and the forms the server's `allowed` offers. */
export function PaymentDialog({ recordId, title, onClose }: { recordId: number; title: string; onClose: () => void }) {
  const { data, mutate } = useApi(
    paymentsApi.ledger,
    { params: { id: recordId } },
    { onError: (err) => toastError(TITLES.general, err) },
  );
  const after = async (change: () => Promise<unknown>, success: string) => {
    const ok = await runChange(change, success);
    await mutate();
    return ok;
  };
  const m = data?.money;
  // Receipts are shown once the studio fiscalizes (or any receipt exists from a time it did).
  const fiscal = (data?.fiscal && data.fiscal.mode !== 'off') || (data?.receipts?.length ?? 0) > 0;
  // The delivery's own receipts (an advance closed, the sale) belong to no single ledger row.
  const deliveryReceipts = (data?.receipts ?? []).filter((r) => !data?.payments.some((p) => p.receipt?.id === r.id));
  return (
    <Modal opened onClose={onClose} title={`Оплата: ${title}`} size="xl" closeButtonProps={{ 'aria-label': 'Закрыть' }}>
      {!data || !m ? (
        <Skeleton h={200} />
      ) : (
        <Stack gap="md" data-testid="payment-dialog">
          <Group gap="lg">
            <Text>
              Цена: <b>{rsd(m.price)}</b>
              {m.price_override !== null && ` (изменена вручную: ${rsd(m.price_override)} за человека)`}
            </Text>
            {/* A promo code's discount is a part of the price, not a payment: the price above is after it. */}
            {m.price_override === null && (m.discount ?? 0) > 0 && (
              <Text data-testid="ledger-discount">
                Скидка{data.promo_code ? ` по промокоду ${data.promo_code}` : ''}: <b>−{rsd(m.discount ?? 0)}</b>
              </Text>
            )}
            <Text>
              Оплачено: <b>{rsd(m.amount_paid)}</b>
            </Text>
            <Text c={m.balance < 0 ? 'red.9' : undefined}>
              {m.balance < 0 ? 'К возврату' : 'Остаток'}: <b>{rsd(Math.abs(m.balance))}</b>
            </Text>
            <Badge variant="light" color={COLORS[m.status]}>
              {PAYMENT_STATUS_LABELS[m.status]}
            </Badge>
          </Group>
          {m.pay_by && (
            <Text size="sm" c="orange.9">
              Места держатся до {formatDateTime(m.pay_by, config.businessTimezone)}: без оплаты запись отменится.
            </Text>
          )}
          {data.fiscal?.training && (
            <Text size="sm" fw={600} c={TRAINING_COLOR} data-testid="training-note">
              {TRAINING_WARNING}
            </Text>
          )}
          {/* At phone width each ledger row is a card (its receipt included), so nothing hides sideways. */}
          <ScrollArea type="auto">
            <Table fz="sm" striped className="phone-cards" miw={fiscal ? 680 : 520} data-testid="ledger">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Когда</Table.Th>
                  <Table.Th>Операция</Table.Th>
                  <Table.Th>Способ</Table.Th>
                  <Table.Th ta="right">Сумма</Table.Th>
                  {fiscal && <Table.Th>Чек</Table.Th>}
                  <Table.Th>Комментарий</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.payments.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={fiscal ? 6 : 5}>
                      <Text size="sm" c="gray.7">
                        Оплат пока нет
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  data.payments.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td data-label="Когда">{formatDateTime(p.at, config.businessTimezone)}</Table.Td>
                      <Table.Td data-label="Операция">{PAYMENT_KIND_LABELS[p.kind]}</Table.Td>
                      <Table.Td data-label="Способ">{PAYMENT_METHOD_LABELS[p.method]}</Table.Td>
                      <Table.Td data-label="Сумма" ta="right">
                        {rsd(p.amount)}
                      </Table.Td>
                      {fiscal && (
                        <Table.Td data-label="Чек">
                          <ReceiptCell receipt={p.receipt} />
                        </Table.Td>
                      )}
                      <Table.Td data-label="Комментарий">
                        {p.note}
                        {p.provider_payment_charge_id && (
                          <Text size="xs" c="gray.7">
                            Платёж провайдера: {p.provider_payment_charge_id}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          {deliveryReceipts.length > 0 && (
            <Stack gap={4} data-testid="delivery-receipts">
              <Text size="sm" fw={600}>
                Чеки за проведённый мастер-класс
              </Text>
              <Group gap="lg" align="flex-start">
                {deliveryReceipts.map((r) => (
                  <ReceiptCell key={r.id} receipt={r} />
                ))}
              </Group>
            </Stack>
          )}
          {data.allowed.pay && m.balance > 0 && (
            <MoneyForm
              methods={data.allowed.methods}
              label="Принять оплату"
              hint={`пусто: весь остаток ${rsd(m.balance)}`}
              submit={(body) =>
                after(
                  () =>
                    call(paymentsApi.pay, {
                      params: { id: recordId },
                      body: { ...body, method: body.method as PaymentCreate['method'] },
                    }),
                  'Оплата записана',
                )
              }
            />
          )}
          {m.balance > 0 && <CertificateRedeem recordId={recordId} onDone={() => void mutate()} />}
          {data.allowed.refund && (
            <MoneyForm
              // What is owed now is the default: a new ledger shows the new amount.
              key={m.balance}
              methods={REFUND_METHODS}
              label="Вернуть"
              initial={m.balance < 0 ? -m.balance : undefined}
              deliberate
              hint={m.balance < 0 ? `${rsd(-m.balance)} к возврату` : 'клиенту ничего не причитается'}
              submit={(body) =>
                after(
                  () =>
                    call(paymentsApi.refund, {
                      params: { id: recordId },
                      body: { ...body, method: body.method as RefundCreate['method'] },
                    }),
                  'Возврат записан',
                )
              }
            />
          )}
          {data.allowed.override_price && (
            <PriceForm
              key={m.price_override ?? 'fixed'}
              current={m.price_override}
              submit={(body) =>
                after(() => call(paymentsApi.price, { params: { id: recordId }, body }), 'Цена изменена')
              }
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}
