import { lazy, Suspense, type ReactNode } from 'react';
import { AppShell, Burger, Button, Divider, Group, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Link, Redirect, useLocation } from 'wouter';
import { logout } from '../api';
import { config } from '../config';
import { NoAccess } from './NoAccess';
import { useCurrentUser } from '../session';
import {
  IconCalendar,
  IconCash,
  IconChefHat,
  IconDiscount,
  IconGift,
  IconHistory,
  IconHome,
  IconListDetails,
  IconLogout,
  IconSettings,
  IconUserHeart,
  IconUsers,
} from './icons';

const ITEMS = [
  { href: '/', label: 'Главная', icon: IconHome },
  { href: '/schedule', label: 'Расписание', icon: IconCalendar },
  { href: '/past', label: 'История', icon: IconHistory },
  { href: '/workshops', label: 'Мастер-классы', icon: IconChefHat },
  { href: '/customers', label: 'Клиенты', icon: IconUserHeart },
  { href: '/cash', label: 'Касса', icon: IconCash },
  { href: '/certificates', label: 'Сертификаты', icon: IconGift },
  { href: '/settings', label: 'Настройки', icon: IconSettings },
];
/** The pages a host (the staff role at the door) may use: the day's sessions, a week of History, own settings. */
const HOST_PAGES = new Set(['/schedule', '/past', '/settings']);
/** The owner's pages (Пользователи, Промокоды, Журнал): «Нет доступа» to anyone else by a direct URL. */
const OWNER_PAGES = new Set(['/admin', '/promo-codes', '/audit']);
// The drawer (and the modal machinery it needs) loads only when a phone user opens the menu.
const MobileMenu = lazy(() => import('./MobileMenu'));

const ADMIN_ITEMS = [
  { href: '/admin', label: 'Пользователи', icon: IconUsers },
  { href: '/promo-codes', label: 'Промокоды', icon: IconDiscount },
  { href: '/audit', label: 'Журнал', icon: IconListDetails },
];

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
  const items = user?.is_superuser
    ? [...ITEMS, ...ADMIN_ITEMS]
    : user?.role === 'host'
      ? ITEMS.filter((i) => HOST_PAGES.has(i.href))
      : ITEMS;
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
  const { data: user } = useCurrentUser();
  // A direct URL of a page the role may not use says so, instead of a page of refused requests. The
  // account kept from the last visit is known at once, so pages wait for it only on the first one.
  const page = location.replace(/\/$/, '') || '/';
  const host = user?.role === 'host';
  // A host's start page is the day's sessions (the dashboard shows revenue).
  if (host && page === '/') return <Redirect to="/schedule" replace />;
  const denied = host ? !HOST_PAGES.has(page) : !!user && !user.is_superuser && OWNER_PAGES.has(page);
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
          {!user ? null : denied ? <NoAccess host={host} /> : children}
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
