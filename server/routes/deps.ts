import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../../db/database';
import type { Mailer } from '../services/email';

/** What route modules get from buildApp. */
export interface RouteDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  log: FastifyBaseLogger;
  rateLimits: { login: number; passwordRecovery: number };
}
