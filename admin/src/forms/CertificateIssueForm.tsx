import { Input, NumberInput, SegmentedControl, Select, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  CERTIFICATE_DESK_METHODS,
  CERTIFICATE_KINDS,
  CERTIFICATE_KIND_LABELS,
  CERTIFICATE_MONTHS,
  CERTIFICATE_PLACES_MAX,
  CertificateIssue,
  type CertificateKind,
  type CertificateView,
} from '../../../contract/certificates';
import { certificatesApi } from '../../../contract/endpoints/certificates';
import { fromZonedInput, toZonedInput } from '../../../contract/format';
import { PAYMENT_METHOD_LABELS } from '../../../contract/money';
import { call } from '../api';
import { DateField } from '../components/DateField';
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

type Values = Omit<z.input<typeof CertificateIssue>, 'expires_at'> & { expires_day: string; kind: CertificateKind };

/** What is sent for the chosen kind: an amount, or places with what was paid (the other kind's fields are dropped). */
const ofKind = ({ kind, amount, places, price_paid, ...rest }: Omit<Values, 'expires_day'>) =>
  kind === 'places' ? { ...rest, places, price_paid } : { ...rest, amount };

/**
 * Issue a certificate sold at the studio: an amount («Сумма») or places on any workshop («Места», with what
 * the buyer paid), how it was paid, buyer, recipient, greeting, expiry.
 */
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
    // Checked when a field is left, then as it is typed: a corrected field's message goes at once, so leaving
    // it does not move the fields below under the pointer (the dialog is long enough to scroll).
    mode: 'onTouched',
    defaultValues: {
      kind: 'amount',
      amount: Number.NaN,
      places: 1,
      price_paid: Number.NaN,
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
      const result = await zodResolver(CertificateIssue)(ofKind(rest), context, options as never);
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

  const kind = useWatch({ control, name: 'kind' });
  const onSubmit = async ({ expires_day, ...all }: Values) => {
    const values = ofKind(all);
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
        name="kind"
        render={({ field }) => (
          <Input.Wrapper
            labelElement="div"
            label="Сертификат на"
            description={
              field.value === 'places'
                ? 'Места на любой мастер-класс: каждое стоит цену занятия, которое выберет получатель'
                : 'Сумма в динарах: оплачивает записи до остатка'
            }
          >
            <SegmentedControl
              fullWidth
              mt={4}
              color="teal.9"
              aria-label="Сертификат на"
              data={CERTIFICATE_KINDS.map((k) => ({ value: k, label: CERTIFICATE_KIND_LABELS[k] }))}
              value={field.value}
              onChange={(v) => field.onChange(v as CertificateKind)}
            />
          </Input.Wrapper>
        )}
      />
      {kind === 'places' ? (
        <>
          <Controller
            control={control}
            name="places"
            render={({ field, fieldState }) => (
              <NumberInput
                label="Мест"
                description={`Сколько человек оплачивает сертификат, от 1 до ${CERTIFICATE_PLACES_MAX}`}
                withAsterisk
                min={1}
                max={CERTIFICATE_PLACES_MAX}
                clampBehavior="none"
                allowDecimal={false}
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
            name="price_paid"
            render={({ field, fieldState }) => (
              <NumberInput
                label="Оплачено, RSD"
                description="Сколько заплатил покупатель: это поступит в кассу"
                placeholder="Например, 7 000"
                withAsterisk
                min={1}
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
        </>
      ) : (
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
      )}
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
      <Controller
        control={control}
        name="expires_day"
        render={({ field }) => (
          <DateField
            label="Действует до"
            description={`По умолчанию ${CERTIFICATE_MONTHS} месяцев`}
            withAsterisk
            name={field.name}
            ref={field.ref}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errors.expires_day?.message}
          />
        )}
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
