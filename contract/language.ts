/**
 * The languages customers are served in: Russian (the studio's, the default and the fallback),
 * English and Serbian in Latin script. Staff texts are Russian only.
 */
export const LANGUAGES = ['ru', 'en', 'sr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ru';

/** The Intl locale of each language: Serbian is written in Latin script. */
export const LOCALES: Record<Language, string> = { ru: 'ru', en: 'en-GB', sr: 'sr-Latn' };

/** Each language's name in itself, for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = { ru: 'Русский', en: 'English', sr: 'Srpski' };

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** A workshop's title in a language: its translation when it has one, else the Russian title. */
export const titleIn = (w: { title: string; title_en?: string | null; title_sr?: string | null }, language: Language) =>
  (language !== DEFAULT_LANGUAGE && w[`title_${language}`]) || w.title;

/**
 * Telegram's `language_code` (an IETF tag: 'en', 'en-US', 'sr', 'sr-Latn') → one of ours; anything
 * else, or nothing, is Russian.
 */
export function languageFromCode(code: string | null | undefined): Language {
  const primary = code?.toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : DEFAULT_LANGUAGE;
}
