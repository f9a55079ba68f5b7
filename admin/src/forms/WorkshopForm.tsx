import { NumberInput, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import type { WorkshopCreate, WorkshopPublic } from '../../../contract/workshops';
import { api } from '../api';
import { FormModal } from '../components/FormModal';
import { MESSAGES } from '../notify';
import { runChange } from '../mutations';
import { ru } from '../validation';

export const DEFAULT_PRICE = 3500;

interface WorkshopValues {
  title: string;
  description: string;
  price: number | null;
}

/** Add (no `workshop`) or edit a workshop. */
export function WorkshopForm({ workshop, opened, onClose }: { workshop?: WorkshopPublic; opened: boolean; onClose: () => void }) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<WorkshopValues>({
    mode: 'onBlur',
    defaultValues: {
      title: workshop?.title ?? '',
      description: workshop?.description ?? '',
      price: workshop?.price ?? DEFAULT_PRICE,
    },
  });

  const onSubmit = async (values: WorkshopValues) => {
    const body: WorkshopCreate = { title: values.title.trim(), description: values.description, price: values.price ?? 0 };
    const save = () => (workshop ? api.put(`/workshops/${workshop.id}`, body) : api.post('/workshops/', body));
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
        {...register('title', { validate: (v) => v.trim().length > 0 || ru.workshopTitle })}
      />
      <Textarea label="Описание" placeholder="Описание" autosize minRows={3} maxRows={10} {...register('description')} />
      <Controller
        control={control}
        name="price"
        rules={{ validate: (v) => v === null || v >= 0 || ru.priceMin }}
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
            value={field.value ?? ''}
            onBlur={field.onBlur}
            onChange={(v) => field.onChange(v === '' ? null : Number(v))}
            error={fieldState.error?.message}
          />
        )}
      />
    </FormModal>
  );
}
