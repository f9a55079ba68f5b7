import { LOCALES, type Language } from './language';

/**
 * How numbers and dates read in Russian, for the bot, the mini-app and the admin alike.
 * Plain TypeScript on Intl (no zod, no dayjs), so importing it adds next to nothing to a first load.
 * Dates show the wall clock of the business time zone (AppConfig.businessTimezone), not the device's.
 */

// The Intl objects are made on first use: a process's first costs ~30 ms (V8 lists every locale ICU
// has), which a server would otherwise spend at start, before it is ready.
let pluralRules: Intl.PluralRules | undefined;

/** plural(2, ['место', 'места', 'мест']) → 'места'. */
export function plural(n: number, [one, few, many]: readonly [one: string, few: string, many: string]): string {
  const form = (pluralRules ??= new Intl.PluralRules('ru')).select(n);
  return form === 'one' ? one : form === 'few' ? few : many;
}

const localeRules = new Map<string, Intl.PluralRules>();

/**
 * The form of a word for n by the plural rules of a locale: pluralIn('sr-Latn', 3, { one: 'sat', few: 'sata',
 * other: 'sati' }) → 'sata'. A category the language does not use may be left out (`other` is the fallback).
 */
export function pluralIn(
  locale: string,
  n: number,
  forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string },
): string {
  let rules = localeRules.get(locale);
  if (!rules) localeRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return forms[rules.select(n)] ?? forms.other;
}

const moneyFormats = new Map<Language, Intl.NumberFormat>();

/*
 * Whole dinars as a customer of each language reads them, in the bot, the mini-app and the API alike:
 * the number grouped the locale's way, then the unit the locale writes after it. Russian says RSD,
 * the currency's code that prices and staff forms show too; Serbian says "din.", as shops there do.
 */
const MONEY_UNIT: Record<Language, string> = { ru: 'RSD', en: 'RSD', sr: 'din.' };

/** 3500 → '3 500 RSD', '3,500 RSD', '3.500 din.' (no-break spaces, so an amount never wraps). */
export function formatMoney(amount: number, language: Language = 'ru'): string {
  let format = moneyFormats.get(language);
  if (!format) moneyFormats.set(language, (format = new Intl.NumberFormat(LOCALES[language])));
  return `${format.format(amount).replace(/\s/g, '\u00a0')}\u00a0${MONEY_UNIT[language]}`;
}

/** A price in Russian: '3 500 RSD'. */
export const formatPrice = (price: number) => formatMoney(price);

/** An instant: an ISO string, epoch milliseconds or a Date. */
export type Instant = string | number | Date;

const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: 'en-US' | 'ru', timeZone: string): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format =
      locale === 'ru'
        ? new Intl.DateTimeFormat('ru', { timeZone, day: 'numeric', month: 'long', weekday: 'long' })
        : new Intl.DateTimeFormat('en-US', {
            timeZone,
            hourCycle: 'h23',
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
            hour: 'numeric',
            minute: 'numeric',
            second: 'numeric',
          });
    formats.set(key, format);
  }
  return format;
}

const partsOf = (format: Intl.DateTimeFormat, when: Instant) =>
  Object.fromEntries(format.formatToParts(new Date(when)).map((p) => [p.type, p.value])) as Partial<
    Record<Intl.DateTimeFormatPartTypes, string>
  >;

/** The wall clock of an instant in a time zone. */
function wallClock(when: Instant, timeZone: string) {
  const p = partsOf(dateFormat('en-US', timeZone), when);
  const n = (type: Intl.DateTimeFormatPartTypes) => Number(p[type]);
  return {
    year: n('year'),
    month: n('month'),
    day: n('day'),
    hour: n('hour') % 24,
    minute: n('minute'),
    second: n('second'),
  };
}

