import { Paper, Text } from '@mantine/core';

export function EmptyState({ text }: { text: string }) {
  return (
    <Paper withBorder radius="md" p="xl" bg="white" data-testid="empty-state">
      <Text c="dimmed" ta="center">
        {text}
      </Text>
    </Paper>
  );
}
