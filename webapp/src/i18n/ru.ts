import { pluralIn, ruFormats } from './format';

/*
 * The mini-app's texts in Russian: this catalogue defines every key and each text's parameters;
 * en.ts and sr.ts must have the same keys (the compiler and tests/webapp-catalogue.test.ts check).
 * To add a text: put it here under its screen, then in en.ts and sr.ts, and read it with
 * `const T = useT()` in a component (`T.screen.key`, or `T.screen.key(value)` for a text with values).
 */

const locale = 'ru';

export const ru = {
  /** The language's formats (money, dates) and plural forms. */
  fmt: ruFormats,
  common: {
    loading: 'Загрузка',
    retry: 'Повторить',
    back: 'Назад',
    noConnection: 'Нет соединения с сервером. Проверьте интернет и попробуйте ещё раз.',
    people: (n: number) =>
      `${n} ${pluralIn(locale, n, { one: 'человек', few: 'человека', many: 'человек', other: 'человека' })}`,
  },
};

export type WebTexts = typeof ru;
