import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { can } from '../../../contract/roles';
import type { Page } from '../access';

/** A page the caller's role may not use, reached by a direct URL: the owner's (no manager may), or the studio's. */
export function NoAccess({ page }: { page: Page }) {
  const ownerOnly = !can('manager', page.can);
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="no-access">
      <Title order={1}>Нет доступа</Title>
      <Text c="dimmed" ta="center">
        {ownerOnly
          ? 'Этот раздел доступен только владельцу студии.'
          : 'Этот раздел недоступен для вашей роли. Ведущему доступны занятия сегодня и завтра.'}
      </Text>
      <Button component={Link} href="/schedule" variant="outline" mt="md">
        К расписанию
      </Button>
    </Stack>
  );
}
