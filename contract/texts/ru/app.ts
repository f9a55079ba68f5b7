import { pluralIn, ruFormats } from '../app-format';

/*
 * The mini-app's texts in Russian: this catalogue (with app-later.ts) defines every key and each text's
 * parameters; en/app.ts and sr/app.ts must have the same keys (the compiler and tests/webapp/catalogues check).
 * To add a text: put it here (first screen) or in app-later.ts under its screen, then in en and sr, and read
 * it with `const T = useT()` in a component (`T.screen.key`, or `T.screen.key(value)` for a text with values).
 */

const locale = 'ru';
const seats = (n: number) => `${n} ${pluralIn(locale, n, { one: 'место', few: 'места', other: 'мест' })}`;

/** The first screen's texts; the others (app-later.ts) are attached when a screen that needs them loads. */
export const app = {
  /** The language's formats (money, dates). */
  fmt: ruFormats,
  common: {
    loading: 'Загрузка',
    retry: 'Повторить',
    back: 'Назад',
    noConnection: 'Нет соединения с сервером. Проверьте интернет и попробуйте ещё раз.',
  },
  wizard: {
    label: 'Запись на мастер-класс',
    step: (step: number, of: number) => `Шаг ${step} из ${of}`,
    showAll: 'Показать все мастер-классы',
  },
  schedule: {
    choose: 'Выберите мастер-класс',
    loadingLabel: 'Загрузка расписания',
    loadingTitle: 'Мастер-класс загружается',
    empty: 'На данный момент запись недоступна...',
    emptyHint: 'Загляните позже: новые даты появляются регулярно',
    loadError: 'Произошла ошибка при загрузке данных',
    loadErrorHint: 'Проверьте соединение и попробуйте ещё раз',
    perPerson: 'Цены указаны за одного человека',
    seatsLeft: (n: number) => `Осталось ${seats(n)}`,
    full: 'Мест нет — запись в очередь',
    /** A session under its minimum of participants: how many more people it needs to take place. */
    peopleNeeded: (n: number) =>
      pluralIn(locale, n, {
        one: `Нужен ещё ${n} человек`,
        few: `Нужно ещё ${n} человека`,
        other: `Нужно ещё ${n} человек`,
      }),
  },
  /** The first screen's lines about gift certificates (the rest loads with their screens: certificates.ts). */
  certificate: {
    landing: 'Выберите мастер-класс: сертификат оплатит запись.',
    buy: 'Подарочный сертификат',
  },
};
