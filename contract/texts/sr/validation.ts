import { pluralIn } from '../../format';
import { LOCALES } from '../../language';
import type { SayIssue } from '../validation';

/* What a refused field says to a Serbian-speaking customer (the API's 422), Latin script. */

const locale = LOCALES.sr;
const FORMATS: Record<string, string> = {
  email: 'Neispravna email adresa',
  url: 'Neispravan link',
  datetime: 'Neispravni datum i vreme',
  date: 'Neispravan datum',
  time: 'Neispravno vreme',
};
const units = (origin: string | undefined, n: number) =>
  origin === 'string'
    ? ` ${pluralIn(locale, n, { one: 'znak', few: 'znaka', other: 'znakova' })}`
    : origin === 'array' || origin === 'set'
      ? ` ${pluralIn(locale, n, { one: 'stavka', few: 'stavke', other: 'stavki' })}`
      : '';

export const validation: SayIssue = (issue, missing) => {
  switch (issue.code) {
    case 'invalid_type':
      if (missing) return 'Obavezno polje';
      if (issue.expected === 'number') return 'Unesite broj';
      if (issue.expected === 'int') return 'Unesite ceo broj';
      return 'Pogrešna vrsta vrednosti';
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string' && n === 1) return 'Obavezno polje';
      return issue.inclusive === false ? `Mora biti veće od ${n}` : `Najmanje ${n}${units(issue.origin, n)}`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      return issue.inclusive === false ? `Mora biti manje od ${n}` : `Najviše ${n}${units(issue.origin, n)}`;
    }
    case 'invalid_format':
      return FORMATS[issue.format ?? ''] ?? 'Pogrešan format';
    case 'not_multiple_of':
      return `Mora biti deljivo sa ${issue.divisor}`;
    case 'invalid_value':
      return `Dozvoljene vrednosti: ${(issue.values ?? []).map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `Nepoznata polja: ${(issue.keys ?? []).join(', ')}`;
    default:
      return 'Neispravna vrednost';
  }
};
