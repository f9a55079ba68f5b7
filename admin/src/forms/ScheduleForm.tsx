import { useState } from 'react';
import {
  Chip,
  Group,
  List,
  NumberInput,
  Radio,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { TimePicker } from '@mantine/dates';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { AddressPublic } from '../../../contract/addresses';
import { DEFAULT_CAPACITY } from '../../../contract/common';
import { formatShortDateTime, fromZonedInput, plural, toZonedInput, type Instant } from '../../../contract/format';
import { ScheduleCreate, SERIES_MAX_MONTHS, WEEKDAY_LABELS, type ScheduleListItem } from '../../../contract/schedule';
import { seriesPlan } from '../../../contract/schedule-series';
import { staffRefusals } from '../../../contract/texts/ru/refusals';
import type { WorkshopPublic } from '../../../contract/workshops';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import { call } from '../api';
import { DateField } from '../components/DateField';
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

/** ISO weekday (1 = Monday) of a day 'YYYY-MM-DD'. */
const weekdayOf = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay() || 7;

/** «Создано 5 мастер-классов», «Создан 21 мастер-класс». */
export const seriesCreatedMessage = (n: number) =>
  `${plural(n, ['Создан', 'Создано', 'Создано'])} ${n} ${plural(n, ['мастер-класс', 'мастер-класса', 'мастер-классов'])}`;

const SERIES_PROBLEMS = {
  tooLong: staffRefusals.seriesTooLong({ months: SERIES_MAX_MONTHS }),
  untilBeforeStart: staffRefusals.seriesUntilBeforeStart,
  empty: staffRefusals.seriesEmpty,
};

/** Weekly repeat of a new session: on which weekdays, for how many weeks or until which day. */
interface Repeat {
  on: boolean;
  /** null until the owner picks: the weekday of the chosen date. */
  weekdays: string[] | null;
  end: 'weeks' | 'until';
  weeks: number | string;
  until: string;
}

export interface ScheduleFormProps {
  schedule?: ScheduleListItem;
  workshops: WorkshopPublic[];
  addresses: AddressPublic[];
  opened: boolean;
  onClose: () => void;
  /** "now", for the default date (tests) */
  now?: Date;
}

/** Add (no `schedule`) or edit a session: 'Добавление мастер-класса в расписание' / 'Редактирование расписания'. */
export function ScheduleForm({ schedule, workshops, addresses, opened, onClose, now }: ScheduleFormProps) {
  const startDate = schedule ? asZonedIso(schedule.date) : fromZonedInput(defaultSessionInput(now), zone);
  const {
    control,
    handleSubmit,
    formState: { isDirty, isSubmitting },
  } = useForm<ScheduleCreate, unknown, z.output<typeof ScheduleCreate>>({
    mode: 'onBlur',
    resolver: zodResolver(ScheduleCreate),
    defaultValues: schedule
      ? {
          date: startDate,
          workshop_id: schedule.workshop_id,
          address_id: schedule.address_id,
          capacity: schedule.capacity,
          min_people: schedule.min_people ?? null,
        }
      : {
          date: startDate,
          workshop_id: undefined,
          address_id: addresses[0]?.id,
          capacity: DEFAULT_CAPACITY,
          min_people: null,
        },
  });

  const [scope, setScope] = useState<'one' | 'following'>('one');
  const [repeat, setRepeat] = useState<Repeat>({ on: false, weekdays: null, end: 'weeks', weeks: 4, until: '' });
  // The day and the time are two fields: the session's date is both, or none while either is empty.
  const initial = toZonedInput(startDate, zone);
  const [day, setDay] = useState(initial.slice(0, 10));
  const [time, setTime] = useState(initial.slice(11, 16));
  const today = toZonedInput(now ?? new Date(), zone).slice(0, 10);
  // An existing session keeps its own day even when it has passed.
  const firstDay = schedule && initial.slice(0, 10) < today ? initial.slice(0, 10) : today;

  const weekdays = repeat.weekdays ?? (day ? [String(weekdayOf(day))] : []);
  const seriesDays = {
    start: day,
    time,
    weekdays: weekdays.map(Number),
    ...(repeat.end === 'weeks' ? { weeks: Number(repeat.weeks) || 1 } : { until: repeat.until }),
  };
  const plan =
    repeat.on && day && time && (repeat.end === 'weeks' || repeat.until) ? seriesPlan(seriesDays, zone, now) : null;

  const onSubmit = async (body: ScheduleCreate) => {
    if (schedule) {
      const update = () =>
        call(scheduleApi.update, {
          params: { id: schedule.id },
          query: { scope: scope === 'following' ? scope : null },
          body,
        });
      if (await runChange(update, MESSAGES.scheduleUpdated)) onClose();
      return;
    }
    const series = () =>
      call(scheduleApi.series, {
        body: {
          workshop_id: body.workshop_id,
          address_id: body.address_id,
          capacity: body.capacity,
          min_people: body.min_people,
          ...seriesDays,
        },
      });
    const done = repeat.on
      ? await runChange(series, (made) => seriesCreatedMessage(made.count))
      : await runChange(() => call(scheduleApi.create, { body }), MESSAGES.scheduleCreated);
    if (done) onClose();
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
        render={({ field, fieldState }) => {
          const change = (nextDay: string, nextTime: string) => {
            setDay(nextDay);
            setTime(nextTime);
            field.onChange(nextDay && nextTime ? fromZonedInput(`${nextDay} ${nextTime}:00`, zone) : '');
          };
          return (
            <Stack gap={4}>
              <Group gap="sm" align="flex-start" wrap="nowrap">
                <DateField
                  label="Дата"
                  withAsterisk
                  name={field.name}
                  ref={field.ref}
                  value={day}
                  minDate={firstDay}
                  onChange={(d) => change(d, time)}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                  style={{ flex: 1 }}
                />
                <TimePicker
                  label="Время"
                  withAsterisk
                  hoursInputLabel="Часы"
                  minutesInputLabel="Минуты"
                  // The time picker's own value: fed back exactly as it says it, it never retypes a digit.
                  value={time}
                  onChange={(t) => change(day, t)}
                  w={110}
                />
              </Group>
              <Text size="xs" c="gray.7">{`Часовой пояс: ${zone}`}</Text>
            </Stack>
          );
        }}
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
              <Chip.Group multiple value={weekdays} onChange={(v) => setRepeat({ ...repeat, weekdays: v })}>
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
                <DateField
                  label="Последний день (не дальше 6 месяцев)"
                  value={repeat.until}
                  minDate={day || today}
                  onChange={(until) => setRepeat({ ...repeat, until })}
                />
              )}
              {plan && <SeriesPreview dates={plan.dates} problem={plan.problem} weekdaysChosen={weekdays.length > 0} />}
            </>
          )}
        </Stack>
      )}
    </FormModal>
  );
}

