import { describe, expect, it } from 'vitest';
import { CERTIFICATE_MSG } from '../../contract/certificates';
import { LANGUAGES, type Language } from '../../contract/language';
import { catalogue } from '../../contract/texts';
import { REFUSAL_CODES, isStaffRefusal, sayRefusal, type RefusalCode } from '../../contract/texts/refusal';
import { refusals as ruRefusals, staffRefusals } from '../../contract/texts/ru/refusals';
import { ALLOWED_MSG } from '../../core/booking/allowed';
import { GIFT_MSG } from '../../core/journey/seat-gifts';
import { MSG } from '../../core/kernel/messages';
import { apiTexts } from '../../core/language/api-texts';
import { PROMO_MSG } from '../../core/ledger/discount';
import { MONEY_MSG } from '../../core/payments/telegram';
import { textsFor } from '../../bot/texts';

/*
 * The customer catalogues (contract/texts): every language has every key and every refusal code, each
 * renders (a function with sample values) to a non-empty text that shows the values it is given, and
 * English and Serbian hold no Russian letters.
 */

type Tree = { [key: string]: unknown };

/** Distinct sample values by position: numbers and texts a text must show as given. */
const sample = (i: number, kind: 'number' | 'string') => (kind === 'number' ? 401 + 10 * i : `⟦arg${i}⟧`);

/** The values of a refusal (one object): one of each kind a Russian text shows. */
const REFUSAL_VALUES = {
  hours: 3,
  contact: '@studio',
  count: 7,
  months: 6,
  balance: 1200,
  paid: 900,
  owed: 3000,
  missing: 'Poziv na broj',
  number: 'RX4F7Y5L-RX4F7Y5L-12',
  code: '2100',
  error: 'ECONNREFUSED',
  label: 'Ђ',
};

