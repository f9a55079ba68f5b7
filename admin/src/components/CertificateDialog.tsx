import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  ScrollArea,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import {
  CERTIFICATE_DESK_METHODS,
  CERTIFICATE_ENTRY_LABELS,
  CERTIFICATE_STATUS_LABELS,
  formatPlaces,
  type CertificateStatus,
  type CertificateView,
} from '../../../contract/certificates';
import { certificatesApi } from '../../../contract/endpoints/certificates';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { PAYMENT_METHOD_LABELS } from '../../../contract/money';
import { call } from '../api';
import { config, withBase } from '../config';
import { runChange } from '../mutations';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import { ConfirmDialog } from './ConfirmDialog';

/** A status's badge colour: usable green, waiting yellow, spent grey, expired orange, voided red. */
export const CERTIFICATE_COLORS: Record<CertificateStatus, string> = {
  pending: 'yellow.9',
  active: 'teal.9',
  used: 'gray.8',
  expired: 'orange.9',
  voided: 'red.9',
};

export function CertificateStatusBadge({ status }: { status: CertificateStatus }) {
  return (
    <Badge variant="light" color={CERTIFICATE_COLORS[status]} data-testid="certificate-status">
      {CERTIFICATE_STATUS_LABELS[status]}
    </Badge>
  );
}

const when = (iso: string) => formatDateTime(iso, config.businessTimezone);

/** What a certificate holds, in its unit: RSD, or places (a places certificate's value is known only when used). */
export const leftOf = (c: Pick<CertificateView, 'kind' | 'balance'>) =>
  c.kind === 'places' ? formatPlaces(c.balance) : formatPrice(c.balance);

