import type { FastifyRequest } from 'fastify';
import { SYSTEM, customerActor, staffActor, type Actor } from '../../core/kernel/actor';

/**
 * Who is behind a request, as the auth hook verified it: the staff member (a host with its days on the
 * studio's clock), else the Telegram customer.
 */
export const actorOf = (req: FastifyRequest): Actor =>
  req.staff
    ? staffActor(req.staff, req.server.businessTimezone)
    : req.telegramUser
      ? customerActor(req.telegramUser.id)
      : SYSTEM;
