import { Button, PasswordInput, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useLocation, useSearchParams } from 'wouter';
import type { z } from 'zod';
import { loginApi } from '../../../contract/endpoints/login';
import { NewPasswordFields } from '../../../contract/forms';
import { call } from '../api';
import { AuthCard } from '../components/AuthCard';
import { MESSAGES, TITLES, toastError, toastSuccess } from '../notify';

type ResetValues = z.output<typeof NewPasswordFields>;

export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof NewPasswordFields>, unknown, ResetValues>({
    mode: 'onBlur',
    resolver: zodResolver(NewPasswordFields),
    defaultValues: { new_password: '', confirm_password: '' },
  });

  const onSubmit = async (values: ResetValues) => {
    try {
      await call(loginApi.resetPassword, { body: { token, new_password: values.new_password } });
      toastSuccess(MESSAGES.passwordUpdatedEn);
      onDone();
    } catch (err) {
      toastError(TITLES.en, err);
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <PasswordInput
          label="Set Password"
          placeholder="New Password"
          autoComplete="new-password"
          error={errors.new_password?.message}
          {...register('new_password')}
        />
        <PasswordInput
          label="Confirm Password"
          placeholder="Confirm Password"
          autoComplete="new-password"
          error={errors.confirm_password?.message}
          {...register('confirm_password')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          Reset Password
        </Button>
      </Stack>
    </form>
  );
}

export default function ResetPassword() {
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  return (
    <AuthCard title="Reset Password" subtitle="Please enter your new password and confirm it to reset your password.">
      <ResetPasswordForm token={params.get('token') ?? ''} onDone={() => navigate('/login', { replace: true })} />
    </AuthCard>
  );
}
