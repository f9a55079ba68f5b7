import { isLanguage, languageFromCode, type Language } from '../../../contract/language';
import type { CustomerLanguage } from '../../../contract/journey';
import { request } from '../api';
import { storeKey } from '../config';
import { rawInitData, telegramUser } from '../tg';
import { currentLanguage, setLanguage } from './index';

const STORAGE_KEY = 'workshop-language';

function remembered(): Language | null {
  try {
    const value = localStorage.getItem(storeKey(STORAGE_KEY));
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The page's language before the first render: the one the server said last time on this device (the
 * customer's /language choice), else the Telegram app's language_code, else Russian. The server is then
 * asked; if the customer chose another language, the page switches to it and it is remembered.
 */
export async function chooseLanguage(): Promise<void> {
  const first = remembered() ?? languageFromCode(telegramUser()?.language_code);
  // GET /language/ (contract/endpoints/language.ts), without its description in the first load.
  const stored = rawInitData() ? (request('GET', '/language/') as Promise<CustomerLanguage>) : null;
  await setLanguage(first).catch(() => undefined);
  stored
    ?.then(async ({ language }) => {
      try {
        localStorage.setItem(storeKey(STORAGE_KEY), language);
      } catch {
        /* storage may be unavailable */
      }
      if (language !== currentLanguage()) await setLanguage(language);
    })
    .catch(() => undefined);
}
