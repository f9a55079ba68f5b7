import { describe, expect, it } from 'vitest';
import { catalogues } from '../../contract/texts';
import { ru } from '../../webapp/src/i18n';

const { en, sr } = { en: catalogues.en.app, sr: catalogues.sr.app };

/* The mini-app's English and Serbian catalogues against the Russian one: the same keys, each text shows the same values. */

type Fn = (...args: unknown[]) => unknown;
/** Sample arguments: every parameter a distinct number, or every one a distinct text. */
const samples = (n: number): unknown[][] => [
  Array.from({ length: n }, (_, i) => 401 + 10 * i),
  Array.from({ length: n }, (_, i) => `⟦arg${i}⟧`),
];
const call = (fn: Fn, args: unknown[]) => {
  try {
    return String(fn(...args));
  } catch {
    return null;
  }
};

export function problems(reference: unknown, other: unknown, path = ''): string[] {
  if (typeof reference === 'function') {
    if (typeof other !== 'function') return [`${path}: not a function`];
    const f = reference as Fn;
    const g = other as Fn;
    if (f.length !== g.length) return [`${path}: ${g.length} parameters instead of ${f.length}`];
    return samples(f.length).flatMap((args) => {
      const a = call(f, args);
      const b = call(g, args);
      if (a === null || /NaN|undefined/.test(a)) return [];
      if (b === null) return [`${path}: fails with the values the Russian text takes`];
      return args
        .map(String)
        .filter((token) => a.includes(token) !== b.includes(token))
        .map((token) => `${path}: placeholder ${token} ${a.includes(token) ? 'missing' : 'extra'}`);
    });
  }
  if (reference !== null && typeof reference === 'object') {
    if (other === null || typeof other !== 'object') return [`${path}: missing`];
    const r = reference as Record<string, unknown>;
    const o = other as Record<string, unknown>;
    return [
      ...Object.keys(r).flatMap((k) => (k in o ? problems(r[k], o[k], `${path}.${k}`) : [`${path}.${k}: missing`])),
      ...Object.keys(o)
        .filter((k) => !(k in r))
        .map((k) => `${path}.${k}: not in the Russian catalogue`),
    ];
  }
  if (typeof reference !== typeof other) return [`${path}: a ${typeof other} instead of a ${typeof reference}`];
  if (typeof reference === 'string' && (other as string).trim() === '') return [`${path}: empty`];
  return [];
}

/** Every text, functions called with sample numbers and texts. */
function texts(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'function')
    return samples((node as Fn).length).flatMap((args) => {
      const out = call(node as Fn, args);
      return out && !/NaN|undefined/.test(out) ? [[path, out] as [string, string]] : [];
    });
  if (typeof node === 'string') return [[path, node]];
  if (node !== null && typeof node === 'object')
    return Object.entries(node).flatMap(([k, v]) => texts(v, `${path}.${k}`));
  return [];
}

describe("the mini-app's catalogues", () => {
  for (const [name, catalogue] of [
    ['en', en],
    ['sr', sr],
  ] as const) {
    it(`${name} has every key of the Russian one, and each text shows the same values`, () => {
      expect(problems(ru, catalogue)).toEqual([]);
    });
    it(`${name} leaves no Russian text`, () => {
      const { fmt: _, ...rest } = catalogue;
      expect(texts(rest).filter(([path, text]) => /[А-Яа-яЁё]/.test(text) && path !== '.payment.reference')).toEqual(
        [],
      );
    });
  }

  it('the Russian catalogue is the shared one, whole; the certificate texts have every key in each language', () => {
    expect(catalogues.ru.app).toBe(ru);
    expect(ru.contact).toBeDefined();
    for (const name of ['en', 'sr'] as const) {
      const certificates = catalogues[name].appCertificates;
      expect(problems(catalogues.ru.appCertificates, certificates)).toEqual([]);
      expect(texts(certificates).filter(([, text]) => /[А-Яа-яЁё]/.test(text))).toEqual([]);
    }
  });

  it('the check finds a missing key, a dropped placeholder and an extra one', () => {
    const broken = {
      ...en,
      common: (({ retry: _, ...rest }) => rest)(en.common),
      schedule: { ...en.schedule, seatsLeft: (_n: number) => 'Some seats left' },
      wizard: { ...en.wizard, showAll: (n: number) => `Show ${n}` },
    };
    const found = problems(ru, broken);
    expect(found).toContain('.common.retry: missing');
    expect(found).toContain('.schedule.seatsLeft: placeholder 401 missing');
    expect(found).toContain(
      '.wizard.showAll: not a function'.replace('not a function', 'a function instead of a string'),
    );
  });

  it('plurals, money and dates in each language', () => {
    expect([1, 2, 5, 21].map(ru.schedule.seatsLeft)).toEqual([
      'Осталось 1 место',
      'Осталось 2 места',
      'Осталось 5 мест',
      'Осталось 21 место',
    ]);
    expect([1, 2, 5].map(en.schedule.seatsLeft)).toEqual(['1 seat left', '2 seats left', '5 seats left']);
    expect([1, 3, 5].map(sr.schedule.seatsLeft)).toEqual([
      'Ostalo je 1 mesto',
      'Ostala su 3 mesta',
      'Ostalo je 5 mesta',
    ]);
    expect([ru, en, sr].map((c) => c.fmt.price(3500))).toEqual([
      '3\u00a0500\u00a0RSD',
      '3,500\u00a0RSD',
      '3.500\u00a0din.',
    ]);
    const when = '2030-12-05T08:05:00.000Z';
    const tz = 'Europe/Belgrade';
    expect([ru, en, sr].map((c) => c.fmt.weekday(when, tz))).toEqual(['четверг', 'Thursday', 'četvrtak']);
    expect(en.fmt.dateTime(when, tz)).toBe('5 December 2030 at 09:05');
    expect(sr.fmt.dateTime(when, tz)).toBe('5. decembar 2030. 09:05');
  });
});