/** The dates a series will make, listed before it is saved (or why it makes none). */
function SeriesPreview({
  dates,
  problem,
  weekdaysChosen,
}: {
  dates: string[];
  problem?: keyof typeof SERIES_PROBLEMS;
  weekdaysChosen: boolean;
}) {
  if (problem)
    return (
      <Text size="sm" c="red.8" data-testid="series-preview">
        {weekdaysChosen ? SERIES_PROBLEMS[problem] : 'Выберите дни недели'}
      </Text>
    );
  return (
    <Stack gap={4} data-testid="series-preview">
      <Text size="sm" fw={500}>
        {`Будет ${plural(dates.length, ['создан', 'создано', 'создано'])} ${dates.length} ${plural(dates.length, ['мастер-класс', 'мастер-класса', 'мастер-классов'])}:`}
      </Text>
      {/* Focusable, so a long list scrolls from the keyboard too. */}
      <ScrollArea.Autosize mah={140} type="auto" viewportProps={{ tabIndex: 0, 'aria-label': 'Даты серии' }}>
        <List size="sm" spacing={2}>
          {dates.map((d) => (
            <List.Item key={d}>
              {`${WEEKDAY_LABELS[weekdayOf(toZonedInput(d, zone).slice(0, 10)) - 1]}, ${formatShortDateTime(d, zone)}`}
            </List.Item>
          ))}
        </List>
      </ScrollArea.Autosize>
    </Stack>
  );
}