/** Russian names: the month in the genitive ('ноября', as after a day) and the weekday ('пятница'). */
function names(when: Instant, timeZone: string) {
  const p = partsOf(dateFormat('ru', timeZone), when);
  return { month: p.month ?? '', weekday: p.weekday ?? '' };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** '5/01/2030': the public schedule's date. */
export function formatDate(when: Instant, timeZone: string): string {
  const w = wallClock(when, timeZone);
  return `${w.day}/${pad(w.month)}/${w.year}`;
}

/** '9:05' */
export function formatTime(when: Instant, timeZone: string): string {
  const w = wallClock(when, timeZone);
  return `${w.hour}:${pad(w.minute)}`;
}

/** 'пятница' */
export const formatWeekday = (when: Instant, timeZone: string) => names(when, timeZone).weekday;

/** The month's name on its own (the nominative: 'декабрь', 'дек.'), in a locale. */
export function formatMonth(when: Instant, timeZone: string, locale: string, month: 'long' | 'short'): string {
  const key = `${locale} ${timeZone} month ${month}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, { timeZone, month })));
  return format.format(new Date(when));
}

/** 'Декабрь 2026', 'December 2026': a month's heading. */
export function formatMonthYear(when: Instant, timeZone: string, locale: string): string {
  const name = formatMonth(when, timeZone, locale, 'long');
  return `${name.charAt(0).toLocaleUpperCase(locale)}${name.slice(1)} ${wallClock(when, timeZone).year}`;
}

/** A date and time as another language writes it ('21 November 2026 at 12:00', '21. novembar 2026. 12:00'). */
function localDateTime(when: Instant, timeZone: string, locale: string, withYear: boolean): string {
  const key = `${locale} ${timeZone} ${withYear}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      day: 'numeric',
      month: 'long',
      ...(withYear ? { year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(key, format);
  }
  return format.format(new Date(when));
}

/** '21 ноября 2026 12:00': staff cards and the bot's messages; `locale` other than 'ru': that language's way. */
export function formatDateTime(when: Instant, timeZone: string, locale = 'ru'): string {
  if (locale !== 'ru') return localDateTime(when, timeZone, locale, true);
  const w = wallClock(when, timeZone);
  return `${w.day} ${names(when, timeZone).month} ${w.year} ${w.hour}:${pad(w.minute)}`;
}

/** '21 ноября 12:00': where space is short (the bot's buttons). */
export function formatShortDateTime(when: Instant, timeZone: string, locale = 'ru'): string {
  if (locale !== 'ru') return localDateTime(when, timeZone, locale, false);
  const w = wallClock(when, timeZone);
  return `${w.day} ${names(when, timeZone).month} ${w.hour}:${pad(w.minute)}`;
}

/** Calendar days from one instant's date to another's in the zone: 0 today, 1 tomorrow, -1 yesterday. */
export function daysBetween(from: Instant, to: Instant, timeZone: string): number {
  const day = (when: Instant) => {
    const w = wallClock(when, timeZone);
    return Date.UTC(w.year, w.month - 1, w.day);
  };
  return Math.round((day(to) - day(from)) / 86_400_000);
}

/** A session is past (started) from its start on: no booking or change of it any more. The one definition of it. */
export const isPast = (when: Instant, now: Instant = Date.now()) => new Date(when).getTime() <= new Date(now).getTime();

/** A person's name as everyone shows it: first name, then the last name when there is one. */
export const fullName = (p: { name: string; last_name?: string | null }) =>
  [p.name, p.last_name].filter(Boolean).join(' ');

/** 'YYYY-MM-DD HH:mm:ss', the wall clock of an instant in the zone: what a date-time picker edits. */
export function toZonedInput(when: Instant, timeZone: string): string {
  const w = wallClock(when, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/**
 * The studio's day: `day` ('2026-11-01', or the day of an instant on the studio's clock) moved by
 * `plusDays`, from its midnight in the zone (a DST day has 23 or 25 hours), at `hour` o'clock if given.
 * The one definition of "a day" for filters, /today and the morning after a class.
 */
export function startOfStudioDay(day: string | Instant, timeZone: string, plusDays = 0, hour = 0): string {
  const date =
    typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : toZonedInput(day, timeZone).slice(0, 10);
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + plusDays);
  return new Date(fromZonedInput(`${d.toISOString().slice(0, 10)} ${pad(hour)}:00:00`, timeZone)).toISOString();
}

/** Milliseconds the zone's wall clock is ahead of UTC at an instant. */
function zoneOffset(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant / 1000) * 1000;
}

/** A picker's 'YYYY-MM-DD HH:mm:ss' read as wall time in the zone → '2026-11-22T12:00:00+01:00'. */
export function fromZonedInput(value: string, timeZone: string): string {
  const [year, month, day, hour = 0, minute = 0, second = 0] = value.split(/\D+/).map(Number);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // The wall time read as UTC, moved back by the zone's offset; the offset is looked up twice because
  // it may differ around a DST change, and a wall time that does not exist then lands an hour later.
  const instant = asUtc - zoneOffset(asUtc - zoneOffset(asUtc, timeZone), timeZone);
  const offset = zoneOffset(instant, timeZone);
  const minutes = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  return `${toZonedInput(instant, timeZone).replace(' ', 'T')}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
