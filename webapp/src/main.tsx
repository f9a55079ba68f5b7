import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@telegram-apps/telegram-ui/dist/styles.css';
import './styles.css';
import { App } from './App';
import { withBase } from './config';
import { preloadSchedule } from './apply/ApplyPage';
import { chooseLanguage } from './i18n/choose';
import { initTelegram } from './tg';

initTelegram();

// The first render waits for the language's catalogue only when it is not the bundled Russian one.
void chooseLanguage().then(() => {
  if (location.pathname.startsWith(withBase('/apply'))) preloadSchedule();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
