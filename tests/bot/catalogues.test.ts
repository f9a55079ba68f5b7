import { describe, expect, it } from 'vitest';
import { ru, textsFor, type BotTexts } from '../../bot/texts';
import { formatDateTime, formatShortDateTime, pluralIn } from '../../contract/format';
import { languageFromAcceptLanguage, languageFromCode } from '../../contract/language';

const en = textsFor('en');
const sr = textsFor('sr');

/* The customer catalogues in English and Serbian against the Russian one: the same keys, and every text shows the same values. */

type Tree = { [key: string]: unknown };

/** Sample values for a parameter: a distinct token as a number, as text, or as a person's booking. */
const SAMPLES: ((i: number) => unknown)[] = [
  (i) => 401 + 10 * i,
  (i) => `⟦arg${i}⟧`,
  (i) => ({ name: `⟦arg${i}⟧`, last_name: null, telegram_login: null, people_count: 401 + 10 * i }),
];
const tokenOf = (arg: unknown, i: number) => (typeof arg === 'number' ? String(arg) : `⟦arg${i}⟧`);

function tryCall(fn: (...args: unknown[]) => unknown, args: unknown[]): string | null {
  try {
    return String(fn(...args));
  } catch {
    return null;
  }
}

/**
 * Arguments for a text function: of every mix of sample kinds, the one whose text (in the reference
 * catalogue) shows the most of them without NaN or undefined — that is, the kinds its parameters have.
 */
function sampleArgs(fn: (...args: unknown[]) => unknown): unknown[] | null {
  let best: { args: unknown[]; score: number } | null = null;
  const mixes = SAMPLES.length ** fn.length;
  for (let m = 0; m < mixes; m++) {
    const args = Array.from({ length: fn.length }, (_, i) =>
      SAMPLES[Math.floor(m / SAMPLES.length ** i) % SAMPLES.length](i),
    );
    const out = tryCall(fn, args);
    if (out === null || /NaN|undefined|\[object/.test(out)) continue;
    const score = args.filter((a, i) => out.includes(tokenOf(a, i))).length;
    if (!best || score > best.score) best = { args, score };
  }
  return best?.args ?? null;
}

/** What differs between two catalogues: missing or extra keys, other arities, values one shows and the other not. */
export function catalogueProblems(reference: unknown, other: unknown, path = ''): string[] {
  if (typeof reference === 'function') {
    if (typeof other !== 'function') return [`${path}: not a function`];
    const f = reference as (...a: unknown[]) => unknown;
    const g = other as (...a: unknown[]) => unknown;
    if (f.length !== g.length) return [`${path}: ${g.length} parameters instead of ${f.length}`];
    // Dates and the like take values no sample stands for: compared through what they are called with elsewhere.
    const args = sampleArgs(f);
    if (!args) return [];
    const a = tryCall(f, args);
    const b = tryCall(g, args);
    if (a === null || b === null) return [`${path}: fails with the values the Russian text takes`];
    return args
      .map(tokenOf)
      .filter((token) => a.includes(token) !== b.includes(token))
      .map((token) => `${path}: placeholder ${token} ${a.includes(token) ? 'missing' : 'extra'}`);
  }
  if (Array.isArray(reference)) {
    if (!Array.isArray(other) || other.length !== reference.length) return [`${path}: a list of another length`];
    return reference.flatMap((item, i) => catalogueProblems(item, other[i], `${path}[${i}]`));
  }
  if (reference !== null && typeof reference === 'object') {
    if (other === null || typeof other !== 'object') return [`${path}: missing`];
    const r = reference as Tree;
    const o = other as Tree;
    return [
      ...Object.keys(r).flatMap((k) =>
        k in o ? catalogueProblems(r[k], o[k], `${path}.${k}`) : [`${path}.${k}: missing`],
      ),
      ...Object.keys(o)
        .filter((k) => !(k in r))
        .map((k) => `${path}.${k}: not in the Russian catalogue`),
    ];
  }
  if (typeof reference !== typeof other) return [`${path}: a ${typeof other} instead of a ${typeof reference}`];
  if (typeof reference === 'string' && (other as string).trim() === '') return [`${path}: empty`];
  return [];
}

/** Every text of a subtree, the functions called with sample values. */
function allTexts(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'function') {
    const fn = node as (...a: unknown[]) => unknown;
    const args = sampleArgs(fn);
    const out = args && tryCall(fn, args);
    return out ? [[path, out]] : [];
  }
  if (typeof node === 'string') return [[path, node]];
  if (node !== null && typeof node === 'object')
    return Object.entries(node).flatMap(([k, v]) => allTexts(v, `${path}.${k}`));
  return [];
}

/** Customer-facing parts: everything but the staff texts and the staff account link. */
const customerTexts = (t: BotTexts) =>
  allTexts({
    common: t.common,
    customer: t.customer,
    replies: { ...t.replies, link: {} },
    money: t.money,
    business: t.business,
    certificates: t.certificates,
  });

