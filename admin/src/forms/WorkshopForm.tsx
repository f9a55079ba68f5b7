import { NumberInput, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { DEFAULT_PRICE } from '../../../contract/common';
import { DEFAULT_DURATION_MINUTES, WorkshopCreate, type WorkshopPublic } from '../../../contract/workshops';
import type { z } from 'zod';
import { workshopsApi } from '../../../contract/endpoints/workshops';
import { call } from '../api';
import { FormModal } from '../components/FormModal';
import { MESSAGES } from '../notify';
import { runChange } from '../mutations';
import { numberValue, onNumberChange } from './numberField';

/** Add (no `workshop`) or edit a workshop. */
export function WorkshopForm({
  workshop,
  opened,
  onClose,
}: {
  workshop?: WorkshopPublic;
  opened: boolean;
  onClose: () => void;
}) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<z.input<typeof WorkshopCreate>, unknown, WorkshopCreate>({
    mode: 'onBlur',
    resolver: zodResolver(WorkshopCreate),
    defaultValues: {
      title: workshop?.title ?? '',
      description: workshop?.description ?? '',
      title_en: workshop?.title_en ?? '',
      description_en: workshop?.description_en ?? '',
      title_sr: workshop?.title_sr ?? '',
      description_sr: workshop?.description_sr ?? '',
      price: workshop?.price ?? DEFAULT_PRICE,
      duration_minutes: workshop?.duration_minutes ?? DEFAULT_DURATION_MINUTES,
      min_people: workshop?.min_people ?? 0,
    },
  });

  const onSubmit = async (values: WorkshopCreate) => {
    // The duration is sent when it differs from what is stored (the server's default for a new workshop).
    const { duration_minutes, ...rest } = values;
    const body = duration_minutes !== (workshop?.duration_minutes ?? DEFAULT_DURATION_MINUTES) ? values : rest;
    const save = () =>
      workshop ? call(workshopsApi.update, { params: { id: workshop.id }, body }) : call(workshopsApi.create, { body });
    if (await runChange(save, workshop ? MESSAGES.workshopUpdated : MESSAGES.workshopCreated)) onClose();
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={workshop ? 'Редактирование мастер-класса' : 'Добавление мастер-класса'}
      onSubmit={handleSubmit(onSubmit)}
      saveDisabled={!isDirty}
      saving={isSubmitting}
    >
      <TextInput
        label="Название"
        placeholder="Название"
        withAsterisk
        data-autofocus
        error={errors.title?.message}
        {...register('title')}
      />
      <Textarea
        label="Описание"
        placeholder="Описание"
        autosize
        minRows={3}
        maxRows={10}
        {...register('description')}
      />
      {/* Customers whose language is English or Serbian see these; left empty, the Russian ones. */}
      <TextInput
        label="Название на английском"
        description="Необязательно: клиенты с английским языком видят его вместо русского"
        error={errors.title_en?.message}
        {...register('title_en')}
      />
      <Textarea label="Описание на английском" autosize minRows={2} maxRows={6} {...register('description_en')} />
      <TextInput
        label="Название на сербском (латиница)"
        description="Необязательно: клиенты с сербским языком видят его вместо русского"
        error={errors.title_sr?.message}
        {...register('title_sr')}
      />
      <Textarea
        label="Описание на сербском (латиница)"
        autosize
        minRows={2}
        maxRows={6}
        {...register('description_sr')}
      />
      <Controller
        control={control}
        name="price"
        render={({ field, fieldState }) => (
          <NumberInput
            label="Цена, RSD"
            placeholder="Цена"
            min={0}
            step={100}
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
        name="duration_minutes"
        render={({ field, fieldState }) => (
          <NumberInput
            label="Длительность, минут"
            description="Для записи в календарь клиента"
            min={1}
            max={1440}
            step={15}
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
        name="min_people"
        render={({ field, fieldState }) => (
          <NumberInput
            label="Минимум участников"
            description="Если к сроку решения записалось меньше, занятие отменяется или решает персонал (Настройки → Бизнес); 0 — без минимума"
            min={0}
            max={1000}
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
    </FormModal>
  );
}
