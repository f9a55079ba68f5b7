import type { ReactNode } from 'react';
import { Group, Title } from '@mantine/core';

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="center" mb="lg" wrap="nowrap" gap="sm">
      <Title order={2} fz={{ base: 24, sm: 30 }}>
        {title}
      </Title>
      {children}
    </Group>
  );
}
