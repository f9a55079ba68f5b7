import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HTTP_STATUS_TEXT } from '../../contract/http';
import {
  Conflict,
  DomainError,
  Forbidden,
  Invalid,
  NotFound,
  TooManyRequests,
  Unavailable,
  Unprocessable,
} from '../../core/kernel/errors';
import { HttpError } from '../http-error';
import { integrityViolation } from '../../db/database';
import type { Language } from '../../contract/language';
import { catalogue } from '../../contract/texts';
import { sayRefusal } from '../../contract/texts/refusal';
import type { ValidationIssue } from '../../contract/texts/validation';

/** The status of each domain refusal. */
const STATUS_OF: [typeof DomainError, number][] = [
  [NotFound, 404],
  [Conflict, 409],
  [Invalid, 400],
  [Forbidden, 403],
  [Unprocessable, 422],
  [TooManyRequests, 429],
  [Unavailable, 503],
];

const INTEGRITY_DETAIL = {
  foreign_key:
    'Связанные данные изменились одновременно с этим запросом (например, мастер-класс или адрес удалён или стал использоваться). Обновите страницу и попробуйте снова.',
  unique: 'Такая запись уже есть: её создали одновременно с этим запросом. Обновите страницу.',
};

/**
 * Every error leaves as `{"detail": …}`; validation failures as 422 with a readable sentence; 5xx never leak internals.
 * A customer (a Telegram user) reads the refusals in their language (`languageOf`); staff read Russian.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  languageOf: (telegramId: number) => Promise<Language> = async () => 'ru',
): void {
  /** The caller's language: a customer's own, staff read Russian. */
  async function languageOfCaller(req: FastifyRequest): Promise<Language> {
    if (!req.telegramUser) return 'ru';
    // A database that cannot say the language (the error may be its own) leaves the refusal Russian.
    return languageOf(req.telegramUser.id).catch((): Language => 'ru');
  }

  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    if (err instanceof HttpError) {
      const detail = err.refusal ? sayRefusal(await languageOfCaller(req), err.refusal) : err.detail;
      return reply.status(err.statusCode).send({ detail });
    }
    if (err instanceof DomainError) {
      const status = STATUS_OF.find(([kind]) => err instanceof kind)?.[1] ?? 400;
      return reply.status(status).send({ detail: sayRefusal(await languageOfCaller(req), err) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const language = await languageOfCaller(req);
      const context = err.validationContext ?? 'body';
      const errors = err.validation.map((v) => {
        // The zod issue: its code is the keyword, its values the params, its path the instance path.
        const issue: ValidationIssue = { ...(v.params as Omit<ValidationIssue, 'code'>), code: v.keyword };
        const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const missing = valueAt(requestPart(req, context), field ? field.split('.') : []) == null;
        // A schema made without contract/zod.ts says zod's English: "… received undefined".
        const own = /received undefined/.test(v.message ?? '')
          ? catalogue('ru').validation({ code: 'invalid_type' }, true)
          : (v.message ?? 'Некорректное значение');
        // Russian is each schema's own message; another language says the rule from the issue's values.
        const msg = language === 'ru' ? own : catalogue(language).validation(issue, missing);
        return { loc: [context, ...(field ? field.split('.') : [])], msg };
      });
      const detail = errors.map((e) => (e.loc.length > 1 ? `${e.loc.slice(1).join('.')}: ${e.msg}` : e.msg)).join('; ');
      return reply.status(422).send({ detail, errors });
    }
    // A concurrent change got past the request's checks (e.g. a workshop deleted while a session is
    // created on it): the database's own rule refused the write, nothing was written.
    const violation = integrityViolation(err);
    if (violation) {
      req.log.info({ err }, 'write refused by an integrity rule');
      return reply.status(409).send({ detail: INTEGRITY_DETAIL[violation] });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send({ detail: 'Internal Server Error' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send({ detail: status === 429 ? err.message : err.message || HTTP_STATUS_TEXT[status] || 'Bad Request' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal Server Error' });
  });

  app.setNotFoundHandler((req, reply) => reply.status(404).send({ detail: 'Not Found' }));
}

/** The part of the request a validation error is about. */
function requestPart(req: FastifyRequest, context: string): unknown {
  return context === 'querystring'
    ? req.query
    : context === 'params'
      ? req.params
      : context === 'headers'
        ? req.headers
        : req.body;
}

/** The value at a path in parsed input, undefined where the path leads nowhere. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    value,
  );
}

/**
 * For Fastify's `frameworkErrors`: failures found before a route is chosen (a path that is not valid
 * percent-encoding such as /api/v1/schedule/%C0%AE, a too-long parameter) answer like every other error.
 */
export function frameworkError(err: FastifyError): { status: number; body: { detail: string } } {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  return { status, body: { detail: err.code === 'FST_ERR_BAD_URL' ? 'Некорректный адрес запроса' : err.message } };
}

/**
 * Fastify's `clientErrorHandler`: what Node refuses before there is a request at all (a header block
 * over the size limit, a request not received in time, bytes that are not HTTP) still answers
 * {"detail"} JSON, then the connection is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail = {
    431: 'Заголовки запроса слишком большие',
    408: 'Запрос не получен полностью вовремя',
    400: 'Некорректный HTTP-запрос',
  }[status];
  const body = JSON.stringify({ detail });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}
