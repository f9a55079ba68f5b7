import { localeFormats, pluralIn } from './format';
import type { WebTexts } from './ru';

/* The mini-app's texts in Serbian, Latin script (keys and parameters as in ru.ts). */

const locale = 'sr-Latn';

export const sr: WebTexts = {
  fmt: localeFormats(locale, 'din.'),
  common: {
    loading: 'Učitavanje',
    retry: 'Pokušaj ponovo',
    back: 'Nazad',
    noConnection: 'Nema veze sa serverom. Proverite internet i pokušajte ponovo.',
    people: (n: number) => `${n} ${pluralIn(locale, n, { one: 'osoba', few: 'osobe', other: 'osoba' })}`,
  },
};
