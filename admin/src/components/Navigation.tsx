import { Button, Divider, Group, NavLink, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'wouter';
import { logout } from '../api';
import { config } from '../config';
import { PAGES } from '../access';
import { useCan, useCurrentUser } from '../session';
import { IconChefHat, IconLogout } from './icons';

/* The studio's name and the menu: the sidebar's content, and the phone drawer's. */

export function Brand() {
  return (
    <Group gap="xs" wrap="nowrap">
      <IconChefHat size={26} color="var(--mantine-color-teal-6)" />
      <Text fw={700} size="md" lh={1.25} lineClamp={2}>
        {config.businessName}
      </Text>
    </Group>
  );
}

export function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const [location] = useLocation();
  const { data: user } = useCurrentUser();
  const { can } = useCan();
  const items = PAGES.filter((p) => can(p.can));
  return (
    <Stack gap={0} h="100%">
      <div style={{ flex: 1, overflowY: 'auto' }}>
        <nav aria-label="Главное меню">
          {items.map(({ href, label, icon: Icon }) => (
            <NavLink
              key={href}
              component={Link}
              href={href}
              label={label}
              leftSection={<Icon />}
              active={location === href}
              onClick={onNavigate}
              variant="light"
              color="teal.9"
              styles={{
                root: { borderRadius: 'var(--mantine-radius-md)' },
                label: { fontSize: 'var(--mantine-font-size-md)' },
              }}
              mb={4}
            />
          ))}
        </nav>
      </div>
      <Divider my="sm" />
      <Stack gap="xs">
        <Button
          variant="subtle"
          color="gray"
          justify="flex-start"
          leftSection={<IconLogout />}
          onClick={() => {
            onNavigate?.();
            logout();
          }}
        >
          Выйти
        </Button>
        {user && (
          <Text size="sm" c="gray.7" px="xs" style={{ overflowWrap: 'anywhere' }} data-testid="logged-in-as">
            Logged in as: {user.email}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
