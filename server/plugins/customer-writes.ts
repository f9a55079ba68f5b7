import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';

/** Changes a Telegram user may make per minute (book, change, cancel, restore, …): far above a person's need, far below a script's. */
export const CUSTOMER_WRITES_PER_MINUTE = 20;
const TOO_MANY_CHANGES = { code: 'tooManyChanges' } as const;

/**
 * One counter per Telegram user over every writing request a customer makes (any method but GET and
 * HEAD, on any route), so a script cannot churn bookings and the notifications they write. Staff are
 * not limited. Runs after the access check, which sets `telegramUser`.
 */
export function registerCustomerWriteLimit(app: FastifyInstance, max: number): void {
  const customerWrites = app.createRateLimit({
    max,
    timeWindow: 60_000,
    keyGenerator: (req) => `customer-writes:${req.telegramUser?.id ?? 0}`,
  });
  app.addHook('preHandler', async (req) => {
    if (!req.telegramUser || req.method === 'GET' || req.method === 'HEAD') return;
    const limit = await customerWrites(req);
    if (!limit.isAllowed && limit.isExceeded) throw new HttpError(429, TOO_MANY_CHANGES);
  });
}
