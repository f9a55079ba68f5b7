import type { Permission, RecordAllowed } from '../../../contract';
import type { Language } from '../../../contract/language';
import { permissionError } from '../../booking/allowed';
import type { RefusalTexts } from '../../kernel/errors';
import { en } from './en';
import { ru, type ApiTexts } from './ru';
import { sr } from './sr';

export type { ApiTexts };

const catalogues: Record<Language, ApiTexts> = { ru, en, sr };

/** What the API says to a customer of this language. */
export const apiTexts = (language: Language): ApiTexts => catalogues[language];

type RefusalKey = keyof ApiTexts['refusals'];

/** The key of each Russian refusal text (texts shared by two keys say the same in every language). */
const keyOfText = new Map<string, RefusalKey>(
  (Object.entries(ru.refusals) as [RefusalKey, string][]).map(([key, text]) => [text, key]),
);

/**
 * A refusal's text in the customer's language: a refusal with values (the change deadline) by its key,
 * a fixed one by its Russian text; a text the catalogue does not know stays as it is (Russian).
 */
export function localizeRefusal(detail: string, language: Language, texts?: RefusalTexts): string {
  if (language === 'ru') return detail;
  const t = apiTexts(language);
  if (texts?.key === 'deadline') return t.deadline(...texts.args);
  const key = keyOfText.get(detail);
  return key ? t.refusals[key] : detail;
}

/** What a customer may do with a booking, the reasons of what they may not said in their language. */
export function localizeAllowed(allowed: RecordAllowed, language: Language): RecordAllowed {
  if (language === 'ru') return allowed;
  const say = (p: Permission): Permission =>
    p.detail === null ? p : { ...p, detail: localizeRefusal(p.detail, language, permissionError(p)?.texts) };
  return Object.fromEntries(Object.entries(allowed).map(([action, p]) => [action, say(p)])) as RecordAllowed;
}
