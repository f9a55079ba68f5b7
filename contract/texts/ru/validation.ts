import { plural } from '../../format';
import type { SayIssue } from '../validation';

/*
 * A refused field in Russian: zod's own messages (contract/zod.ts sets them for every schema), what a
 * form shows and what the API's 422 says when a rule has no message of its own (a schema's message,
 * always Russian, wins). A dozen lines instead of zod's Russian locale, whose texts name types.
 */

const CHARACTERS = ['символ', 'символа', 'символов'] as const;
const ITEMS = ['элемент', 'элемента', 'элементов'] as const;
const EXPECTED: Record<string, string> = { string: 'текст', boolean: 'да или нет', array: 'список', object: 'объект' };
const FORMATS: Record<string, string> = {
  email: 'Некорректный email адрес',
  url: 'Некорректная ссылка',
  datetime: 'Некорректные дата и время',
  date: 'Некорректная дата',
  time: 'Некорректное время',
};

const units = (origin: string | undefined, n: number) =>
  origin === 'string'
    ? ` ${plural(n, CHARACTERS)}`
    : origin === 'array' || origin === 'set'
      ? ` ${plural(n, ITEMS)}`
      : '';

export const validation: SayIssue = (issue, missing) => {
  switch (issue.code) {
    case 'invalid_type':
      if (missing) return 'Обязательное поле';
      if (issue.expected === 'number') return 'Введите число';
      if (issue.expected === 'int') return 'Введите целое число';
      return `Ожидается ${EXPECTED[issue.expected ?? ''] ?? issue.expected}`;
    case 'too_small': {
      const n = Number(issue.minimum);
      // min(1) on a text is "required".
      if (issue.origin === 'string' && n === 1) return 'Обязательное поле';
      return issue.inclusive === false ? `Должно быть больше ${n}` : `Минимум ${n}${units(issue.origin, n)}`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      return issue.inclusive === false ? `Должно быть меньше ${n}` : `Максимум ${n}${units(issue.origin, n)}`;
    }
    case 'invalid_format':
      return FORMATS[issue.format ?? ''] ?? 'Неверный формат';
    case 'not_multiple_of':
      return `Должно быть кратно ${issue.divisor}`;
    case 'invalid_value':
      return `Допустимые значения: ${(issue.values ?? []).map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `Лишние поля: ${(issue.keys ?? []).join(', ')}`;
    default:
      return 'Некорректное значение';
  }
};
