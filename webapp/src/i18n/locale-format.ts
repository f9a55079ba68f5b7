/** Money and dates in English and Serbian: loaded with their catalogues, not with the first screen. */
import { formatDateTime, type Instant } from '../../../contract/format';
import type { Formats } from './format';

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format;
}

function dateFormat(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, { timeZone, ...options })));
  return format;
}

/** Formats in a locale; `currency` follows the amount ('RSD' in English, 'din.' in Serbian). */
export function localeFormats(locale: string, currency: string): Formats {
  const part = (options: Intl.DateTimeFormatOptions) => (when: Instant, timeZone: string) =>
    dateFormat(locale, timeZone, options).format(new Date(when));
  return {
    price: (amount) => `${numberFormat(locale).format(amount).replace(/\s/g, '\u00a0')}\u00a0${currency}`,
    day: part({ day: 'numeric' }),
    time: part({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    date: part({ day: '2-digit', month: '2-digit', year: 'numeric' }),
    weekday: part({ weekday: 'long' }),
    dateTime: (when, timeZone) => formatDateTime(when, timeZone, locale),
  };
}
