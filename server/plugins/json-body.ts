import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';

/** No body of the API or of Telegram nests deeper; checks that walk a body recursively stay safe below it. */
export const JSON_DEPTH_MAX = 64;
export const JSON_TOO_DEEP = `Слишком глубокая вложенность JSON: не больше ${JSON_DEPTH_MAX} уровней`;

/** The deepest nesting of objects and arrays in JSON text, counted without parsing it (no recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) max = Math.max(max, ++depth);
    else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return max;
}

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), but refused with 400 when nested
 * deeper than JSON_DEPTH_MAX, before anything walks them.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDepth(body as string) > JSON_DEPTH_MAX) return done(new HttpError(400, JSON_TOO_DEEP), undefined);
    return parse(req, body as string, done);
  });
}
