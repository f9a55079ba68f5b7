import type { FastifyRequest } from 'fastify';
import { SYSTEM, customerActor, staffActor, type Actor } from '../../core/notify/audit';

/** Who is behind a request, for the audit log: the staff member, else the Telegram customer. */
export const actorOf = (req: FastifyRequest): Actor =>
  req.staff ? staffActor(req.staff) : req.telegramUser ? customerActor(req.telegramUser.id) : SYSTEM;
