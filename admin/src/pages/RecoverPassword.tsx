import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { request } from '../api';
import { AuthCard } from '../components/AuthCard';
import { MESSAGES, TITLES, toastError, toastSuccess } from '../notify';
import { EMAIL_PATTERN, en } from '../validation';

interface RecoverValues {
  email: string;
}

export function RecoverPasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<RecoverValues>({ mode: 'onBlur', defaultValues: { email: '' } });

  const onSubmit = async ({ email }: RecoverValues) => {
    try {
      await request('POST', `/password-recovery/${encodeURIComponent(email.trim())}`, undefined, { public: true });
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
          {...register('email', {
            required: en.emailRequired,
            pattern: { value: EMAIL_PATTERN, message: en.invalidEmail },
          })}
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
