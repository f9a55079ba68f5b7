import { lazy, Suspense } from 'react';
import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import '../pageStyles';
import { useCurrentUser } from '../session';

// The figures and their charts (recharts) load after the greeting, in a chunk of their own.
const DashboardStats = lazy(() => import('../components/DashboardStats'));

export default function Dashboard() {
  const { data: user, isLoading } = useCurrentUser();
  return (
    <Stack gap="lg">
      <Paper p={{ base: 'lg', sm: 'xl' }} withBorder radius="lg">
        {isLoading || !user ? (
          <Skeleton h={36} w="60%" />
        ) : (
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            Здравствуйте, {user.full_name || user.email}
          </Title>
        )}
        <Text c="gray.7" mt="sm">
          С возвращением, рады снова вас видеть!
        </Text>
      </Paper>
      <Suspense fallback={<Skeleton h={320} radius="lg" />}>
        <DashboardStats />
      </Suspense>
    </Stack>
  );
}