/** A signed change: '+2 места', '−3 000 RSD'. */
const signed = (n: number, format: (n: number) => string) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${format(Math.abs(n))}`;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="gray.7">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** Voiding: the reason, then a confirmation that says what is written off. */
function VoidForm({ certificate, onDone }: { certificate: CertificateView; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  return (
    <Stack gap="xs" data-testid="void-form">
      <Textarea
        label="Причина аннулирования"
        withAsterisk
        autosize
        minRows={2}
        value={reason}
        error={error}
        onChange={(e) => {
          setReason(e.currentTarget.value);
          setError(null);
        }}
      />
      <Group justify="flex-end">
        <Button
          color="red"
          variant="light"
          onClick={() => (reason.trim() ? setConfirming(true) : setError('Укажите причину'))}
        >
          Аннулировать…
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Аннулировать сертификат?"
        confirmLabel="Аннулировать"
        onConfirm={async () => {
          const ok = await runChange(
            () => call(certificatesApi.void, { params: { code: certificate.code }, body: { reason: reason.trim() } }),
            'Сертификат аннулирован',
          );
          if (ok) onDone();
        }}
      >
        <Text>
          Сертификат {certificate.code} перестанет действовать, остаток <b>{leftOf(certificate)}</b> будет списан.
          Отменить это нельзя.
        </Text>
        <Text size="sm" c="gray.7">
          Причина: {reason.trim()}
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}

/** A purchase request paid at the studio or by transfer: staff say how, and the buyer gets the certificate. */
function ConfirmPayment({ certificate, onDone }: { certificate: CertificateView; onDone: () => void }) {
  const [method, setMethod] = useState<string>('cash');
  const [busy, setBusy] = useState(false);
  return (
    <Group align="flex-end" gap="xs">
      <Select
        label="Оплачен"
        data={CERTIFICATE_DESK_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
        value={method}
        onChange={(v) => setMethod(v ?? 'cash')}
        allowDeselect={false}
        w={200}
      />
      <Button
        loading={busy}
        onClick={async () => {
          setBusy(true);
          const ok = await runChange(
            () =>
              call(certificatesApi.confirm, {
                params: { code: certificate.code },
                body: { method: method as (typeof CERTIFICATE_DESK_METHODS)[number] },
              }),
            'Оплата сертификата подтверждена',
          );
          setBusy(false);
          if (ok) onDone();
        }}
      >
        Подтвердить оплату
      </Button>
    </Group>
  );
}

/** One certificate: its facts, the card link, its ledger; confirming a paid request; voiding (the owner). */
export function CertificateDialog({ code, onClose }: { code: string; onClose: () => void }) {
  const { data, error, mutate } = useApi(
    certificatesApi.view,
    { params: { code } },
    { onError: (err) => toastError(TITLES.general, err) },
  );
  const [voiding, setVoiding] = useState(false);
  const c = data;
  const open = c && (c.status === 'active' || c.status === 'pending');
  const byPlaces = c?.kind === 'places';
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={
        <Text fw={700} size="lg">
          Сертификат {code}
        </Text>
      }
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
    >
      {error && !c ? (
        <Alert color="red" variant="light" title="Не удалось загрузить сертификат">
          {error instanceof Error ? error.message : String(error)}
        </Alert>
      ) : !c ? (
        <Skeleton h={260} />
      ) : (
        <Stack gap="md" data-testid="certificate-dialog">
          <Group gap="sm">
            <CertificateStatusBadge status={c.status} />
            {c.kind === 'places' && c.places !== null ? (
              <Text>
                Осталось: <b data-testid="certificate-balance">{formatPlaces(c.balance)}</b> из {c.places} на любой
                мастер-класс
              </Text>
            ) : (
              <Text>
                Остаток: <b data-testid="certificate-balance">{formatPrice(c.balance)}</b> из {formatPrice(c.amount)}
              </Text>
            )}
            <Anchor href={withBase(c.url)} target="_blank" rel="noopener" size="sm">
              Карточка сертификата
            </Anchor>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm">
            <Fact label="Получатель">{c.recipient_name ?? '—'}</Fact>
            <Fact label="Покупатель">
              {c.buyer_name ?? (c.buyer_telegram_id ? `Telegram ${c.buyer_telegram_id}` : '—')}
            </Fact>
            <Fact label="Действует до">{when(c.expires_at)}</Fact>
            <Fact label="Выпущен">{when(c.created_at)}</Fact>
            <Fact label="Оплачен">
              {c.paid_at
                ? `${when(c.paid_at)}${c.pay_method ? `, ${PAYMENT_METHOD_LABELS[c.pay_method]}` : ''}`
                : 'нет'}
            </Fact>
            {c.kind === 'places' && <Fact label="Заплатил покупатель">{formatPrice(c.amount)}</Fact>}
            {c.recipient_telegram_id && <Fact label="Получатель в Telegram">{c.recipient_telegram_id}</Fact>}
          </SimpleGrid>
          {c.greeting && (
            <Text size="sm" fs="italic" style={{ whiteSpace: 'pre-wrap' }}>
              «{c.greeting}»
            </Text>
          )}
          {c.voided_at && (
            <Alert color="red" variant="light" title={`Аннулирован ${when(c.voided_at)}`}>
              {c.void_reason}
            </Alert>
          )}
          <Text fw={600}>Движение по сертификату</Text>
          {/* Focusable, so a keyboard can scroll the table sideways on a phone. */}
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': 'Движение по сертификату' }}>
            <Table miw={560} fz="sm" striped data-testid="certificate-ledger">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Когда</Table.Th>
                  <Table.Th>Операция</Table.Th>
                  <Table.Th>Запись</Table.Th>
                  {byPlaces && <Table.Th ta="right">Места</Table.Th>}
                  <Table.Th ta="right">Сумма</Table.Th>
                  <Table.Th>Комментарий</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {c.entries.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={byPlaces ? 6 : 5}>
                      <Text size="sm" c="gray.7">
                        Операций пока нет
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  c.entries.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td>{when(e.at)}</Table.Td>
                      <Table.Td>{CERTIFICATE_ENTRY_LABELS[e.kind]}</Table.Td>
                      <Table.Td>{e.record_id === null ? '—' : `№${e.record_id}`}</Table.Td>
                      {byPlaces && (
                        <Table.Td ta="right" c={(e.places ?? 0) < 0 ? 'red.9' : undefined}>
                          {e.places ? signed(e.places, formatPlaces) : '—'}
                        </Table.Td>
                      )}
                      {/* A places certificate's places written off have no RSD value: it is known only when used. */}
                      <Table.Td ta="right" c={e.amount < 0 ? 'red.9' : undefined}>
                        {byPlaces && e.amount === 0 ? '—' : signed(e.amount, formatPrice)}
                      </Table.Td>
                      <Table.Td>{e.note}</Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          {c.allowed.confirm && <ConfirmPayment certificate={c} onDone={() => void mutate()} />}
          {open &&
            c.allowed.void &&
            (voiding ? (
              <VoidForm
                certificate={c}
                onDone={() => {
                  setVoiding(false);
                  void mutate();
                }}
              />
            ) : (
              <Group justify="flex-end">
                <Button color="red" variant="subtle" onClick={() => setVoiding(true)}>
                  Аннулировать сертификат
                </Button>
              </Group>
            ))}
        </Stack>
      )}
    </Modal>
  );
}
