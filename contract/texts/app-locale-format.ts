/** Money and dates in English and Serbian: loaded with their catalogues, not with the first screen. */
import { formatDateTime, formatMoney, type Instant } from '../format';
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
    date: part({ day: '2-digit', month: '2-digit', year: 'numeric' }),
    weekday: part({ weekday: 'long' }),
    dateTime: (when, timeZone) => formatDateTime(when, timeZone, locale),
  };
}
