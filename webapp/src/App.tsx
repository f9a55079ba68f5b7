import { Suspense, lazy, useSyncExternalStore } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { AppRoot } from '@telegram-apps/telegram-ui';
import ApplyPage from './apply/ApplyPage';
import { CenteredSpinner } from './apply/CenteredSpinner';
import { config } from './config';
import { isDarkTheme, subscribeDark, uiPlatform } from './tg';
import { Toaster } from './ui/Toaster';

const RecordPage = lazy(() => import('./record/RecordPage'));

export function App() {
  const dark = useSyncExternalStore(subscribeDark, isDarkTheme, isDarkTheme);
  return (
    <AppRoot
      appearance={dark ? 'dark' : 'light'}
      platform={uiPlatform()}
      className="app-root"
      data-platform={uiPlatform()}
    >
      {/* Routes, links and navigation under the studio's prefix ('' or `/s/<slug>`). */}
      <Router base={config().basePath}>
        <Switch>
          <Route path="/apply" component={ApplyPage} />
          <Route path="/record/:id">
            {(params) => (
              <Suspense fallback={<CenteredSpinner />}>
                <RecordPage key={params.id} id={params.id} />
              </Suspense>
            )}
          </Route>
          <Route>
            <Redirect to="/apply" replace />
          </Route>
        </Switch>
      </Router>
      <Toaster />
    </AppRoot>
  );
}
