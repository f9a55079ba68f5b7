/** Money, dates and plurals in a language's way, for the catalogues. */
import {
  formatDate,
  formatDateTime,
  formatPrice,
  formatTime,
  formatWeekday,
  pluralIn,
  type Instant,
} from '../../../contract/format';

export { pluralIn };

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

/** What a catalogue formats with: the Russian one keeps the studio's formats, others use their locale's. */
export interface Formats {
  /** '3 500 RSD', '3,500 RSD', '3.500 din.' (no-break spaces: a price never wraps). */
  price(amount: number): string;
  /** The day of the month (the date tile). */
  day(when: Instant, timeZone: string): string;
  /** '9:05', '09:05' */
  time(when: Instant, timeZone: string): string;
  /** '5/01/2030', '05/01/2030', '5. 1. 2030.' */
  date(when: Instant, timeZone: string): string;
  /** 'пятница', 'Friday', 'petak' */
  weekday(when: Instant, timeZone: string): string;
  /** '5 января 2030 9:05', '5 January 2030 at 09:05': a date and time in a sentence. */
  dateTime(when: Instant, timeZone: string): string;
}

export const ruFormats: Formats = {
  price: formatPrice,
  day: (when, timeZone) => formatDate(when, timeZone).split('/')[0],
  time: formatTime,
  date: formatDate,
  weekday: formatWeekday,
  dateTime: (when, timeZone) => formatDateTime(when, timeZone),
};

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
