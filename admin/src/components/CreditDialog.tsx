import { useState } from 'react';
import { NumberInput, TextInput } from '@mantine/core';
import { paymentsApi } from '../../../contract/endpoints/payments';
import { formatPrice } from '../../../contract/format';
import { call } from '../api';
import { runChange } from '../mutations';
import { FormModal } from './FormModal';

/** «Баланс клиента» (the owner's): add to or take from a Telegram customer's studio credit, always with a reason. */
export function CreditDialog({
  customer,
  onClose,
}: {
  customer: { telegram_id: number; name: string };
  onClose: () => void;
}) {
  const [amount, setAmount] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const found = {
      ...(typeof amount !== 'number' || amount === 0
        ? { amount: 'Укажите сумму: со знаком минус, чтобы списать' }
        : {}),
      ...(!reason.trim() ? { reason: 'Укажите причину' } : {}),
    };
    setErrors(found);
    if (found.amount || found.reason) return;
    setSaving(true);
    const ok = await runChange(
      () =>
        call(paymentsApi.adjustCredit, {
          params: { telegram_id: customer.telegram_id },
          body: { amount: amount as number, reason: reason.trim() },
        }),
      (credit) => `Баланс клиента в студии: ${formatPrice(credit.balance)}`,
      'Не удалось изменить баланс',
    );
    setSaving(false);
    if (ok) onClose();
  };
  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Баланс в студии: ${customer.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      saving={saving}
    >
      <NumberInput
        label="Сумма, дин."
        description="плюс — начислить, минус — списать"
        allowDecimal={false}
        thousandSeparator=" "
        value={amount}
        onChange={setAmount}
        error={errors.amount}
        data-autofocus
      />
      <TextInput
        label="Причина"
        required
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        error={errors.reason}
      />
    </FormModal>
  );
}
