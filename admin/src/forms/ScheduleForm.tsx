import '@mantine/dates/styles.css';
// The picker formats its value with dayjs: Russian month names.
import 'dayjs/locale/ru';
import { useState } from 'react';
import {
  Chip,
  Group,
  NumberInput,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { DateTimePicker, DatesProvider } from '@mantine/dates';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { AddressPublic } from '../../../contract/addresses';
import { DEFAULT_CAPACITY } from '../../../contract/common';
import { fromZonedInput, toZonedInput, type Instant } from '../../../contract/format';
import { ScheduleCreate, WEEKDAY_LABELS, type SchedulePublic } from '../../../contract/schedule';
import type { WorkshopPublic } from '../../../contract/workshops';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import { call } from '../api';
import { FormModal } from '../components/FormModal';
import { config } from '../config';
import { MESSAGES } from '../notify';
import { runChange } from '../mutations';
import { numberValue, onNumberChange } from './numberField';

export const ADDRESS_HINT = 'Новый адрес можно добавить в разделе Настройки – Адреса';

const zone = config.businessTimezone;

/** A new session defaults to tomorrow at 12:00 in the business zone: the picker's 'YYYY-MM-DD HH:mm:ss'. */
export function defaultSessionInput(now: Instant = new Date(), timeZone = zone): string {
  const [year, month, day] = toZonedInput(now, timeZone).split(/\D/).map(Number);
  return `${new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10)} 12:00:00`;
}

// The form holds the API's values: the date as ISO with the zone's offset, ids as numbers.
const asZonedIso = (iso: string) => fromZonedInput(toZonedInput(iso, zone), zone);
const optionValue = (id: number | undefined) => (id === undefined ? null : String(id));
const optionId = (value: string | null) => (value === null ? undefined : Number(value));

/** Which sessions of a series an edit or a deletion covers. */
export const SCOPE_OPTIONS = [
  { value: 'one', label: 'Только это' },
  { value: 'following', label: 'Это и следующие' },
];

/** ISO weekday (1 = Monday) of a session input on the studio's clock. */
const weekdayOf = (iso: string) => new Date(`${toZonedInput(iso, zone).slice(0, 10)}T12:00:00Z`).getUTCDay() || 7;

/** Weekly repeat of a new session: on which weekdays, for how many weeks or until which day. */
interface Repeat {
  on: boolean;
  weekdays: string[];
  end: 'weeks' | 'until';
  weeks: number | string;
  until: string;
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
  } = useForm<ScheduleCreate, unknown, z.output<typeof ScheduleCreate>>({
    mode: 'onBlur',
    resolver: zodResolver(ScheduleCreate),
    defaultValues: schedule
      ? {
          date: asZonedIso(schedule.date),
          workshop_id: schedule.workshop_id,
          address_id: schedule.address_id,
          capacity: schedule.capacity,
          min_people: schedule.min_people ?? null,
        }
      : {
          date: fromZonedInput(defaultSessionInput(now), zone),
          workshop_id: undefined,
          address_id: addresses[0]?.id,
          capacity: DEFAULT_CAPACITY,
          min_people: null,
        },
  });

  const [scope, setScope] = useState<'one' | 'following'>('one');
  const [repeat, setRepeat] = useState<Repeat>({ on: false, weekdays: [], end: 'weeks', weeks: 4, until: '' });

  const onSubmit = async (body: ScheduleCreate) => {
    const local = toZonedInput(body.date, zone);
    const series = () =>
      call(scheduleApi.series, {
        body: {
          workshop_id: body.workshop_id,
          address_id: body.address_id,
          capacity: body.capacity,
          min_people: body.min_people,
          start: local.slice(0, 10),
          time: local.slice(11, 16),
          weekdays: (repeat.weekdays.length ? repeat.weekdays : [String(weekdayOf(body.date))]).map(Number),
          ...(repeat.end === 'weeks' ? { weeks: Number(repeat.weeks) } : { until: repeat.until }),
        },
      });
    const save = () =>
      schedule
        ? call(scheduleApi.update, {
            params: { id: schedule.id },
            query: { scope: scope === 'following' ? scope : null },
            body,
          })
        : repeat.on
          ? series()
          : call(scheduleApi.create, { body });
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
      saveDisabled={schedule ? !isDirty && scope === 'one' : false}
      saving={isSubmitting}
    >
      <Controller
        control={control}
        name="workshop_id"
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
            value={optionValue(field.value)}
            onChange={(v) => field.onChange(optionId(v))}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <Controller
        control={control}
        name="date"
        render={({ field, fieldState }) => (
          <DatesProvider settings={{ locale: 'ru', firstDayOfWeek: 1 }}>
            <DateTimePicker
              label="Дата и время"
              placeholder="Выберите дату и время"
              withAsterisk
              valueFormat="D MMMM YYYY H:mm"
              clearable
              clearButtonProps={{ 'aria-label': 'Очистить дату' }}
              name={field.name}
              ref={field.ref}
              value={field.value ? toZonedInput(field.value, zone) : null}
              onChange={(v) => field.onChange(v ? fromZonedInput(v, zone) : '')}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
              description={`Часовой пояс: ${zone}`}
              popoverProps={{ withinPortal: true }}
            />
          </DatesProvider>
        )}
      />
      <Controller
        control={control}
        name="address_id"
        render={({ field, fieldState }) => (
          <Select
            label="Адрес"
            placeholder="Выберите адрес"
            withAsterisk
            description={ADDRESS_HINT}
            data={addressOptions}
            name={field.name}
            ref={field.ref}
            value={optionValue(field.value)}
            onChange={(v) => field.onChange(optionId(v))}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <Controller
        control={control}
        name="capacity"
        render={({ field, fieldState }) => (
          <NumberInput
            label="Количество мест"
            min={0}
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
            description="Пусто — как у мастер-класса; 0 — без минимума"
            min={0}
            max={1000}
            clampBehavior="none"
            allowDecimal={false}
            name={field.name}
            ref={field.ref}
            value={field.value ?? ''}
            onBlur={field.onBlur}
            // Empty: the workshop's minimum applies.
            onChange={(v) => field.onChange(v === '' ? null : Number(v))}
            error={fieldState.error?.message}
          />
        )}
      />
      {schedule?.series_id != null && (
        <Stack gap={4}>
          <Text size="sm" fw={500} id="scope-label">
            Изменить
          </Text>
          <SegmentedControl
            aria-labelledby="scope-label"
            data={SCOPE_OPTIONS}
            value={scope}
            onChange={(v) => setScope(v as 'one' | 'following')}
          />
        </Stack>
      )}
      {!schedule && (
        <Stack gap="xs" data-testid="repeat">
          <Switch
            label="Повторять каждую неделю"
            checked={repeat.on}
            onChange={(e) => setRepeat({ ...repeat, on: e.currentTarget.checked })}
          />
          {repeat.on && (
            <>
              <Text size="sm" id="weekdays-label">
                Дни недели (по умолчанию — день выбранной даты)
              </Text>
              <Chip.Group multiple value={repeat.weekdays} onChange={(v) => setRepeat({ ...repeat, weekdays: v })}>
                <Group gap={6} role="group" aria-labelledby="weekdays-label">
                  {WEEKDAY_LABELS.map((label, i) => (
                    <Chip key={label} value={String(i + 1)} size="sm" color="teal.9">
                      {label}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
              <Radio.Group
                label="Сколько"
                value={repeat.end}
                onChange={(v) => setRepeat({ ...repeat, end: v as Repeat['end'] })}
              >
                <Group gap="md" mt={4}>
                  <Radio value="weeks" label="Число недель" />
                  <Radio value="until" label="До даты" />
                </Group>
              </Radio.Group>
              {repeat.end === 'weeks' ? (
                <NumberInput
                  label="Недель (до 26)"
                  min={1}
                  max={26}
                  allowDecimal={false}
                  value={repeat.weeks}
                  onChange={(v) => setRepeat({ ...repeat, weeks: v })}
                />
              ) : (
                <TextInput
                  type="date"
                  label="Последний день (не дальше 6 месяцев)"
                  value={repeat.until}
                  onChange={(e) => setRepeat({ ...repeat, until: e.currentTarget.value })}
                />
              )}
            </>
          )}
        </Stack>
      )}
    </FormModal>
  );
}
