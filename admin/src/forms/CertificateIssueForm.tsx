import { NumberInput, Select, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  CERTIFICATE_DESK_METHODS,
  CERTIFICATE_MONTHS,
  CertificateIssue,
  type CertificateView,
} from '../../../contract/certificates';
import { certificatesApi } from '../../../contract/endpoints/certificates';
import { fromZonedInput, toZonedInput } from '../../../contract/format';
import { PAYMENT_METHOD_LABELS } from '../../../contract/money';
import { call } from '../api';
import { FormModal } from '../components/FormModal';
import { config } from '../config';
import { runChange } from '../mutations';
import { numberValue, onNumberChange } from './numberField';

const zone = config.businessTimezone;

/** The studio's day `months` months from now, 'YYYY-MM-DD': a new certificate's default expiry. */
export function defaultExpiryDay(now: Date = new Date(), months = CERTIFICATE_MONTHS): string {
  const [year, month, day] = toZonedInput(now, zone).split(/\D/).map(Number);
  return new Date(Date.UTC(year, month - 1 + months, day)).toISOString().slice(0, 10);
}

/** A certificate is valid to the end of its last day on the studio's clock. */
const endOfDay = (day: string) => fromZonedInput(`${day} 23:59:59`, zone);

type Values = Omit<z.input<typeof CertificateIssue>, 'expires_at'> & { expires_day: string };

/** Issue a certificate sold at the studio: amount, how it was paid, buyer, recipient, greeting, expiry. */
export function CertificateIssueForm({
  onClose,
  onIssued,
}: {
  onClose: () => void;
  onIssued: (certificate: CertificateView) => void;
}) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    mode: 'onBlur',
    defaultValues: {
      amount: Number.NaN,
      method: 'cash',
      buyer_name: '',
      recipient_name: '',
      greeting: '',
      note: '',
      expires_day: defaultExpiryDay(),
    },
    // The contract's schema checks the fields; the day is checked here (it becomes an instant).
    resolver: async (values, context, options) => {
      const { expires_day, ...rest } = values;
      const result = await zodResolver(CertificateIssue)(rest, context, options as never);
      const today = defaultExpiryDay(new Date(), 0);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(expires_day) || expires_day < today)
        return {
          values: {},
          errors: {
            ...result.errors,
            expires_day: { type: 'validate', message: 'Укажите дату не раньше сегодняшней' },
          },
        };
      return Object.keys(result.errors).length ? { values: {}, errors: result.errors } : { values, errors: {} };
    },
  });

  const onSubmit = async ({ expires_day, ...values }: Values) => {
    let issued: CertificateView | null = null;
    const ok = await runChange(async () => {
      issued = await call(certificatesApi.issue, {
        body: {
          ...values,
          buyer_name: values.buyer_name?.trim() || null,
          recipient_name: values.recipient_name?.trim() || null,
          greeting: values.greeting?.trim() || null,
          note: values.note?.trim() || null,
          expires_at: endOfDay(expires_day),
        },
      });
    }, 'Сертификат выпущен');
    if (ok && issued) onIssued(issued);
    else if (!ok) setError('root', { message: 'not issued' });
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title="Новый сертификат"
      onSubmit={handleSubmit(onSubmit)}
      saving={isSubmitting}
    >
      <Controller
        control={control}
        name="amount"
        render={({ field, fieldState }) => (
          <NumberInput
            label="Номинал, RSD"
            placeholder="Например, 5 000"
            withAsterisk
            data-autofocus
            min={100}
            step={500}
            clampBehavior="none"
            allowDecimal={false}
            thousandSeparator=" "
            name={field.name}
            ref={field.ref}
            value={numberValue(field.value)}
            onBlur={field.onBlur}
            onChange={onNumberChange(field.onChange)}
            error={fieldState.error?.message}
          />
        )}
      />
      <Controller
        control={control}
        name="method"
        render={({ field, fieldState }) => (
          <Select
            label="Как оплачен"
            withAsterisk
            allowDeselect={false}
            data={CERTIFICATE_DESK_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
            value={field.value}
            onChange={(v) => field.onChange(v)}
            error={fieldState.error?.message}
          />
        )}
      />
      <TextInput
        label="Покупатель"
        placeholder="Имя или телефон"
        error={errors.buyer_name?.message}
        {...register('buyer_name')}
      />
      <TextInput
        label="Получатель"
        description="Имя на карточке сертификата"
        error={errors.recipient_name?.message}
        {...register('recipient_name')}
      />
      <Textarea
        label="Поздравление"
        autosize
        minRows={2}
        maxRows={6}
        error={errors.greeting?.message}
        {...register('greeting')}
      />
      <TextInput
        type="date"
        label="Действует до"
        description={`По умолчанию ${CERTIFICATE_MONTHS} месяцев`}
        withAsterisk
        error={errors.expires_day?.message}
        {...register('expires_day')}
      />
      <TextInput
        label="Комментарий"
        description="Виден только сотрудникам"
        error={errors.note?.message}
        {...register('note')}
      />
    </FormModal>
  );
}
