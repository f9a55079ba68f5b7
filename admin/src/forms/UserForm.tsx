import { Checkbox, NativeSelect, PasswordInput, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { UserCreateFields, UserUpdateFields } from '../../../contract/forms';
import { STAFF_ROLES, STAFF_ROLE_LABELS, type UserPublic } from '../../../contract/users';
import { usersApi } from '../../../contract/endpoints/users';
import { call } from '../api';
import { FormModal } from '../components/FormModal';
import { MESSAGES, TITLES } from '../notify';
import { runChange } from '../mutations';

type UserValues = z.output<typeof UserCreateFields>;

export const ADD_USER_TITLE = 'Добавить пользователя';
export const EDIT_USER_TITLE = 'Редактирорвание данных пользователя';
/** What each role may do, said under the select (a whole sentence does not fit in an option). */
const ROLE_SCOPE = {
  owner: 'Всё, включая пользователей и настройки бизнеса',
  manager: 'Всё, кроме пользователей и настроек бизнеса',
  host: 'Занятия сегодня и завтра, отметки и оплата',
} as const;

/** Add (no `user`) or edit a user. Editing: the password is optional and dropped when empty. */
export function UserForm({ user, opened, onClose }: { user?: UserPublic; opened: boolean; onClose: () => void }) {
  const editing = Boolean(user);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<z.input<typeof UserCreateFields>, unknown, UserValues>({
    mode: 'onBlur',
    resolver: zodResolver(editing ? UserUpdateFields : UserCreateFields),
    defaultValues: {
      email: user?.email ?? '',
      full_name: user?.full_name ?? '',
      password: '',
      confirm_password: '',
      is_superuser: user?.is_superuser ?? false,
      role: user?.role ?? (user?.is_superuser ? 'owner' : 'manager'),
      // A new colleague is added to work: active unless the owner unticks it.
      is_active: user?.is_active ?? true,
    },
  });

  const onSubmit = async ({ password, confirm_password, ...v }: UserValues) => {
    // The owner is the API's superuser: the flag follows the chosen role.
    const base = { ...v, is_superuser: v.role === 'owner', full_name: v.full_name || null };
    const withPassword = { ...base, password, confirm_password };
    const ok = user
      ? await runChange(
          () => call(usersApi.update, { params: { user_id: user.id }, body: password ? withPassword : base }),
          MESSAGES.userUpdated,
        )
      : await runChange(() => call(usersApi.create, { body: withPassword }), MESSAGES.userCreated, TITLES.userCreate);
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
        {...register('email')}
      />
      <TextInput
        label="Полное имя"
        placeholder="Полное имя"
        error={errors.full_name?.message}
        {...register('full_name')}
      />
      <PasswordInput
        label="Пароль"
        placeholder="Пароль"
        withAsterisk={!editing}
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordInput
        label="Подтвердите пароль"
        placeholder="Пароль"
        withAsterisk={!editing}
        autoComplete="new-password"
        error={errors.confirm_password?.message}
        {...register('confirm_password')}
      />
      <Controller
        control={control}
        name="role"
        render={({ field }) => (
          <NativeSelect
            label="Роль"
            description={ROLE_SCOPE[field.value ?? 'manager']}
            data={STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] }))}
            name={field.name}
            ref={field.ref}
            value={field.value ?? 'manager'}
            onChange={(e) => field.onChange(e.currentTarget.value)}
            onBlur={field.onBlur}
          />
        )}
      />
      <Controller
        control={control}
        name="is_active"
        render={({ field }) => (
          <Checkbox
            mt="xs"
            label="Активен"
            description="Отключённый пользователь не может войти"
            color="teal"
            name={field.name}
            ref={field.ref}
            checked={field.value}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
            onBlur={field.onBlur}
          />
        )}
      />
    </FormModal>
  );
}
