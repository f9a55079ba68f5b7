import { Button, Stack, Switch } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Notifications, type Settings } from '../../../contract/settings';
import { settingsApi } from '../../../contract/endpoints/settings';
import { call } from '../api';
import { MESSAGES } from '../notify';
import { runChange } from '../mutations';

export const NOTIFICATION_LABELS: Record<keyof Notifications, { label: string; description: string }> = {
  userApply: { label: 'Новая запись', description: 'Сообщение в Telegram, когда клиент записывается на мастер-класс' },
  userCancel: { label: 'Отмена записи', description: 'Сообщение в Telegram, когда клиент отменяет запись' },
  scheduled1d: { label: 'Напоминание за день', description: 'Сводка участников за день до мастер-класса' },
};

/**
 * `only`: the alerts this role gets (a host: the day-before summary; alerts about bookings name sessions on
 * any date). The others are saved as they are.
 */
export function NotificationSettingsForm({
  settings,
  only,
}: {
  settings: Settings;
  only?: readonly (keyof Notifications)[];
}) {
  const {
    control,
    handleSubmit,
    formState: { isDirty, isSubmitting },
  } = useForm<Notifications>({ resolver: zodResolver(Notifications), values: settings.notifications });

  const onSubmit = async (notifications: Notifications) => {
    await runChange(() => call(settingsApi.save, { body: { notifications } }), MESSAGES.settingsSaved);
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)}>
      <Stack gap="lg" maw={560}>
        {(only ?? (Object.keys(NOTIFICATION_LABELS) as (keyof Notifications)[])).map((key) => (
          <Controller
            key={key}
            control={control}
            name={key}
            render={({ field }) => (
              <Switch
                color="teal"
                label={NOTIFICATION_LABELS[key].label}
                description={NOTIFICATION_LABELS[key].description}
                name={field.name}
                ref={field.ref}
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                onBlur={field.onBlur}
              />
            )}
          />
        ))}
        <Button type="submit" loading={isSubmitting} disabled={!isDirty} w="fit-content">
          Сохранить
        </Button>
      </Stack>
    </form>
  );
}
