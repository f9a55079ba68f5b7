import { useState } from 'react';
import { Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { mutate } from 'swr';
import { Link, useLocation } from 'wouter';
import type { z } from 'zod';
import { loginApi } from '../../../contract/endpoints/login';
import { LoginFields } from '../../../contract/forms';
import { CURRENT_USER_KEY, call, messageOf, setToken } from '../api';
import { AuthCard } from '../components/AuthCard';

type LoginValues = z.output<typeof LoginFields>;

export function LoginForm({ onLoggedIn }: { onLoggedIn: () => void }) {
  const [visible, setVisible] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof LoginFields>, unknown, LoginValues>({
    mode: 'onBlur',
    resolver: zodResolver(LoginFields),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = async (values: LoginValues) => {
    try {
      const token = await call(loginApi.accessToken, { body: values });
      setToken(token.access_token);
      await mutate(CURRENT_USER_KEY, undefined, { revalidate: false });
      onLoggedIn();
    } catch (err) {
      // Login shows the server's detail under the password field.
      setError('password', { type: 'server', message: messageOf(err) });
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Email"
          placeholder="Email"
          type="email"
          autoComplete="username"
          error={errors.username?.message}
          {...register('username')}
        />
        <PasswordInput
          label="Password"
          placeholder="Password"
          autoComplete="current-password"
          visible={visible}
          onVisibilityChange={setVisible}
          visibilityToggleButtonProps={{ 'aria-label': visible ? 'Hide password' : 'Show password' }}
          error={errors.password?.message}
          {...register('password')}
        />
        <Anchor component={Link} href="/recover-password" size="sm" ta="right">
          Forgot password?
        </Anchor>
        <Button type="submit" loading={isSubmitting} fullWidth>
          Log In
        </Button>
      </Stack>
    </form>
  );
}

export default function Login() {
  const [, navigate] = useLocation();
  return (
    <AuthCard>
      <LoginForm onLoggedIn={() => navigate('/', { replace: true })} />
    </AuthCard>
  );
}
