import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';

/** What a staff role may not use, reached by a direct URL: a host's pages, or the owner's. */
export function NoAccess({ host = true }: { host?: boolean }) {
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="no-access">
      <Title order={1}>Нет доступа</Title>
      <Text c="dimmed" ta="center">
        {host
          ? 'Этот раздел недоступен для вашей роли. Ведущему доступны занятия сегодня и завтра.'
          : 'Этот раздел доступен только владельцу студии.'}
      </Text>
      <Button component={Link} href="/schedule" variant="outline" mt="md">
        К расписанию
      </Button>
    </Stack>
  );
}
