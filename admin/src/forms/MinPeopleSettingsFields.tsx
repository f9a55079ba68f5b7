import { NumberInput, Select, Text, Title } from '@mantine/core';
import { Controller, useWatch, type Control } from 'react-hook-form';
import type { BusinessSettings } from '../../../contract/business-settings';
import { numberValue, onNumberChange } from './numberField';
import type { FormInput } from './businessSettingsSchema';

const ACTIONS = [
  { value: 'ask', label: 'Спрашивать персонал' },
  { value: 'cancel', label: 'Отменять автоматически' },
];
const DEFAULTS = [
  { value: 'cancel', label: 'Отменить мастер-класс' },
  { value: 'run', label: 'Провести мастер-класс' },
];

/** Business settings of the minimum of participants (the minimum itself is set on each workshop or session). */
export function MinPeopleSettingsFields({
  control: c,
  editable,
}: {
  control: Control<FormInput, unknown, BusinessSettings>;
  editable: boolean;
}) {
  const action = useWatch({ control: c, name: 'min_people_action' });
  const hours = (name: 'min_people_decision_hours' | 'min_people_grace_hours', label: string, description: string) => (
    <Controller
      control={c}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={label}
          description={description}
          min={1}
          clampBehavior="none"
          allowDecimal={false}
          disabled={!editable}
          name={field.name}
          ref={field.ref}
          value={numberValue(field.value)}
          onBlur={field.onBlur}
          onChange={onNumberChange(field.onChange)}
          error={fieldState.error?.message}
        />
      )}
    />
  );
  const choice = (name: 'min_people_action' | 'min_people_default', label: string, data: typeof ACTIONS) => (
    <Controller
      control={c}
      name={name}
      render={({ field, fieldState }) => (
        <Select
          label={label}
          data={data}
          allowDeselect={false}
          disabled={!editable}
          name={field.name}
          ref={field.ref}
          value={field.value}
          onBlur={field.onBlur}
          onChange={(v) => field.onChange(v)}
          error={fieldState.error?.message}
        />
      )}
    />
  );
  return (
    <>
      <Title order={3} size="h5">
        Минимум участников
      </Title>
      <Text size="sm" c="dimmed">
        Минимум задаётся у мастер-класса или у отдельного занятия. Если к сроку решения записалось меньше, занятие
        отменяется (клиентам приходит сообщение с другими датами) или владельцу и менеджерам приходит вопрос в Telegram.
      </Text>
      {hours('min_people_decision_hours', 'Срок решения, часов до начала', 'Когда проверять, набрался ли минимум')}
      {choice('min_people_action', 'Если не набрался минимум', ACTIONS)}
      {action === 'ask' && (
        <>
          {hours(
            'min_people_grace_hours',
            'Время на ответ, часов',
            'Если никто не ответил за это время (но не позже начала), выполняется действие по умолчанию',
          )}
          {choice('min_people_default', 'Без ответа', DEFAULTS)}
        </>
      )}
    </>
  );
}
