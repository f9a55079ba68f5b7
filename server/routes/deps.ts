import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../../db/database';
import type { Update } from 'grammy/types';
import type { Mailer } from '../email';
import type { Invoicing } from '../../core/payments/invoices';
import type { InvoiceParams } from '../../core/payments/telegram';
import type { PreparedInlineMessage, ShareArticle } from '../../core/journey/share-messages';

export type InvoiceLinkParams = InvoiceParams & { provider_token: string };

/** What route modules get from buildApp. */
export interface RouteDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Requests per window: login per client a minute, recovery per client per 15 minutes, customer writes per Telegram user a minute. */
  rateLimits: { login: number; passwordRecovery: number; customerWrites: number };
  lifecycle: Lifecycle;
}

/** The instance's state that readiness reports. */
export interface Lifecycle {
  /** Stopping (SIGTERM): it finishes what it has and takes nothing new, so readiness answers 503. */
  draining: boolean;
}

/** What the HTTP server needs of the Telegram bot; main.ts hands it the bot's runtime. */
export interface TelegramGateway {
  /** Timing-safe check of the X-Telegram-Bot-Api-Secret-Token header. */
  verifySecret(header: unknown): boolean;
  /**
   * Handles one webhook update once it succeeds, whichever instance gets it: `busy` while another instance
   * handles it; throws when its handling failed (Telegram sends it again).
   */
  handleUpdate(update: Update): Promise<'handled' | 'busy'>;
  /** The bot's @username. */
  username(): Promise<string>;
  /** A Telegram invoice link (createInvoiceLink); absent: payments are not wired. */
  createInvoiceLink?(params: InvoiceLinkParams): Promise<string>;
  /** A message the customer shares from the mini-app (savePreparedInlineMessage); absent: sharing is not wired. */
  savePreparedInlineMessage?(userId: number, result: ShareArticle): Promise<PreparedInlineMessage>;
}

/**
 * What a studio's server needs of the platform that serves it (absent in a single-studio installation):
 * the studio's name and zone, which the platform keeps, and its one-time login links (the onboarding
 * bot sends them to the studio's owner). The platform builds one per studio (platform/studio-gateway.ts).
 */
export interface StudioGateway {
  /** The studio's name and IANA time zone as the platform stores them now. */
  profile(): Promise<{ name: string; timezone: string }>;
  /** Stores the given fields; the platform then reopens the studio (after this request's answer) so its configuration follows. */
  updateProfile(patch: { name?: string; timezone?: string }): Promise<void>;
  /** Uses the link up, once: its Telegram user when the token is this studio's, unused and unexpired, else null. */
  redeemLoginLink(token: string): Promise<{ telegramId: number; firstName?: string } | null>;
}

/** Telegram payments when the provider token is set and the bot can make invoice links, else null. */
export function invoicingOf(
  config: Pick<Config, 'paymentProviderToken'>,
  telegram: TelegramGateway | null,
): Invoicing | null {
  const token = config.paymentProviderToken;
  const create = telegram?.createInvoiceLink;
  return token && telegram && create
    ? { providerToken: token, createInvoiceLink: (p) => create.call(telegram, p) }
    : null;
}
