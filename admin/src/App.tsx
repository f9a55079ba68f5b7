import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { useSWRConfig } from 'swr';
import { isLoggedIn, setLogoutHandler } from './api';
import { ErrorBoundary } from './components/ErrorBoundary';
import { PageLoader } from './components/PageLoader';

// The staff shell (navigation, app bar) is not part of the first load: the login page needs none of it.
const Layout = lazy(() => import('./components/Layout').then((m) => ({ default: m.Layout })));
const Login = lazy(() => import('./pages/Login'));
const RecoverPassword = lazy(() => import('./pages/RecoverPassword'));
const ResetPassword = lazy(() => import('./pages/ResetPassword'));
const Dashboard = lazy(() => import('./pages/Dashboard'));
const Workshops = lazy(() => import('./pages/Workshops'));
const SchedulePage = lazy(() => import('./pages/Schedule'));
const PastPage = lazy(() => import('./pages/Past'));
const Settings = lazy(() => import('./pages/Settings'));
const Users = lazy(() => import('./pages/Users'));
const Customers = lazy(() => import('./pages/Customers'));
const Audit = lazy(() => import('./pages/Audit'));
const CashDesk = lazy(() => import('./pages/CashDesk'));
const Certificates = lazy(() => import('./pages/Certificates'));
const PromoCodes = lazy(() => import('./pages/PromoCodes'));
const NotFound = lazy(() => import('./pages/NotFound'));

const STAFF_PATHS = /^\/(?:workshops|schedule|past|customers|cash|certificates|promo-codes|audit|settings|admin)?\/?$/;

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
            <Route path="/workshops" component={Workshops} />
            <Route path="/schedule" component={SchedulePage} />
            <Route path="/past" component={PastPage} />
            <Route path="/settings" component={Settings} />
            <Route path="/customers" component={Customers} />
            <Route path="/cash" component={CashDesk} />
            <Route path="/certificates" component={Certificates} />
            <Route path="/promo-codes" component={PromoCodes} />
            <Route path="/audit" component={Audit} />
            <Route path="/admin" component={Users} />
            <Route component={Dashboard} />
          </Switch>
        </Suspense>
      </Layout>
    </Suspense>
  );
}

export function App() {
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