describe('the customer catalogues', () => {
  for (const [name, catalogue] of [
    ['en', en],
    ['sr', sr],
  ] as const) {
    it(`${name} has every key of the Russian one, and each text shows the same values`, () => {
      expect(catalogueProblems(ru, catalogue)).toEqual([]);
    });

    it(`${name} translates every customer text (no Cyrillic left) and keeps the staff texts Russian`, () => {
      const untranslated = customerTexts(catalogue).filter(([, text]) => /[А-Яа-яЁё]/.test(text));
      expect(untranslated.map(([path]) => path)).toEqual([]);
      expect(catalogue.staff).toBe(ru.staff);
      expect(catalogue.staff.payment.received).toBe(ru.staff.payment.received);
    });
  }

  it('the check finds a missing key, a dropped placeholder and an added one', () => {
    const broken = {
      ...en,
      customer: (({ seeYou: _, ...rest }) => ({ ...rest, booked: (_w: string) => '✅ Booked!' }))(en.customer),
      money: { ...en.money, paid: (amount: number) => `Paid ${amount} of ${amount}` },
      replies: { ...en.replies, my: { ...en.replies.my, item: (i: number, w: string) => `${i} ${w}` } },
    };
    const problems = catalogueProblems(ru, broken);
    expect(problems).toContain('.customer.seeYou: missing');
    expect(problems).toContain('.customer.booked: placeholder ⟦arg0⟧ missing');
    expect(problems.some((p) => p.startsWith('.replies.my.item: 2 parameters instead of 5'))).toBe(true);
    // The same values shown twice is no difference; a value shown that Russian does not show would be.
    expect(problems.filter((p) => p.startsWith('.money.paid'))).toEqual([]);
    expect(catalogueProblems({ a: (_x: string) => 'no value' }, { a: (x: string) => `value ${x}` })).toEqual([
      '.a: placeholder 401 extra',
    ]);
  });
});

describe('languages', () => {
  it("Telegram's language_code picks the catalogue; anything else is Russian", () => {
    expect(languageFromCode('en')).toBe('en');
    expect(languageFromCode('en-US')).toBe('en');
    expect(languageFromCode('sr')).toBe('sr');
    expect(languageFromCode('sr-Latn')).toBe('sr');
    expect(languageFromCode('de')).toBe('ru');
    expect(languageFromCode('uk')).toBe('ru');
    expect(languageFromCode(undefined)).toBe('ru');
    expect(textsFor('sr')).toBe(sr);
  });

  it("a browser's Accept-Language picks the first of ours by weight; anything else is Russian", () => {
    expect(languageFromAcceptLanguage('sr-RS,sr;q=0.9,en;q=0.8')).toBe('sr');
    expect(languageFromAcceptLanguage('de-DE,de;q=0.9,en-US;q=0.7,ru;q=0.8')).toBe('ru');
    expect(languageFromAcceptLanguage('de, en-GB;q=0.5')).toBe('en');
    expect(languageFromAcceptLanguage('en;q=0, sr')).toBe('sr');
    expect(languageFromAcceptLanguage('de')).toBe('ru');
    expect(languageFromAcceptLanguage('')).toBe('ru');
    expect(languageFromAcceptLanguage(undefined)).toBe('ru');
  });

  it('plural rules per language', () => {
    const hours = (n: number) => pluralIn('sr-Latn', n, { one: 'sat', few: 'sata', other: 'sati' });
    expect([1, 2, 5, 21, 22, 25].map(hours)).toEqual(['sat', 'sata', 'sati', 'sat', 'sata', 'sati']);
    expect(en.customer.reminder('Pasta', 3)).toBe('🔔 A reminder: the workshop “Pasta” is in 3 hours!');
    expect(en.customer.reminder('Pasta', 1)).toBe('🔔 A reminder: the workshop “Pasta” is in 1 hour!');
    expect(en.customer.reminder('Pasta', 48)).toBe('🔔 A reminder: the workshop “Pasta” is in 2 days!');
    expect(sr.customer.reminder('Pasta', 2)).toBe('🔔 Podsetnik: za 2 sata je radionica „Pasta“!');
    expect(sr.customer.reminder('Pasta', 5)).toBe('🔔 Podsetnik: za 5 sati je radionica „Pasta“!');
    expect(ru.customer.reminder('Паста', 2)).toBe('🔔 Напоминаем: через 2 часа мастер-класс «Паста»!');
  });

  it('dates and money in each language; Russian dates as before, money as every surface writes it', () => {
    const when = '2030-12-05T08:05:00.000Z';
    const tz = 'Europe/Belgrade';
    expect(formatDateTime(when, tz)).toBe('5 декабря 2030 9:05');
    expect(formatShortDateTime(when, tz)).toBe('5 декабря 9:05');
    expect(en.common.dateTime(when, tz)).toBe('5 December 2030 at 09:05');
    expect(sr.common.dateTime(when, tz)).toBe('5. decembar 2030. 09:05');
    expect(sr.common.shortDateTime(when, tz)).toBe('5. decembar 09:05');
    expect(ru.money.price(3500)).toBe('💰 Стоимость: 3\u00a0500\u00a0RSD');
    expect(en.money.price(3500)).toBe('💰 Price: 3,500\u00a0RSD');
    expect(sr.money.price(3500)).toBe('💰 Cena: 3.500\u00a0din.');
  });
});
