import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useLocation, useSearchParams } from 'wouter';
import { request } from '../api';
import { AuthCard } from '../components/AuthCard';
import { MESSAGES, TITLES, toastError, toastSuccess } from '../notify';
import { PASSWORD_MIN, en } from '../validation';

interface ResetValues {
  new_password: string;
  confirm_password: string;
}

export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues>({ mode: 'onBlur', defaultValues: { new_password: '', confirm_password: '' } });

  const onSubmit = async (values: ResetValues) => {
    try {
      await request('POST', '/reset-password/', { token, new_password: values.new_password }, { public: true });
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
          {...register('new_password', {
            required: en.passwordRequired,
            minLength: { value: PASSWORD_MIN, message: en.passwordMin },
          })}
        />
        <PasswordInput
          label="Confirm Password"
          placeholder="Confirm Password"
          autoComplete="new-password"
          error={errors.confirm_password?.message}
          {...register('confirm_password', {
            required: en.confirmRequired,
            validate: (value, values) => value === values.new_password || en.mismatch,
          })}
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
