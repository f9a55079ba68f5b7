import { Button, PasswordInput, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { UpdatePasswordFields } from '../../../contract/forms';
import { loginApi } from '../../../contract/endpoints/login';
import { usersApi } from '../../../contract/endpoints/users';
import { call, setToken } from '../api';
import { MESSAGES, TITLES, toastError, toastSuccess } from '../notify';

type PasswordValues = z.output<typeof UpdatePasswordFields>;

/** `email`: the signed-in user's, to sign in again with the new password (a change ends every earlier session). */
export function ChangePasswordForm({ email }: { email: string }) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<z.input<typeof UpdatePasswordFields>, unknown, PasswordValues>({
    mode: 'onBlur',
    resolver: zodResolver(UpdatePasswordFields),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });

  const onSubmit = async (v: PasswordValues) => {
    try {
      await call(usersApi.updatePassword, {
        body: { current_password: v.current_password, new_password: v.new_password },
      });
      // The change ended every session signed before it, this one too: this tab signs in again.
      const token = await call(loginApi.accessToken, { body: { username: email, password: v.new_password } });
      setToken(token.access_token);
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
          {...register('current_password')}
        />
        <PasswordInput
          label="Новый пароль"
          autoComplete="new-password"
          withAsterisk
          error={errors.new_password?.message}
          {...register('new_password')}
        />
        <PasswordInput
          label="Подтвердите пароль"
          autoComplete="new-password"
          withAsterisk
          error={errors.confirm_password?.message}
          {...register('confirm_password')}
        />
        <Button type="submit" loading={isSubmitting} disabled={!isDirty} w="fit-content">
          Сохранить
        </Button>
      </Stack>
    </form>
  );
}
