import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { UpdatePassword } from '../../../contract/users';
import { api } from '../api';
import { MESSAGES, TITLES, toastError, toastSuccess } from '../notify';
import { PASSWORD_MIN, ru } from '../validation';

interface PasswordValues {
  current_password: string;
  new_password: string;
  confirm_password: string;
}

export function ChangePasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<PasswordValues>({ mode: 'onBlur', defaultValues: { current_password: '', new_password: '', confirm_password: '' } });

  const onSubmit = async (v: PasswordValues) => {
    const body: UpdatePassword = { current_password: v.current_password, new_password: v.new_password };
    try {
      await api.patch('/users/me/password', body);
      toastSuccess(MESSAGES.passwordUpdated);
      reset();
    } catch (err) {
      toastError(TITLES.en, err);
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md" maw={480}>
        <PasswordInput
          label="Текущий пароль"
          autoComplete="current-password"
          withAsterisk
          error={errors.current_password?.message}
          {...register('current_password', { required: ru.passwordRequired })}
        />
        <PasswordInput
          label="Новый пароль"
          autoComplete="new-password"
          withAsterisk
          error={errors.new_password?.message}
          {...register('new_password', {
            required: ru.passwordRequired,
            minLength: { value: PASSWORD_MIN, message: ru.passwordMin },
          })}
        />
        <PasswordInput
          label="Подтвердите пароль"
          autoComplete="new-password"
          withAsterisk
          error={errors.confirm_password?.message}
          {...register('confirm_password', {
            required: ru.confirmRequired,
            validate: (value, values) => value === values.new_password || ru.mismatch,
          })}
        />
        <Button type="submit" loading={isSubmitting} disabled={!isDirty} w="fit-content">
          Сохранить
        </Button>
      </Stack>
    </form>
  );
}
