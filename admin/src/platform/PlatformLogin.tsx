import { useState, type FormEvent } from 'react';
import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useLocation } from 'wouter';
import { ApiError, messageOf } from '../api';
import { platformRequest, setPlatformToken } from './api';

/** What a failed login tells the owner, with what to do. */
function loginProblem(err: unknown): string {
  if (err instanceof ApiError && err.status === 404)
    return 'На этом сервере платформа не включена (PLATFORM=true): здесь вход только для сотрудников студии.';
  return messageOf(err);
}

/** The platform owner's login (`/platform/login`): FIRST_SUPERUSER's email and password. */
export default function PlatformLogin() {
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ email?: string; password?: string }>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing = {
      ...(!email.trim() && { email: 'Введите email' }),
      ...(!password && { password: 'Введите пароль' }),
    };
    setError(missing);
    if (missing.email || missing.password) return;
    setBusy(true);
    try {
      const { access_token } = await platformRequest<{ access_token: string }>(
        'POST',
        '/login',
        { email: email.trim(), password },
        { public: true },
      );
      setPlatformToken(access_token);
      navigate('/', { replace: true });
    } catch (err) {
      setError({ password: loginProblem(err) });
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md" bg="gray.0" component="main">
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Stack gap={4} align="center">
              <Title order={1} fz={24} ta="center">
                Платформа студий
              </Title>
              <Text c="dimmed" size="sm" ta="center">
                Вход для владельца платформы
              </Text>
            </Stack>
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={error.email}
              data-testid="platform-email"
            />
            <PasswordInput
              label="Пароль"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              visible={visible}
              onVisibilityChange={setVisible}
              visibilityToggleButtonProps={{ 'aria-label': visible ? 'Скрыть пароль' : 'Показать пароль' }}
              error={error.password}
              data-testid="platform-password"
            />
            <Button type="submit" loading={busy} fullWidth>
              Войти
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
