import type { Context } from 'grammy';
import type { ConversationFlavor } from '@grammyjs/conversations';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../server/config';
import type { Database } from '../db/database';
import type { RenderContext } from './messages';

/** The context of the bot's middleware (outside conversations). */
export type BotContext = ConversationFlavor<Context>;

export type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

/** What the bot is built from: the same database, services and repositories as the API. */
export interface BotDeps {
  config: Config;
  database: Database;
  log: Log;
}

export const renderContext = (config: Config): RenderContext => ({
  publicUrl: config.publicUrl,
  timezone: config.businessTimezone,
  businessName: config.businessName,
});

/** Replies in HTML: every user-provided piece of text is escaped in messages.ts. */
export const HTML = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true } };
