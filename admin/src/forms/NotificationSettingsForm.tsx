import { Button, Stack, Switch } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { Settings } from '../../../contract/settings';
import { api } from '../api';
import { MESSAGES, TITLES, refetchAll, toastError, toastSuccess } from '../notify';

type Notifications = Settings['notifications'];

export const NOTIFICATION_LABELS: Record<keyof Notifications, { label: string; description: string }> = {
  userApply: { label: 'Новая запись', description: 'Сообщение в Telegram, когда клиент записывается на мастер-класс' },
  userCancel: { label: 'Отмена записи', description: 'Сообщение в Telegram, когда клиент отменяет запись' },
  scheduled1d: { label: 'Напоминание за день', description: 'Сводка участников за день до мастер-класса' },
};

export function NotificationSettingsForm({ settings }: { settings: Settings }) {
  const {
    register,
    handleSubmit,
    formState: { isDirty, isSubmitting },
  } = useForm<Notifications>({ values: settings.notifications });

  const onSubmit = async (notifications: Notifications) => {
    try {
      await api.post('/settings/', { notifications } satisfies Settings);
      toastSuccess(MESSAGES.settingsSaved);
    } catch (err) {
      toastError(TITLES.general, err);
    } finally {
      void refetchAll();
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} aria-label="Уведомления">
      <Stack gap="lg" maw={560}>
        {(Object.keys(NOTIFICATION_LABELS) as (keyof Notifications)[]).map((key) => (
          <Switch key={key} color="teal" label={NOTIFICATION_LABELS[key].label} description={NOTIFICATION_LABELS[key].description} {...register(key)} />
        ))}
        <Button type="submit" loading={isSubmitting} disabled={!isDirty} w="fit-content">
          Сохранить
        </Button>
      </Stack>
    </form>
  );
}
