import { pluralIn } from '../../format';
import { LOCALES } from '../../language';
import type { SayIssue } from '../validation';

/* What a refused field says to an English-speaking customer (the API's 422). */

const locale = LOCALES.en;
const FORMATS: Record<string, string> = {
  email: 'Not a valid email address',
  url: 'Not a valid link',
  datetime: 'Not a valid date and time',
  date: 'Not a valid date',
  time: 'Not a valid time',
};
const units = (origin: string | undefined, n: number) =>
  origin === 'string'
    ? ` ${pluralIn(locale, n, { one: 'character', other: 'characters' })}`
    : origin === 'array' || origin === 'set'
      ? ` ${pluralIn(locale, n, { one: 'item', other: 'items' })}`
      : '';

export const validation: SayIssue = (issue, missing) => {
  switch (issue.code) {
    case 'invalid_type':
      if (missing) return 'Required';
      if (issue.expected === 'number') return 'Enter a number';
      if (issue.expected === 'int') return 'Enter a whole number';
      return 'Wrong kind of value';
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string' && n === 1) return 'Required';
      return issue.inclusive === false ? `Must be more than ${n}` : `At least ${n}${units(issue.origin, n)}`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      return issue.inclusive === false ? `Must be less than ${n}` : `At most ${n}${units(issue.origin, n)}`;
    }
    case 'invalid_format':
      return FORMATS[issue.format ?? ''] ?? 'Wrong format';
    case 'not_multiple_of':
      return `Must be a multiple of ${issue.divisor}`;
    case 'invalid_value':
      return `Allowed values: ${(issue.values ?? []).map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `Unknown fields: ${(issue.keys ?? []).join(', ')}`;
    default:
      return 'Invalid value';
  }
};
