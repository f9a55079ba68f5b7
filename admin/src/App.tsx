import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { useSWRConfig } from 'swr';
import { isLoggedIn, setLogoutHandler } from './api';
import { config } from './config';
import { ErrorBoundary } from './components/ErrorBoundary';
import { PageLoader } from './components/PageLoader';
import { HOME, PAGES } from './access';

// The staff shell (navigation, app bar) is not part of the first load: the login page needs none of it.
const Layout = lazy(() => import('./components/Layout').then((m) => ({ default: m.Layout })));
const Login = lazy(() => import('./pages/Login'));
const RecoverPassword = lazy(() => import('./pages/RecoverPassword'));
const ResetPassword = lazy(() => import('./pages/ResetPassword'));
const NotFound = lazy(() => import('./pages/NotFound'));
// A receipt to print is no menu page: it opens from a payment's receipt.
const FiscalReceipt = lazy(() => import('./pages/FiscalReceipt'));
// The platform bot's login link lands here (it logs in by itself) and the first-run wizard runs here.
const Welcome = lazy(() => import('./pages/Welcome'));
// The platform owner's section (/platform, /platform/login): only where the page is the platform's own (no studio prefix).
const PlatformApp = lazy(() => import('./platform/PlatformApp'));
const RECEIPT_PATH = '/receipts/:id';

/** The staff pages' paths, a trailing slash allowed; any other path is «Not found». */
const STAFF_PATHS = new RegExp(
  `^(?:${PAGES.filter((p) => p.href !== HOME)
    .map((p) => p.href)
    .concat('/receipts/\\d+')
    .join('|')})?/?$`,
);

function PublicOnly({ children }: { children: ReactNode }) {
  return isLoggedIn() ? (
    <Redirect to="/" replace />
  ) : (
    <Suspense fallback={<PageLoader h="100vh" />}>{children}</Suspense>
  );
}

function StaffArea() {
  if (!isLoggedIn()) return <Redirect to="/login" replace />;
  return (
    <Suspense fallback={<PageLoader h="100vh" />}>
      <Layout>
        <Suspense fallback={<PageLoader />}>
          <Switch>
            <Route path={RECEIPT_PATH} component={FiscalReceipt} />
            {PAGES.filter((p) => p.href !== HOME).map((p) => (
              <Route key={p.href} path={p.href} component={p.component} />
            ))}
            <Route component={PAGES.find((p) => p.href === HOME)!.component} />
          </Switch>
        </Suspense>
      </Layout>
    </Suspense>
  );
}

/** The admin under the studio's prefix ('' or `/s/<slug>`): routes, links and navigation are relative to it. */
export function App() {
  return (
    <Router base={config.basePath}>
      <Routes />
    </Router>
  );
}

function Routes() {
  const [location] = useLocation();
  const { cache, mutate } = useSWRConfig();
  useEffect(() => {
    setLogoutHandler(() => {
      // Forget everything fetched for the previous session.
      for (const key of Array.from((cache as Map<string, unknown>).keys())) cache.delete(key);
      void mutate(() => true, undefined, { revalidate: false });
    });
    return () => setLogoutHandler(null);
  }, [cache, mutate]);

  return (
    <ErrorBoundary resetKey={location}>
      <Switch>
        <Route path="/login">
          <PublicOnly>
            <Login />
          </PublicOnly>
        </Route>
        <Route path="/recover-password">
          <PublicOnly>
            <RecoverPassword />
          </PublicOnly>
        </Route>
        <Route path="/reset-password">
          <PublicOnly>
            <ResetPassword />
          </PublicOnly>
        </Route>
        {config.basePath === '' && (
          <Route path="/platform" nest>
            <Suspense fallback={<PageLoader h="100vh" />}>
              <PlatformApp />
            </Suspense>
          </Route>
        )}
        <Route path="/welcome">
          <Suspense fallback={<PageLoader h="100vh" />}>
            <Welcome />
          </Suspense>
        </Route>
        <Route path={STAFF_PATHS}>
          <StaffArea />
        </Route>
        <Route>
          <Suspense fallback={<PageLoader h="100vh" />}>
            <NotFound />
          </Suspense>
        </Route>
      </Switch>
    </ErrorBoundary>
  );
}
