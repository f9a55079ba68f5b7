import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';

/** Any unknown route. */
export default function NotFound() {
  return (
    <Stack align="center" justify="center" gap="xs" mih="100vh" p="xl" data-testid="not-found">
      <Title order={1} fz={{ base: 96, sm: 128 }} lh={1} c="teal.6" fw={800}>
        404
      </Title>
      <Text fz="xl" fw={700}>
        Oops!
      </Text>
      <Text c="dimmed">Page not found.</Text>
      <Button component={Link} href="/" variant="outline" mt="md">
        Go back
      </Button>
    </Stack>
  );
}
