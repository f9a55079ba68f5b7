import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { EmailParam } from '../../../contract/auth';
import { loginApi } from '../../../contract/endpoints/login';
import { call } from '../api';
import { AuthCard } from '../components/AuthCard';
import { MESSAGES, TITLES, toastError, toastSuccess } from '../notify';

export function RecoverPasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<EmailParam>({ mode: 'onBlur', resolver: zodResolver(EmailParam), defaultValues: { email: '' } });

  const onSubmit = async ({ email }: EmailParam) => {
    try {
      await call(loginApi.passwordRecovery, { params: { email } });
      toastSuccess('We sent an email with a link to get back into your account.', MESSAGES.emailSent);
      reset();
    } catch (err) {
      toastError(TITLES.en, err);
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Email"
          placeholder="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          Continue
        </Button>
        <Anchor component={Link} href="/login" size="sm" ta="center">
          Log In
        </Anchor>
      </Stack>
    </form>
  );
}

export default function RecoverPassword() {
  return (
    <AuthCard title="Password Recovery" subtitle="A password recovery email will be sent to the registered account.">
      <RecoverPasswordForm />
    </AuthCard>
  );
}
