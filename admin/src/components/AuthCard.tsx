import type { ReactNode } from 'react';
import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { config } from '../config';
import { IconChefHat } from './icons';

/** The frame of the public screens (login, recovery, reset). */
export function AuthCard({ title, subtitle, children }: { title?: string; subtitle?: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={420}>
        <Stack gap="lg">
          <Group gap="xs" justify="center" wrap="nowrap">
            <IconChefHat size={32} color="var(--mantine-color-teal-6)" />
            <Text fw={700} size="xl">
              {config.businessName}
            </Text>
          </Group>
          {(title || subtitle) && (
            <Stack gap={4} align="center">
              {title && (
                <Title order={3} ta="center">
                  {title}
                </Title>
              )}
              {subtitle && (
                <Text c="dimmed" size="sm" ta="center">
                  {subtitle}
                </Text>
              )}
            </Stack>
          )}
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
