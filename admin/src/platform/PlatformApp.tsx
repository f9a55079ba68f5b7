import { lazy, Suspense, useEffect, type CSSProperties } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { useSWRConfig } from 'swr';
import { PageLoader } from '../components/PageLoader';
import { isPlatformLoggedIn, setPlatformLogoutHandler } from './api';
import { PLATFORM_KEY_PREFIX } from './keys';

const PlatformLogin = lazy(() => import('./PlatformLogin'));
const PlatformStudios = lazy(() => import('./PlatformStudios'));

/** Field errors (and an input in error) in red 9: Mantine's red 6 on white is 3.3:1, below AA's 4.5:1. */
const ERROR_COLOR = { '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties;

/**
 * The platform owner's section, nested under `/platform` (App.tsx): `/platform/login` and the studios at
 * `/platform`. Nothing of a studio's staff session is used here, nor the other way round.
 */
export default function PlatformApp() {
  const { cache, mutate } = useSWRConfig();
  useEffect(() => {
    setPlatformLogoutHandler(() => {
      for (const key of Array.from((cache as Map<string, unknown>).keys()))
        if (key.startsWith(PLATFORM_KEY_PREFIX)) cache.delete(key);
      void mutate((key) => typeof key === 'string' && key.startsWith(PLATFORM_KEY_PREFIX), undefined, {
        revalidate: false,
      });
    });
    return () => setPlatformLogoutHandler(null);
  }, [cache, mutate]);

  return (
    <div style={ERROR_COLOR}>
      <Suspense fallback={<PageLoader h="100vh" />}>
        <Switch>
          <Route path="/login">{isPlatformLoggedIn() ? <Redirect to="/" replace /> : <PlatformLogin />}</Route>
          <Route path="/">{isPlatformLoggedIn() ? <PlatformStudios /> : <Redirect to="/login" replace />}</Route>
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </Suspense>
    </div>
  );
}
