/** Money, dates and plurals in a language's way, for the catalogues. */
import {
  formatDate,
  formatDateTime,
  formatMonth,
  formatMonthYear,
  formatPrice,
  formatTime,
  formatWeekday,
  pluralIn,
  type Instant,
} from '../format';

export { pluralIn };

/** What a catalogue formats with: the Russian one keeps the studio's formats, others use their locale's. */
export interface Formats {
  /** '3 500 RSD', '3,500 RSD', '3.500 din.' (contract/format.ts formatMoney). */
  price(amount: number): string;
  /** The day of the month (the date tile). */
  day(when: Instant, timeZone: string): string;
  /** '9:05', '09:05' */
  time(when: Instant, timeZone: string): string;
  /** '5/01/2030', '05/01/2030', '5. 1. 2030.' */
  date(when: Instant, timeZone: string): string;
  /** 'пятница', 'Friday', 'petak' */
  weekday(when: Instant, timeZone: string): string;
  /** The month on the date tile: 'дек', 'Dec', 'dec'. */
  month(when: Instant, timeZone: string): string;
  /** A month's heading in the schedule: 'Декабрь 2026', 'December 2026', 'Decembar 2026'. */
  monthYear(when: Instant, timeZone: string): string;
  /** A session's day in the schedule: 'суббота, 5/12/2026', 'Sat, 5 Dec', 'sub, 5. dec': never day/month-ambiguous. */
  sessionDay(when: Instant, timeZone: string): string;
  /** '5 января 2030 9:05', '5 January 2030 at 09:05': a date and time in a sentence. */
  dateTime(when: Instant, timeZone: string): string;
}

export const ruFormats: Formats = {
  price: formatPrice,
  day: (when, timeZone) => formatDate(when, timeZone).split('/')[0],
  time: formatTime,
  date: formatDate,
  weekday: formatWeekday,
  month: (when, timeZone) => formatMonth(when, timeZone, 'ru', 'short').replace('.', ''),
  monthYear: (when, timeZone) => formatMonthYear(when, timeZone, 'ru'),
  sessionDay: (when, timeZone) => `${formatWeekday(when, timeZone)}, ${formatDate(when, timeZone)}`,
  dateTime: (when, timeZone) => formatDateTime(when, timeZone),
};
