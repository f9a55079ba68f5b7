/**
 * The mini-app's texts in the customer's language, from the shared catalogue (contract/texts/*\/app.ts):
 * the Russian first screen is bundled (its later screens' texts come with them: ru/app-later.ts), English
 * and Serbian load only when needed, so the first load carries one language. A component reads the current
 * catalogue with `useT()`, other code with `t()`; a text with values is a function (`T.schedule.seats(3)`).
 */
import { useSyncExternalStore } from 'react';
import { LOCALES, titleIn, type Language } from '../../../contract/language';
import { app as firstScreen } from '../../../contract/texts/ru/app';
import type { AppTexts } from '../../../contract/texts/ru/app-later';

export type WebTexts = AppTexts;

/** The Russian catalogue: its later screens' texts are attached by ru/app-later.ts when those screens load. */
export const ru = firstScreen as WebTexts;

const catalogues: Record<Exclude<Language, 'ru'>, () => Promise<WebTexts>> = {
  en: () => import('../../../contract/texts/en/app').then((m) => m.app),
  sr: () => import('../../../contract/texts/sr/app').then((m) => m.app),
};

let current: { language: Language; texts: WebTexts } = { language: 'ru', texts: ru };
const listeners = new Set<() => void>();

/** The current catalogue. */
export const t = (): WebTexts => current.texts;
export const currentLanguage = (): Language => current.language;
/** The Intl locale of the current language ('en-GB', 'sr-Latn'). */
export const currentLocale = (): string => LOCALES[current.language];

/** Switches to a language once its catalogue is loaded; the page's `lang` follows (screen readers, hyphenation). */
export async function setLanguage(language: Language): Promise<void> {
  const texts = language === 'ru' ? ru : await catalogues[language]();
  current = { language, texts };
  if (typeof document !== 'undefined') document.documentElement.lang = LOCALES[language];
  listeners.forEach((fn) => fn());
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The current catalogue; the component renders again when the language changes. */
export const useT = (): WebTexts => useSyncExternalStore(subscribe, t, t);

/** A workshop's title in the current language; the Russian one when it has none in that language. */
export const workshopTitle = (w: Parameters<typeof titleIn>[0]): string => titleIn(w, current.language);
