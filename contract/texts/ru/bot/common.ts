import { formatDateTime, formatShortDateTime, type Instant } from '../../../format';

/** What every audience's texts share: dates, booking states, the note of a cut list, the error reply. */
export const common = {
  /** '21 ноября 2026 12:00' in the studio's time zone. */
  dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone),
  /** '21 ноября 12:00': where space is short (buttons). */
  shortDateTime: (when: Instant, timeZone: string) => formatShortDateTime(when, timeZone),
  state: { ACTIVE: '✅ Активна', QUEUED: '⏳ В очереди', CANCELLED: '❌ Отменена' },
  /** Closes a message cut to Telegram's length. */
  moreLines: (n: number) => `… и ещё ${n} строк(и): полный список в расписании.`,
  error: 'Что-то пошло не так. Попробуйте ещё раз чуть позже.',
};
