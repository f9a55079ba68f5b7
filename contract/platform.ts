/*
 * The platform owner's API (`/api/platform/*`, platform/routes.ts) as its page (admin/src/platform/)
 * reads it. Plain types: the page loads no zod for them.
 */

export type PlatformStudioStatus = 'active' | 'suspended' | 'failed' | 'moving';

/** What a studio's outbox says, read from its own database. */
export interface PlatformStudioHealth {
  /** Notifications not yet sent nor failed for good (due now or waiting for a retry). */
  pending: number;
  /** Age of the oldest of them, seconds; null when there is none. */
  oldest_pending_s: number | null;
  /** Pending ones whose last attempt failed (they wait for their next try). */
  retrying: number;
  /** Notifications written in the last 24 h that failed for good (blocked bot, refused, too many tries). */
  failed_24h: number;
  /**
   * Telegram's 429 answers in the last 24 h, counted by this server while it ran (the outbox does not
   * store them: a 429 is no failed attempt); null when this server does not count them.
   */
  rate_limited_24h: number | null;
  /** The latest delivery error of the last 24 h, as the outbox stored it. */
  last_error: string | null;
  /** When the notification that had it was written. */
  last_error_at: string | null;
}

/** Telegram's getWebhookInfo of the studio's bot. */
export interface PlatformWebhook {
  url: string;
  pending_update_count: number;
  last_error: string | null;
  last_error_at: string | null;
}

export interface PlatformStudio {
  id: number;
  slug: string;
  name: string;
  status: PlatformStudioStatus;
  /** Why it is not served (a failed migration, who suspended it and when); null when served. */
  problem: string | null;
  /** The database server holding it ("main": DATABASE_URL). */
  server: string;
  /** The last migration its database ran. */
  version: string;
  created_at: string;
  owner_telegram_id: number | null;
  bot: { username: string; state: 'ok' | 'lost'; problem: string | null } | null;
  /** null when its database could not be read (health_problem says why). */
  health: PlatformStudioHealth | null;
  health_problem: string | null;
  /** null: no working bot, or Telegram did not answer in time. */
  webhook: PlatformWebhook | null;
}

export interface PlatformStudioList {
  studios: PlatformStudio[];
  /** The code's last migration: a studio at another version has not been migrated yet. */
  latest_version: string;
}

export interface PlatformOwner {
  id: number;
  email: string;
}

export interface PlatformDeleted {
  slug: string;
  /** Whether Telegram confirmed that the bot's webhook is gone. */
  webhook_removed: boolean;
  /** Why not (Telegram unreachable or refused), null when it was or there was no bot. */
  webhook_problem: string | null;
}

/** The platform's paths, for the page and the tests. */
export const PLATFORM_API = '/api/platform';
export const PLATFORM_TOKEN_KEY = 'platform_token';
