import { lazy, Suspense, type ReactNode } from 'react';
import { AppShell, Burger, Group } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Redirect, useLocation } from 'wouter';
import { NoAccess } from './NoAccess';
import { FiscalBanner } from './FiscalBanner';
import { Brand, Navigation } from './Navigation';
import { useCan } from '../session';
import { DAY_PAGE, HOME, pageAt } from '../access';

// The drawer (and the modal machinery it needs) loads only when a phone user opens the menu.
const MobileMenu = lazy(() => import('./MobileMenu'));

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
          {known && <FiscalBanner />}
          {!known ? null : denied ? <NoAccess page={page} /> : children}
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
