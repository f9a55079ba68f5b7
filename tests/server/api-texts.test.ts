import { describe, expect, it } from 'vitest';
import { CERTIFICATE_MSG } from '../../contract/certificates';
import { LANGUAGES } from '../../contract/language';
import { ALLOWED_MSG } from '../../core/booking/allowed';
import { GIFT_MSG } from '../../core/journey/seat-gifts';
import { apiTexts, localizeRefusal } from '../../core/language/api-texts';
import { ru } from '../../core/language/api-texts/ru';
import { PROMO_MSG } from '../../core/ledger/discount';
import { MONEY_MSG } from '../../core/payments/telegram';
import { textsFor } from '../../bot/texts';
import { certificateCatalogues } from '../../webapp/src/i18n/certificates';

/* The API's customer texts: every language has every key, and every text shows the values it is given. */

type Tree = { [key: string]: unknown };

/** Distinct sample values by position: numbers and texts a text must show as given. */
const sample = (i: number, kind: 'number' | 'string') => (kind === 'number' ? 401 + 10 * i : `⟦arg${i}⟧`);

/** The mix of numbers and texts a function takes: the one whose Russian text shows every value. */
function argsFor(fn: (...a: unknown[]) => string): unknown[] {
  for (let mix = 0; mix < 2 ** fn.length; mix++) {
    const args = Array.from({ length: fn.length }, (_, i) => sample(i, mix & (1 << i) ? 'number' : 'string'));
    try {
      const out = fn(...args);
      if (args.every((a) => out.includes(String(a)))) return args;
    } catch {
      // not this mix
    }
  }
  throw new Error(`no sample shows every value of ${fn.toString().slice(0, 80)}`);
}

function problems(reference: unknown, other: unknown, path: string): string[] {
  if (typeof reference === 'function') {
    if (typeof other !== 'function') return [`${path}: not a function`];
    // Formats of dates and money take instants and time zones: each language writes them its own way.
    if (path.startsWith('format.') || path.endsWith('.money')) return [];
    const args = argsFor(reference as (...a: unknown[]) => string);
    const out = String((other as (...a: unknown[]) => string)(...args));
    return args.filter((a) => !out.includes(String(a))).map((a) => `${path}: does not show ${String(a)}`);
  }
  if (typeof reference === 'string') return typeof other === 'string' && other.trim() ? [] : [`${path}: empty`];
  const r = reference as Tree;
  const o = (other ?? {}) as Tree;
  const at = (k: string) => (path ? `${path}.${k}` : k);
  return [
    ...Object.keys(o)
      .filter((k) => !(k in r))
      .map((k) => `${at(k)}: not in Russian`),
    ...Object.keys(r).flatMap((k) => problems(r[k], o[k], at(k))),
  ];
}

describe('the API’s customer catalogues', () => {
  it.each(LANGUAGES.filter((l) => l !== 'ru'))('%s has every key and shows every value', (language) => {
    expect(problems(ru, apiTexts(language), '')).toEqual([]);
  });

  it('a missing key or a value not shown is found', () => {
    const en = apiTexts('en');
    const { noTransfers: _, ...fewer } = en.refusals;
    expect(problems(ru, { ...en, refusals: fewer }, '')).toEqual(['refusals.noTransfers: empty']);
    expect(problems(ru, { ...en, deadline: () => 'Too late' }, '')).toHaveLength(2);
  });

  it('every refusal a customer can get from the domain has its key', () => {
    const customerFacing = [
      ...Object.values(GIFT_MSG),
      ...Object.values(MONEY_MSG),
      ...Object.values(CERTIFICATE_MSG),
      ...Object.entries(PROMO_MSG)
        .filter(([k]) => k !== 'duplicate' && k !== 'noWorkshop')
        .map(([, v]) => v),
      ...Object.entries(ALLOWED_MSG)
        .filter(([k]) => k !== 'attendedStaff')
        .map(([, v]) => v),
    ];
    const known = new Set(Object.values(ru.refusals));
    expect(customerFacing.filter((text) => !known.has(text))).toEqual([]);
  });

  it('localizes by the Russian text, leaves unknown texts and Russian as they are', () => {
    expect(localizeRefusal(GIFT_MSG.own, 'en')).toBe('This is your own booking: send the link to a friend');
    expect(localizeRefusal(GIFT_MSG.own, 'ru')).toBe(GIFT_MSG.own);
    expect(localizeRefusal('Что-то новое', 'sr')).toBe('Что-то новое');
    expect(localizeRefusal('x', 'sr', { key: 'deadline', args: [3, ''] })).toBe(
      'Prijava se može menjati ili otkazati najkasnije 3 sata pre početka radionice. Kontaktirajte studio.',
    );
  });

  it.each(LANGUAGES)('%s: the card and the bot name the certificate button as the mini-app shows it', (language) => {
    const button = certificateCatalogues[language].apply.have;
    expect(apiTexts(language).card.enterCode).toContain(button);
    expect(textsFor(language).certificates.howToUse).toContain(button);
  });
});
