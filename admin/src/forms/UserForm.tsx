import { Checkbox, Group, PasswordInput, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import type { UserCreate, UserPublic, UserUpdate } from '../../../contract/users';
import { api } from '../api';
import { FormModal } from '../components/FormModal';
import { MESSAGES, TITLES } from '../notify';
import { runChange } from '../mutations';
import { EMAIL_PATTERN, FULL_NAME_MAX, PASSWORD_MIN, ru } from '../validation';

interface UserValues {
  email: string;
  full_name: string;
  password: string;
  confirm_password: string;
  is_superuser: boolean;
  is_active: boolean;
}

export const ADD_USER_TITLE = 'Добавить пользователя';
export const EDIT_USER_TITLE = 'Редактирорвание данных пользователя';

/** Add (no `user`) or edit a user. Editing: the password is optional and dropped when empty. */
export function UserForm({ user, opened, onClose }: { user?: UserPublic; opened: boolean; onClose: () => void }) {
  const editing = Boolean(user);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<UserValues>({
    mode: 'onBlur',
    defaultValues: {
      email: user?.email ?? '',
      full_name: user?.full_name ?? '',
      password: '',
      confirm_password: '',
      is_superuser: user?.is_superuser ?? false,
      is_active: user?.is_active ?? false,
    },
  });

  const onSubmit = async (v: UserValues) => {
    const base = { email: v.email.trim(), full_name: v.full_name.trim() || null, is_superuser: v.is_superuser, is_active: v.is_active };
    const withPassword = { ...base, password: v.password, confirm_password: v.confirm_password };
    const ok = user
      ? await runChange(() => api.patch(`/users/${user.id}`, (v.password ? withPassword : base) satisfies UserUpdate), MESSAGES.userUpdated)
      : await runChange(() => api.post('/users/', withPassword satisfies UserCreate), MESSAGES.userCreated, TITLES.userCreate);
    if (ok) onClose();
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={editing ? EDIT_USER_TITLE : ADD_USER_TITLE}
      onSubmit={handleSubmit(onSubmit)}
      saveDisabled={editing ? !isDirty : false}
      saving={isSubmitting}
    >
      <TextInput
        label="Email"
        placeholder="Email"
        type="email"
        withAsterisk
        data-autofocus
        autoComplete="off"
        error={errors.email?.message}
        {...register('email', { required: ru.emailRequired, pattern: { value: EMAIL_PATTERN, message: ru.invalidEmail } })}
      />
      <TextInput
        label="Полное имя"
        placeholder="Полное имя"
        error={errors.full_name?.message}
        {...register('full_name', { maxLength: { value: FULL_NAME_MAX, message: ru.fullNameMax } })}
      />
      <PasswordInput
        label="Пароль"
        placeholder="Пароль"
        withAsterisk={!editing}
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password', {
          required: editing ? false : ru.passwordRequired,
          minLength: { value: PASSWORD_MIN, message: ru.passwordMin },
        })}
      />
      <PasswordInput
        label="Подтвердите пароль"
        placeholder="Пароль"
        withAsterisk={!editing}
        autoComplete="new-password"
        error={errors.confirm_password?.message}
        {...register('confirm_password', {
          validate: (value, values) => {
            if (!value) return editing && !values.password ? true : ru.confirmRequired;
            return value === values.password || ru.usersMismatch;
          },
        })}
      />
      <Group gap="xl" mt="xs">
        <Controller
          control={control}
          name="is_superuser"
          render={({ field }) => (
            <Checkbox
              label="Суперпользователь"
              color="teal"
              name={field.name}
              ref={field.ref}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              onBlur={field.onBlur}
            />
          )}
        />
        <Controller
          control={control}
          name="is_active"
          render={({ field }) => (
            <Checkbox
              label="Активный"
              color="teal"
              name={field.name}
              ref={field.ref}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              onBlur={field.onBlur}
            />
          )}
        />
      </Group>
    </FormModal>
  );
}
