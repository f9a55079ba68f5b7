import { notifications } from '@mantine/notifications';
import { mutate } from 'swr';
import { messageOf } from './api';

/** Toast titles. */
export const TITLES = {
  general: 'Что-то пошло не так',
  workshops: 'Что-то пошло не так при получении списка мастер-классов',
  en: 'Something went wrong.',
  userCreate: 'Что-то пошло не так.',
  deleteFailed: 'При удалении возникла ошибка.',
} as const;

export const MESSAGES = {
  deleted: 'Объект успешно удален.',
  emailSent: 'Email sent.',
  passwordUpdatedEn: 'Password updated successfully.',
  passwordUpdated: 'Пароль обновлен.',
  workshopCreated: 'Мастер-класс создан.',
  workshopUpdated: 'Мастер-класс обновлен.',
  addressAdded: 'Адрес добавлен.',
  addressUpdated: 'Адрес обновлен.',
  userUpdated: 'Данные польователя обновлены',
  settingsSaved: 'Настройки сохранены.',
  scheduleCreated: 'Мастер-класс добавлен в расписание',
  scheduleUpdated: 'Расписание обновлено',
  notified: 'Нотификации отправлены',
  userCreated: 'Пользователь добавлен.',
} as const;

/** A toast's close button is named for screen readers (an icon alone says nothing). */
const closeButtonProps = { 'aria-label': 'Закрыть уведомление' };

export function toastError(title: string, err: unknown) {
  notifications.show({
    color: 'red',
    title,
    message: messageOf(err),
    withBorder: true,
    autoClose: 6000,
    closeButtonProps,
  });
}

export function toastSuccess(message: string, title?: string) {
  notifications.show({ color: 'teal', title, message, withBorder: true, autoClose: 4000, closeButtonProps });
}

/** After each change the lists are fetched again (the current user too). */
export function refetchAll() {
  return mutate(() => true);
}
