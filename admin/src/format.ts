import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import 'dayjs/locale/ru';
import { config } from './config';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.locale('ru');

export { dayjs };

/** Spec §9: staff cards show 'd MMMM y H:mm' in BUSINESS_TIMEZONE. */
export function formatSessionDate(iso: string, tz = config.businessTimezone): string {
  return dayjs(iso).tz(tz).format('D MMMM YYYY H:mm');
}

export function formatPrice(price: number): string {
  return `${price} RSD`;
}

/** Naive 'YYYY-MM-DD HH:mm:ss' (what the date picker edits) of an ISO instant, in the business zone. */
export function toZonedInput(iso: string, tz = config.businessTimezone): string {
  return dayjs(iso).tz(tz).format('YYYY-MM-DD HH:mm:ss');
}

/** The picker's naive value read as wall time in the business zone → ISO with offset. */
export function fromZonedInput(value: string, tz = config.businessTimezone): string {
  return dayjs.tz(value, tz).format('YYYY-MM-DDTHH:mm:ssZ');
}

/** Spec §5: a new session defaults to tomorrow at 12:00 (business zone). */
export function defaultSessionInput(now = new Date(), tz = config.businessTimezone): string {
  return dayjs(now).tz(tz).add(1, 'day').hour(12).minute(0).second(0).format('YYYY-MM-DD HH:mm:ss');
}
