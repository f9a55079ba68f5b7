/** Money and dates in English and Serbian: loaded with their catalogues, not with the first screen. */
import { formatDateTime, formatMoney, formatMonth, formatMonthYear, type Instant } from '../format';
import type { Language } from '../language';
import type { Formats } from './app-format';

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, { timeZone, ...options })));
  return format;
}

/** Formats in a language's locale; money as every surface writes it in that language. */
export function localeFormats(language: Exclude<Language, 'ru'>, locale: string): Formats {
  const part = (options: Intl.DateTimeFormatOptions) => (when: Instant, timeZone: string) =>
    dateFormat(locale, timeZone, options).format(new Date(when));
  return {
    price: (amount) => formatMoney(amount, language),
    day: part({ day: 'numeric' }),
    time: part({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    // '5 Dec 2026', '5. 12. 2026.': a month by name where the numbers would read both ways.
    date:
      language === 'en'
        ? part({ day: 'numeric', month: 'short', year: 'numeric' })
        : part({ day: 'numeric', month: 'numeric', year: 'numeric' }),
    weekday: part({ weekday: 'long' }),
    month: (when, timeZone) => formatMonth(when, timeZone, locale, 'short').replace('.', ''),
    monthYear: (when, timeZone) => formatMonthYear(when, timeZone, locale),
    sessionDay: (when, timeZone) =>
      `${part({ weekday: 'short' })(when, timeZone)}, ${part({ day: 'numeric', month: 'short' })(when, timeZone)}`,
    dateTime: (when, timeZone) => formatDateTime(when, timeZone, locale),
  };
}
