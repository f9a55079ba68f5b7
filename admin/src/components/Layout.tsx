import { lazy, Suspense, type ReactNode } from 'react';
import { AppShell, Burger, Button, Divider, Group, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Link, Redirect, useLocation } from 'wouter';
import { logout } from '../api';
import { config } from '../config';
import { NoAccess } from './NoAccess';
import { useCurrentUser } from '../session';
import { IconChefHat, IconLogout } from './icons';
import { DAY_PAGE, HOME, PAGES, pageAt, useCan } from '../access';

// The drawer (and the modal machinery it needs) loads only when a phone user opens the menu.
const MobileMenu = lazy(() => import('./MobileMenu'));

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

/** The staff area: a sidebar on wide screens, a drawer on small ones. */
export function Layout({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const mobile = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [location] = useLocation();
  const { known, can } = useCan();
  // A direct URL of a page the role may not use says so, instead of a page of refused requests. The
  // account kept from the last visit is known at once, so pages wait for it only on the first one.
  const page = pageAt(location);
  // Without the dashboard (a host) the start page is the day's sessions.
  if (known && page?.href === HOME && !can(page.can)) return <Redirect to={DAY_PAGE} replace />;
  const denied = !!page && !can(page.can);
  return (
    <AppShell
      header={{ height: 56, collapsed: !mobile }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: true } }}
      padding={{ base: 'md', sm: 'xl' }}
    >
      <AppShell.Header hiddenFrom="sm">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Brand />
          <Burger opened={opened} onClick={toggle} aria-label="Открыть меню" size="sm" />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="md" visibleFrom="sm">
        <AppShell.Section mb="lg" px="xs">
          <Brand />
        </AppShell.Section>
        <AppShell.Section grow>
          <Navigation />
        </AppShell.Section>
      </AppShell.Navbar>
      {mobile && opened && (
        <Suspense fallback={null}>
          <MobileMenu onClose={close} />
        </Suspense>
      )}
      <AppShell.Main bg="gray.0">
        <div style={{ maxWidth: 1100, margin: '0 auto' }}>
          {!known ? null : denied ? <NoAccess page={page} /> : children}
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
