import { Checkbox, Group, MultiSelect, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  PROMO_KIND_LABELS,
  PromoCodeCreate,
  type PromoCodePublic,
  type PromoKind,
} from '../../../contract/promo-codes';
import { promoCodesApi } from '../../../contract/endpoints/promo-codes';
import { workshopsApi } from '../../../contract/endpoints/workshops';
import { call } from '../api';
import { FormModal } from '../components/FormModal';
import { DateField } from '../components/DateField';
import { runChange } from '../mutations';
import { useApi } from '../query';
import { numberValue, onNumberChange } from './numberField';

type Values = z.input<typeof PromoCodeCreate>;

/** Add (no `promo`) or edit a promo code. */
export function PromoCodeForm({
  promo,
  opened,
  onClose,
}: {
  promo?: PromoCodePublic;
  opened: boolean;
  onClose: () => void;
}) {
  const { data: workshops } = useApi(workshopsApi.list, { query: { skip: 0, limit: 1000 } });
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<Values, unknown, PromoCodeCreate>({
    mode: 'onBlur',
    resolver: zodResolver(PromoCodeCreate),
    defaultValues: {
      code: promo?.code ?? '',
      kind: promo?.kind ?? 'percent',
      value: promo?.value ?? 10,
      valid_from: promo?.valid_from ?? null,
      valid_to: promo?.valid_to ?? null,
      workshop_ids: promo?.workshop_ids ?? [],
      max_uses: promo?.max_uses ?? null,
      once_per_customer: promo?.once_per_customer ?? true,
      first_time_only: promo?.first_time_only ?? false,
      is_active: promo?.is_active ?? true,
    },
  });
  const kind = useWatch({ control, name: 'kind' });

  const onSubmit = async (body: PromoCodeCreate) => {
    const save = () =>
      promo ? call(promoCodesApi.update, { params: { id: promo.id }, body }) : call(promoCodesApi.create, { body });
    if (await runChange(save, promo ? 'Промокод сохранён.' : 'Промокод создан.')) onClose();
  };
  const day = (v: string | null | undefined) => v ?? '';

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={promo ? 'Редактирование промокода' : 'Новый промокод'}
      onSubmit={handleSubmit(onSubmit)}
      saveDisabled={!isDirty}
      saving={isSubmitting}
    >
      <TextInput
        label="Код"
        description="Клиент вводит его при записи; регистр не важен"
        placeholder="VESNA-2026"
        withAsterisk
        data-autofocus
        error={errors.code?.message}
        {...register('code')}
      />
      <Controller
        control={control}
        name="kind"
        render={({ field }) => (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="promo-kind-label">
              Скидка
            </Text>
            <SegmentedControl
              aria-labelledby="promo-kind-label"
              value={field.value}
              onChange={(v) => field.onChange(v as PromoKind)}
              data={(['percent', 'fixed'] as const).map((k) => ({ value: k, label: PROMO_KIND_LABELS[k] }))}
            />
          </Stack>
        )}
      />
      <Controller
        control={control}
        name="value"
        render={({ field, fieldState }) => (
          <NumberInput
            label={kind === 'percent' ? 'Процент скидки' : 'Сумма скидки, RSD'}
            withAsterisk
            min={1}
            max={kind === 'percent' ? 100 : undefined}
            step={kind === 'percent' ? 5 : 100}
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
      <Group grow align="flex-start">
        <Controller
          control={control}
          name="valid_from"
          render={({ field, fieldState }) => (
            <DateField
              label="Действует с"
              value={day(field.value)}
              onChange={(v) => field.onChange(v || null)}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="valid_to"
          render={({ field, fieldState }) => (
            <DateField
              label="по (включительно)"
              value={day(field.value)}
              onChange={(v) => field.onChange(v || null)}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
      </Group>
      <Controller
        control={control}
        name="workshop_ids"
        render={({ field, fieldState }) => (
          <MultiSelect
            label="Мастер-классы"
            description="Пусто — на все мастер-классы"
            placeholder={(field.value ?? []).length === 0 ? 'Все мастер-классы' : undefined}
            searchable
            clearable
            data={(workshops?.data ?? []).map((w) => ({ value: String(w.id), label: w.title }))}
            value={(field.value ?? []).map(String)}
            onChange={(ids) => field.onChange(ids.map(Number))}
            error={fieldState.error?.message}
          />
        )}
      />
      <Controller
        control={control}
        name="max_uses"
        render={({ field, fieldState }) => (
          <NumberInput
            label="Сколько раз можно использовать"
            description="Пусто — без ограничения; отменённая запись возвращает использование"
            min={1}
            clampBehavior="none"
            allowDecimal={false}
            name={field.name}
            ref={field.ref}
            value={field.value ?? ''}
            onBlur={field.onBlur}
            onChange={(v) => field.onChange(v === '' ? null : Number(v))}
            error={fieldState.error?.message}
          />
        )}
      />
      <Checkbox label="Один раз на клиента" {...register('once_per_customer')} />
      <Checkbox label="Только для тех, кто записывается впервые" {...register('first_time_only')} />
      <Checkbox label="Действует (снимите, чтобы выключить)" {...register('is_active')} />
    </FormModal>
  );
}
