import { Paper, Skeleton, Text, Title } from '@mantine/core';
import '../pageStyles';
import { useCurrentUser } from '../session';

export default function Dashboard() {
  const { data: user, isLoading } = useCurrentUser();
  return (
    <Paper p={{ base: 'lg', sm: 'xl' }} withBorder radius="lg">
      {isLoading || !user ? (
        <Skeleton h={36} w="60%" />
      ) : (
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          Здравствуйте, {user.full_name || user.email}
        </Title>
      )}
      <Text c="dimmed" mt="sm">
        С возвращением, рады снова вас видеть!
      </Text>
    </Paper>
  );
}
