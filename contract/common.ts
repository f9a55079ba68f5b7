import { z } from './zod';

/** Every error body of the API. */
export const HTTPError = z.object({ detail: z.unknown() });
export type HTTPError = z.infer<typeof HTTPError>;

export const Message = z.object({ message: z.string() });
export type Message = z.infer<typeof Message>;

/** The answer of the health and readiness checks. */
export const HealthCheck = z.boolean();

/** Ids are 32-bit integer columns on both databases. */
export const ID_MAX = 2_147_483_647;
/** The id no row has. */
export const NO_ID = 0;
const toId = (n: number) => (n >= 1 && n <= ID_MAX ? n : NO_ID);
const WHOLE = { message: 'Ожидалось целое число' };

/**
 * An id from outside (a body's field): a whole number. One outside 1..ID_MAX cannot exist (a 32-bit
 * column would refuse the number itself), so it becomes NO_ID, which matches no row: the caller gets
 * the very "not found" of a missing id.
 */
export const idField = (error?: string) =>
  z
    .number(error ? { error } : undefined)
    .refine(Number.isInteger, WHOLE)
    .transform(toId);
/** The same for a path or query parameter, which comes as text. */
export const idParam = z.coerce.number().refine(Number.isInteger, WHOLE).transform(toId);

/** A path's id. */
export const IdParam = z.object({ id: idParam });

export const Pagination = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** Timestamps travel as ISO 8601 strings in UTC ("2026-11-21T12:00:00.000Z"). */
export const IsoDateTime = z.iso.datetime({ offset: true });

export const PASSWORD_MIN = 8;
export const FULL_NAME_MAX = 30;
export const PEOPLE_MIN = 1;
export const PEOPLE_MAX = 8;
export const DEFAULT_PRICE = 3500;
export const DEFAULT_CAPACITY = 8;

export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), count: z.number().int() });

/** A required, trimmed, non-empty string with a Russian message for forms and the API alike. */
export const requiredText = (message: string, max = 500) => z.string().trim().min(1, message).max(max);

/**
 * Control characters (C0 but tab, line feed and carriage return, and DEL): no text field has a use
 * for them, and PostgreSQL refuses NUL in text, so every input string is checked against this on
 * both databases alike.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const CONTROL_CHARACTER_MESSAGE = 'Недопустимые управляющие символы в тексте';

/** Where strings with control characters sit in an input (body, query or path parameters), as paths. */
export function controlCharacterPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => controlCharacterPaths(v, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [
      ...(CONTROL_CHARACTER.test(k) ? [[...path, k]] : []),
      ...controlCharacterPaths(v, [...path, k]),
    ]);
  return [];
}
