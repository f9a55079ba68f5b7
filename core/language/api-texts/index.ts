import type { Permission, RecordAllowed } from '../../../contract';
import type { Language } from '../../../contract/language';
import { catalogue } from '../../../contract/texts';
import { sayRefusal } from '../../../contract/texts/refusal';
import type { ApiTexts } from '../../../contract/texts/ru/api';
import { permissionRefusal } from '../../booking/allowed';

export type { ApiTexts };

/** What the API says to a customer of this language. */
export const apiTexts = (language: Language): ApiTexts => catalogue(language).api;

/** What a customer may do with a booking, the reasons of what they may not said in their language. */
export function localizeAllowed(allowed: RecordAllowed, language: Language): RecordAllowed {
  if (language === 'ru') return allowed;
  const say = (p: Permission): Permission => {
    const refusal = permissionRefusal(p);
    return refusal ? { ...p, detail: sayRefusal(language, refusal) } : p;
  };
  return Object.fromEntries(Object.entries(allowed).map(([action, p]) => [action, say(p)])) as RecordAllowed;
}

/**
 * A booking's cancel reason as a customer reads it: a reason the system gave (stored in Russian) in
 * their language, a reason a person typed as typed.
 */
export function sayCancelReason(reason: string, language: Language): string {
  const ru = catalogue('ru').api.cancelReasons;
  const key = (Object.keys(ru) as (keyof typeof ru)[]).find((k) => ru[k] === reason);
  return key ? catalogue(language).api.cancelReasons[key] : reason;
}
