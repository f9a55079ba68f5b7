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

/**
 * A browser's Accept-Language ('sr-RS,sr;q=0.9,en;q=0.8') → the first of ours by its weights; none of
 * ours, or no header, is Russian.
 */
export function languageFromAcceptLanguage(header: string | null | undefined): Language {
  const ranked = (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { language: tag.toLowerCase().split('-')[0], q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((r): r is typeof r & { language: Language } => r.q > 0 && isLanguage(r.language))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked[0]?.language ?? DEFAULT_LANGUAGE;
}

/** A page's link in a language (the certificate card reads `lang` before the browser's languages). */
export const inLanguage = (path: string, language: Language) =>
  `${path}${path.includes('?') ? '&' : '?'}lang=${language}`;