/** The mix of numbers and texts a function takes: the one whose Russian text shows every value. */
function argsFor(fn: (...a: unknown[]) => string): unknown[] {
  // A refusal with values takes them as one object: the values its Russian text shows are checked.
  if (fn.length === 1 && /^\(?\{/.test(fn.toString())) {
    const out = fn(REFUSAL_VALUES);
    return Object.values(REFUSAL_VALUES).filter((v) => out.includes(String(v)));
  }
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

const RUSSIAN = /[а-яё]/i;

function problems(reference: unknown, other: unknown, path: string, latin: boolean): string[] {
  if (typeof reference === 'function') {
    if (typeof other !== 'function') return [`${path}: not a function`];
    // Formats of dates and money take instants and time zones: each language writes them its own way.
    if (path.startsWith('format.') || path.endsWith('.money')) {
      const out = String((other as (...a: unknown[]) => string)(Date.UTC(2030, 0, 5, 9, 5), 'Europe/Belgrade'));
      return !out.trim() ? [`${path}: empty`] : latin && RUSSIAN.test(out) ? [`${path}: Russian in ${out}`] : [];
    }
    const args = argsFor(reference as (...a: unknown[]) => string);
    const byObject = /^\(?\{/.test(String(reference));
    const out = String((other as (...a: unknown[]) => string)(...(byObject ? [REFUSAL_VALUES] : args)));
    return [
      ...args.filter((a) => !out.includes(String(a))).map((a) => `${path}: does not show ${String(a)}`),
      ...(latin && RUSSIAN.test(out) ? [`${path}: Russian in ${out}`] : []),
    ];
  }
  if (typeof reference === 'string') {
    if (typeof other !== 'string' || !other.trim()) return [`${path}: empty`];
    return latin && RUSSIAN.test(other) ? [`${path}: Russian in ${other}`] : [];
  }
  const r = reference as Tree;
  const o = (other ?? {}) as Tree;
  const at = (k: string) => (path ? `${path}.${k}` : k);
  return [
    ...Object.keys(o)
      .filter((k) => !(k in r))
      .map((k) => `${at(k)}: not in Russian`),
    ...Object.keys(r).flatMap((k) => problems(r[k], o[k], at(k), latin)),
  ];
}

describe('the customer catalogues', () => {
  it.each(LANGUAGES.filter((l) => l !== 'ru'))('%s has every API key and shows every value', (language) => {
    expect(problems(apiTexts('ru'), apiTexts(language), '', true)).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'ru'))('%s has every customer refusal, shown with its values', (language) => {
    expect(problems(ruRefusals, catalogue(language).refusals, '', true)).toEqual([]);
  });

  it('a missing key, a value not shown or a Russian text left is found', () => {
    const en = catalogue('en').refusals;
    const { noTransfers: _, ...fewer } = en;
    expect(problems(ruRefusals, fewer, '', true)).toEqual(['noTransfers: empty']);
    expect(problems(ruRefusals, { ...en, deadline: () => 'Too late' }, '', true)).toHaveLength(2);
    expect(problems(ruRefusals, { ...en, started: 'Мастер-класс уже начался' }, '', true)).toEqual([
      'started: Russian in Мастер-класс уже начался',
    ]);
  });

  it.each(LANGUAGES)('%s says every refusal code, customers’ and staff’s', (language: Language) => {
    const said = REFUSAL_CODES.map((code) => [code, sayRefusal(language, { code, args: REFUSAL_VALUES })] as const);
    expect(said.filter(([, text]) => !text.trim() || text.includes('undefined'))).toEqual([]);
    if (language !== 'ru')
      expect(said.filter(([code, text]) => !isStaffRefusal(code) && RUSSIAN.test(text))).toEqual([]);
    // Staff read Russian (and the few English texts the original API had) whatever the language.
    for (const code of Object.keys(staffRefusals) as RefusalCode[])
      expect(sayRefusal(language, { code, args: REFUSAL_VALUES })).toBe(
        sayRefusal('ru', { code, args: REFUSAL_VALUES }),
      );
  });

  it('every refusal a customer can get from the domain is a customer code, said in their language', () => {
    const customerFacing = [
      ...Object.values(MSG).filter((c) => c !== MSG.addressNotFound),
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
    expect(customerFacing.filter((code) => !(code in ruRefusals))).toEqual([]);
  });

  it('says a refusal by its code: Russian as it always read, English and Serbian by the same code', () => {
    expect(sayRefusal('en', { code: GIFT_MSG.own })).toBe('This is your own booking: send the link to a friend');
    expect(sayRefusal('ru', { code: GIFT_MSG.own })).toBe('Это ваша собственная запись: передайте ссылку другу');
    expect(sayRefusal('sr', { code: 'deadline', args: { hours: 3, contact: '' } })).toBe(
      'Prijava se može menjati ili otkazati najkasnije 3 sata pre početka radionice. Kontaktirajte studio.',
    );
    expect(sayRefusal('ru', { code: 'deadline', args: { hours: 3, contact: '' } })).toBe(
      'Изменить или отменить запись можно не позднее чем за 3 часа до начала мастер-класса. Свяжитесь со студией.',
    );
  });

  it.each(LANGUAGES.filter((l) => l !== 'ru'))('%s says every kind of refused field', (language) => {
    const say = catalogue(language).validation;
    const issues = [
      { code: 'invalid_type', expected: 'number' },
      { code: 'invalid_type', expected: 'int' },
      { code: 'invalid_type', expected: 'string' },
      { code: 'too_small', minimum: 2, origin: 'string' },
      { code: 'too_small', minimum: 1, origin: 'string' },
      { code: 'too_small', minimum: 0, origin: 'number', inclusive: false },
      { code: 'too_big', maximum: 100, origin: 'string' },
      { code: 'too_big', maximum: 3, origin: 'array' },
      { code: 'too_big', maximum: 10, origin: 'number', inclusive: false },
      { code: 'invalid_format', format: 'email' },
      { code: 'invalid_format', format: 'regex' },
      { code: 'not_multiple_of', divisor: 5 },
      { code: 'invalid_value', values: ['ru', 'en'] },
      { code: 'unrecognized_keys', keys: ['x'] },
      { code: 'custom' },
    ];
    const said = [say({ code: 'invalid_type' }, true), ...issues.map((i) => say(i, false))];
    expect(said.filter((text) => !text.trim() || RUSSIAN.test(text))).toEqual([]);
    expect(new Set(said).size).toBeGreaterThan(12);
  });

  it.each(LANGUAGES)('%s: the card and the bot name the certificate button as the mini-app shows it', (language) => {
    const button = catalogue(language).appCertificates.apply.have;
    expect(apiTexts(language).card.enterCode).toContain(button);
    expect(textsFor(language).certificates.howToUse).toContain(button);
  });
});
