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
  Unprocessable,
} from '../../core/kernel/errors';
import { HttpError } from '../http-error';
import { integrityViolation } from '../../db/database';
import type { Language } from '../../contract/language';
import { localizeRefusal } from '../../core/language/api-texts';

/** The status of each domain refusal. */
const STATUS_OF: [typeof DomainError, number][] = [
  [NotFound, 404],
  [Conflict, 409],
  [Invalid, 400],
  [Forbidden, 403],
  [Unprocessable, 422],
  [TooManyRequests, 429],
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
  async function said(req: FastifyRequest, detail: string, err?: DomainError): Promise<string> {
    if (!req.telegramUser) return detail;
    // A database that cannot say the language (the error may be its own) leaves the refusal Russian.
    const language = await languageOf(req.telegramUser.id).catch((): Language => 'ru');
    return localizeRefusal(detail, language, err?.texts);
  }

  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    if (err instanceof HttpError) return reply.status(err.statusCode).send({ detail: await said(req, err.detail) });
    if (err instanceof DomainError) {
      const status = STATUS_OF.find(([kind]) => err instanceof kind)?.[1] ?? 400;
      return reply.status(status).send({ detail: await said(req, err.message, err) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = err.validation.map((v) => {
        const field =
          [(v.params as { issue?: { path?: PropertyKey[] } } | undefined)?.issue?.path ?? []].flat().join('.') ||
          v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const msg = /received undefined/.test(v.message ?? '')
          ? 'Обязательное поле'
          : (v.message ?? 'Некорректное значение');
        return { loc: [err.validationContext ?? 'body', ...(field ? field.split('.') : [])], msg };
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
