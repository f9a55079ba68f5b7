import { Button, NumberInput, Select, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { BusinessSettings, type TelegramBusinessStatus } from '../../../contract/business-settings';
import { businessSettingsApi } from '../../../contract/endpoints/business-settings';
import { PREPAYMENT_LABELS, PREPAYMENTS, REFUND_TO, REFUND_TO_LABELS } from '../../../contract/money';
import { call } from '../api';
import { MESSAGES } from '../notify';
import { runChange } from '../mutations';
import { numberValue, onNumberChange } from './numberField';
import { MinPeopleSettingsFields } from './MinPeopleSettingsFields';
import { FormSchema, type FormInput } from './businessSettingsSchema';

const NUMBER_FIELDS = [
  {
    name: 'change_deadline_hours',
    label: 'Срок изменений, часов до начала',
    description:
      'Ближе к началу клиент не может отменить, восстановить запись или изменить количество человек; 0 — до начала',
    min: 0,
  },
  {
    name: 'retention_days',
    label: 'Хранение данных клиентов, дней',
    description: 'Через этот срок после мастер-класса данные записи обезличиваются',
    min: 30,
  },
  {
    name: 'allergy_retention_days',
    label: 'Хранение сведений об аллергии, дней',
    description: 'Через этот срок после мастер-класса сведения об аллергии удаляются',
    min: 1,
  },
  {
    name: 'deposit_percent',
    label: 'Депозит, % от цены',
    description: 'Сколько оплатить при записи, когда выбран депозит',
    min: 1,
  },
  {
    name: 'payment_hold_minutes',
    label: 'Время на оплату, минут',
    description: 'Столько места держатся за неоплаченной записью (не дольше начала), затем запись отменяется',
    min: 5,
  },
] as const;

/** The line about the studio's Telegram account (Telegram Business). */
const telegramBusinessLine = (s: TelegramBusinessStatus | undefined) =>
  !s
    ? 'Проверяем подключение…'
    : !s.connected
      ? 'Бот не подключён к аккаунту студии. Подключить: Telegram → Настройки → Telegram Business → Чат-боты, из аккаунта владельца или менеджера, привязанного к боту.'
      : `Бот подключён к аккаунту студии${s.account ? ` (${s.account})` : ''}` +
        (s.can_reply
          ? ' и может отвечать клиентам.'
          : ', но без права отвечать: разрешите ему отвечать в Telegram Business.');

/** The money choices: how customers pay and where a cancelled booking's money goes. */
const SELECT_FIELDS = [
  {
    name: 'prepayment',
    label: 'Оплата',
    description: 'На месте — как раньше; с депозитом или полной предоплатой места держатся до оплаты',
    data: PREPAYMENTS.map((v) => ({ value: v, label: PREPAYMENT_LABELS[v] })),
  },
  {
    name: 'refund_to',
    label: 'Деньги при отмене',
    description: 'Оплаченное по отменённой записи зачисляется на баланс клиента в студии или возвращается сотрудником',
    data: REFUND_TO.map((v) => ({ value: v, label: REFUND_TO_LABELS[v] })),
  },
] as const;

/** The message of a field's error, or of the first of its items' (a list field reports per item). */
function firstMessage(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  if ('message' in err && typeof err.message === 'string' && err.message) return err.message;
  for (const item of Object.values(err)) {
    const m = firstMessage(item);
    if (m) return m;
  }
  return undefined;
}

/** The studio's settings: everyone on the staff sees them, a superuser changes them. */
export function BusinessSettingsForm({
  settings,
  editable,
  telegramBusiness,
}: {
  settings: BusinessSettings;
  editable: boolean;
  telegramBusiness?: TelegramBusinessStatus;
}) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<FormInput, unknown, BusinessSettings>({
    mode: 'onBlur',
    resolver: zodResolver(FormSchema),
    values: {
      ...settings,
      reminder_hours: settings.reminder_hours.join(', '),
      certificate_amounts: settings.certificate_amounts.join(', '),
    },
  });

  const onSubmit = async (body: BusinessSettings) => {
    await runChange(() => call(businessSettingsApi.update, { body }), MESSAGES.settingsSaved);
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)}>
      <Stack gap="lg" maw={560}>
        <TextInput
          label="Напоминания клиентам, за сколько часов"
          description="Через запятую, например: 24, 3. Последнее напоминание дополняется точкой на карте"
          disabled={!editable}
          error={firstMessage(errors.reminder_hours)}
          {...register('reminder_hours')}
        />
        {NUMBER_FIELDS.map((f) => (
          <Controller
            key={f.name}
            control={control}
            name={f.name}
            render={({ field, fieldState }) => (
              <NumberInput
                label={f.label}
                description={f.description}
                min={f.min}
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
        ))}
        <Title order={3} size="h5">
          Оплата
        </Title>
        {SELECT_FIELDS.map((f) => (
          <Controller
            key={f.name}
            control={control}
            name={f.name}
            render={({ field, fieldState }) => (
              <Select
                label={f.label}
                description={f.description}
                data={[...f.data]}
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
        ))}
        <TextInput
          label="Счёт студии для перевода по QR-коду (IPS)"
          description="18 цифр, например 160-0000000000051-20; пусто — переводы не принимаются"
          disabled={!editable}
          error={errors.bank_account?.message}
          {...register('bank_account')}
        />
        <TextInput
          label="Получатель перевода"
          description="Название и город, как в платёжке, например: Кулинарная студия, Београд"
          disabled={!editable}
          error={errors.bank_recipient?.message}
          {...register('bank_recipient')}
        />
        <TextInput
          label="Суммы подарочных сертификатов, RSD"
          description="Через запятую, например: 3500, 5000, 7000; из них клиент выбирает в мини-приложении"
          disabled={!editable}
          error={firstMessage(errors.certificate_amounts)}
          {...register('certificate_amounts')}
        />
        <TextInput
          label="Контакты студии"
          description="Показываются клиенту, когда изменить запись уже нельзя, например: @studio или +381 60 123 4567"
          disabled={!editable}
          error={errors.contact?.message}
          {...register('contact')}
        />
        <Textarea
          label="Текст о персональных данных"
          description="Открывается из мини-приложения по ссылке рядом с согласием"
          autosize
          minRows={4}
          maxRows={12}
          disabled={!editable}
          error={errors.privacy_text?.message}
          {...register('privacy_text')}
        />
        <MinPeopleSettingsFields control={control} editable={editable} />
        <Title order={3} size="h5">
          Аккаунт студии в Telegram
        </Title>
        <Text size="sm" data-testid="telegram-business-status">
          {telegramBusinessLine(telegramBusiness)}
        </Text>
        <Controller
          control={control}
          name="business_auto_reply"
          render={({ field }) => (
            <Switch
              label="Бот отвечает клиентам в аккаунте студии"
              description="Когда сотрудники давно не писали в этом чате: ближайшие мастер-классы со свободными местами и кнопка записи"
              disabled={!editable}
              name={field.name}
              ref={field.ref}
              checked={field.value}
              onBlur={field.onBlur}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
            />
          )}
        />
        <Controller
          control={control}
          name="business_reply_hours"
          render={({ field, fieldState }) => (
            <NumberInput
              label="Автоответ в одном чате не чаще, чем раз в столько часов"
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
        {editable && (
          <Button type="submit" loading={isSubmitting} disabled={!isDirty} w="fit-content">
            Сохранить
          </Button>
        )}
      </Stack>
    </form>
  );
}
