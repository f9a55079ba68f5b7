import { localeFormats, pluralIn } from './format';
import type { WebTexts } from './ru';

/* The mini-app's texts in English (keys and parameters as in ru.ts). */

const locale = 'en-GB';

export const en: WebTexts = {
  fmt: localeFormats(locale, 'RSD'),
  common: {
    loading: 'Loading',
    retry: 'Try again',
    back: 'Back',
    noConnection: 'No connection to the server. Check the internet and try again.',
    people: (n: number) => `${n} ${pluralIn(locale, n, { one: 'person', other: 'people' })}`,
  },
};
