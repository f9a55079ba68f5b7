import { calendarPath } from '../core/journey/calendar';
import type { Context } from 'grammy';
import type { ConversationFlavor } from '@grammyjs/conversations';
import type { Database } from '../db/database';
import type { Log } from '../core/kernel/log';
import type { RenderContext } from './messages';
import type { Language } from '../contract/language';
import type { BotTexts } from './texts';

/** The language of the update's sender and its catalogue, set for every update (features/language.ts). */
export interface LanguageFlavor {
  language: Language;
  t: BotTexts;
}

/** The context of the bot's middleware (outside conversations). */
export type BotContext = ConversationFlavor<Context & LanguageFlavor>;

export type { Log };

/** The part of the configuration the bot reads. */
export interface BotConfig {
  botToken?: string;
  botMode: 'webhook' | 'polling';
  webhookSecret: string;
  telegramApiRoot: string;
  publicUrl: string;
  businessName: string;
  businessTimezone: string;
  /** Signs the calendar links (the same key as the API's). */
  secretKey: string;
  /** Telegram payments (from @BotFather → Payments); absent: no invoices. */
  paymentProviderToken?: string | null;
  /** Minutes after staff wrote in a business chat during which the bot does not answer there (default 30). */
  businessQuietMinutes?: number;
}

/** What the bot is built from: the same database and core functions as the API. */
export interface BotDeps {
  config: BotConfig;
  database: Database;
  log: Log;
}

export const renderContext = (config: BotConfig): RenderContext => ({
  publicUrl: config.publicUrl,
  timezone: config.businessTimezone,
  businessName: config.businessName,
  calendarPath: (recordId) => calendarPath(config.secretKey, recordId),
  paymentProviderToken: config.paymentProviderToken ?? undefined,
});

/** Replies in HTML: the text catalogue (bot/texts) escapes every user-provided piece of text. */
export const HTML = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true } };
