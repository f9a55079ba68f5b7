import { z } from './zod';

/*
 * The studio itself: its name and time zone (on the platform each studio's own, stored by the platform;
 * in a single-studio installation the server's BUSINESS_NAME and BUSINESS_TIMEZONE), whether its owner
 * finished the first-run wizard, and the one-time Telegram login link that opens that wizard.
 */

export const STUDIO_NAME_MAX = 100;

/** The studio's zone when the owner picks none. */
export const DEFAULT_TIME_ZONE = 'Europe/Belgrade';

/**
 * An IANA time zone this runtime knows: the canonical list first (it answers without building a
 * formatter), other spellings (aliases) by trying one, as the server's BUSINESS_TIMEZONE check does.
 */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(tz)) return false;
  if (Intl.supportedValuesOf('timeZone').includes(tz)) return true;
  try {
    new Intl.DateTimeFormat('ru', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const studioName = z
  .string()
  .trim()
  .min(1, 'Укажите название студии')
  .max(STUDIO_NAME_MAX, `Название студии: не больше ${STUDIO_NAME_MAX} символов`);
const timeZone = z
  .string()
  .trim()
  .min(1, 'Выберите часовой пояс')
  .refine(isTimeZone, 'Неизвестный часовой пояс: выберите из списка, например Europe/Belgrade');

/** GET /studio. */
export const StudioProfile = z.object({
  name: z.string(),
  timezone: z.string(),
  /** The owner finished (or skipped through) the first-run wizard. */
  setup_done: z.boolean(),
});
export type StudioProfile = z.infer<typeof StudioProfile>;

/** PATCH /studio: the fields given change, the others stay. */
export const StudioUpdate = z.object({
  name: studioName.optional(),
  timezone: timeZone.optional(),
});
export type StudioUpdate = z.infer<typeof StudioUpdate>;

/** POST /login/telegram-link: the token of the link the platform's bot sent. */
export const TelegramLinkLogin = z.object({ token: z.string().trim().min(1).max(256) });
export type TelegramLinkLogin = z.infer<typeof TelegramLinkLogin>;

/**
 * Zones offered in the wizard (searchable by city or by name): the studio's region first, then Europe,
 * then farther. Any other IANA zone is accepted by the API.
 */
export const COMMON_TIME_ZONES: readonly { zone: string; city: string }[] = [
  { zone: 'Europe/Belgrade', city: 'Белград' },
  { zone: 'Europe/Podgorica', city: 'Подгорица' },
  { zone: 'Europe/Sarajevo', city: 'Сараево' },
  { zone: 'Europe/Zagreb', city: 'Загреб' },
  { zone: 'Europe/Ljubljana', city: 'Любляна' },
  { zone: 'Europe/Skopje', city: 'Скопье' },
  { zone: 'Europe/Budapest', city: 'Будапешт' },
  { zone: 'Europe/Vienna', city: 'Вена' },
  { zone: 'Europe/Berlin', city: 'Берлин' },
  { zone: 'Europe/Prague', city: 'Прага' },
  { zone: 'Europe/Warsaw', city: 'Варшава' },
  { zone: 'Europe/Rome', city: 'Рим' },
  { zone: 'Europe/Paris', city: 'Париж' },
  { zone: 'Europe/Amsterdam', city: 'Амстердам' },
  { zone: 'Europe/Madrid', city: 'Мадрид' },
  { zone: 'Europe/Lisbon', city: 'Лиссабон' },
  { zone: 'Europe/London', city: 'Лондон' },
  { zone: 'Europe/Sofia', city: 'София' },
  { zone: 'Europe/Bucharest', city: 'Бухарест' },
  { zone: 'Europe/Athens', city: 'Афины' },
  { zone: 'Europe/Helsinki', city: 'Хельсинки' },
  { zone: 'Europe/Riga', city: 'Рига' },
  { zone: 'Europe/Vilnius', city: 'Вильнюс' },
  { zone: 'Europe/Tallinn', city: 'Таллин' },
  { zone: 'Europe/Chisinau', city: 'Кишинёв' },
  { zone: 'Europe/Kiev', city: 'Киев' },
  { zone: 'Europe/Minsk', city: 'Минск' },
  { zone: 'Europe/Istanbul', city: 'Стамбул' },
  { zone: 'Europe/Kaliningrad', city: 'Калининград' },
  { zone: 'Europe/Moscow', city: 'Москва' },
  { zone: 'Europe/Samara', city: 'Самара' },
  { zone: 'Asia/Yekaterinburg', city: 'Екатеринбург' },
  { zone: 'Asia/Omsk', city: 'Омск' },
  { zone: 'Asia/Novosibirsk', city: 'Новосибирск' },
  { zone: 'Asia/Krasnoyarsk', city: 'Красноярск' },
  { zone: 'Asia/Irkutsk', city: 'Иркутск' },
  { zone: 'Asia/Vladivostok', city: 'Владивосток' },
  { zone: 'Asia/Tbilisi', city: 'Тбилиси' },
  { zone: 'Asia/Yerevan', city: 'Ереван' },
  { zone: 'Asia/Baku', city: 'Баку' },
  { zone: 'Asia/Almaty', city: 'Алматы' },
  { zone: 'Asia/Tashkent', city: 'Ташкент' },
  { zone: 'Asia/Bishkek', city: 'Бишкек' },
  { zone: 'Asia/Dubai', city: 'Дубай' },
  { zone: 'Asia/Jerusalem', city: 'Иерусалим' },
  { zone: 'Asia/Bangkok', city: 'Бангкок' },
  { zone: 'Asia/Makassar', city: 'Бали' },
  { zone: 'America/New_York', city: 'Нью-Йорк' },
  { zone: 'America/Los_Angeles', city: 'Лос-Анджелес' },
];
