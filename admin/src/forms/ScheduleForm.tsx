import '@mantine/dates/styles.css';
import { NumberInput, Select } from '@mantine/core';
import { DateTimePicker, DatesProvider } from '@mantine/dates';
import { Controller, useForm } from 'react-hook-form';
import type { AddressPublic } from '../../../contract/addresses';
import type { ScheduleCreate, SchedulePublic } from '../../../contract/schedule';
import type { WorkshopPublic } from '../../../contract/workshops';
import { api } from '../api';
import { FormModal } from '../components/FormModal';
import { config } from '../config';
import { defaultSessionInput, fromZonedInput, toZonedInput } from '../format';
import { MESSAGES } from '../notify';
import { runChange } from '../mutations';
import { ru } from '../validation';

export const DEFAULT_CAPACITY = 8;
export const ADDRESS_HINT = 'Новый адрес можно добавить в разделе Настройки – Адреса';

interface ScheduleValues {
  date: string | null;
  workshop_id: string | null;
  address_id: string | null;
  capacity: number | null;
}

export interface ScheduleFormProps {
  schedule?: SchedulePublic;
  workshops: WorkshopPublic[];
  addresses: AddressPublic[];
  opened: boolean;
  onClose: () => void;
  /** "now", for the default date (tests) */
  now?: Date;
}

/** Add (no `schedule`) or edit a session: 'Добавление мастер-класса в расписание' / 'Редактирование расписания'. */
export function ScheduleForm({ schedule, workshops, addresses, opened, onClose, now }: ScheduleFormProps) {
  const {
    control,
    handleSubmit,
    formState: { isDirty, isSubmitting },
  } = useForm<ScheduleValues>({
    mode: 'onBlur',
    defaultValues: schedule
      ? {
          date: toZonedInput(schedule.date),
          workshop_id: String(schedule.workshop_id),
          address_id: String(schedule.address_id),
          capacity: schedule.capacity,
        }
      : {
          date: defaultSessionInput(now),
          workshop_id: null,
          address_id: addresses[0] ? String(addresses[0].id) : null,
          capacity: DEFAULT_CAPACITY,
        },
  });

  const onSubmit = async (v: ScheduleValues) => {
    const body: ScheduleCreate = {
      date: fromZonedInput(v.date!),
      capacity: v.capacity ?? 0,
      workshop_id: Number(v.workshop_id),
      address_id: Number(v.address_id),
    };
    const save = () => (schedule ? api.put(`/schedule/${schedule.id}`, body) : api.post('/schedule/', body));
    if (await runChange(save, schedule ? MESSAGES.scheduleUpdated : MESSAGES.scheduleCreated)) onClose();
  };

  const workshopOptions = workshops.map((w) => ({ value: String(w.id), label: w.title }));
  const addressOptions = addresses.map((a) => ({ value: String(a.id), label: a.title }));

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={schedule ? 'Редактирование расписания' : 'Добавление мастер-класса в расписание'}
      onSubmit={handleSubmit(onSubmit)}
      saveDisabled={schedule ? !isDirty : false}
      saving={isSubmitting}
    >
      <Controller
        control={control}
        name="workshop_id"
        rules={{ required: ru.workshopRequired }}
        render={({ field, fieldState }) => (
          <Select
            label="Мастер-класс"
            placeholder="Выберите мастер-класс"
            withAsterisk
            data={workshopOptions}
            searchable
            nothingFoundMessage="Ничего не найдено"
            name={field.name}
            ref={field.ref}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <Controller
        control={control}
        name="date"
        rules={{ required: ru.dateRequired }}
        render={({ field, fieldState }) => (
          <DatesProvider settings={{ locale: 'ru', firstDayOfWeek: 1 }}>
            <DateTimePicker
              label="Дата и время"
              placeholder="Выберите дату и время"
              withAsterisk
              valueFormat="D MMMM YYYY H:mm"
              clearable
              name={field.name}
              ref={field.ref}
              value={field.value}
              onChange={(v) => field.onChange(v || null)}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
              description={`Часовой пояс: ${config.businessTimezone}`}
              popoverProps={{ withinPortal: true }}
            />
          </DatesProvider>
        )}
      />
      <Controller
        control={control}
        name="address_id"
        rules={{ required: ru.addressRequired }}
        render={({ field, fieldState }) => (
          <Select
            label="Адрес"
            placeholder="Выберите адрес"
            withAsterisk
            description={ADDRESS_HINT}
            data={addressOptions}
            name={field.name}
            ref={field.ref}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <Controller
        control={control}
        name="capacity"
        rules={{ validate: (v) => (v !== null && v >= 0) || ru.capacityMin }}
        render={({ field, fieldState }) => (
          <NumberInput
            label="Количество мест"
            min={0}
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
    </FormModal>
  );
}
