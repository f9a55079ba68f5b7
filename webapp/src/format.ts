import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { config } from './config';

dayjs.extend(utc);
dayjs.extend(timezone);

const inZone = (iso: string) => dayjs(iso).tz(config().businessTimezone);

/** Public session date, spec §9: d/MM/y. */
export const formatDate = (iso: string) => inZone(iso).format('D/MM/YYYY');
/** Public session time, spec §9: H:mm. */
export const formatTime = (iso: string) => inZone(iso).format('H:mm');

const WEEKDAYS = ['воскресенье', 'понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота'];
export const formatWeekday = (iso: string) => WEEKDAYS[inZone(iso).day()];

/** Price in RSD with thin grouping: 3 500 RSD. */
export const formatPrice = (price: number) => `${price.toLocaleString('ru-RU').replace(/\s/g, '\u00a0')}\u00a0RSD`;

/** A session is past when its date is before now (spec §4). */
export const isPast = (iso: string, now = Date.now()) => Date.parse(iso) < now;

/** "1 место", "2 места", "5 мест" */
export function plural(n: number, one: string, few: string, many: string): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}
