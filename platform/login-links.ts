import crypto from 'node:crypto';
import { nowIso } from '../db/database';
import type { PlatformStore } from './store';
import { sha256 } from './secrets';

/*
 * One-time login links into a studio's admin, which the onboarding bot sends the studio's owner: the
 * link's token is random and stored only as its SHA-256, works once, in its own studio only, until it
 * expires. The studio's page `/s/<slug>/welcome?token=…` redeems it (POST /login/telegram-link) and
 * opens the first-run wizard.
 */

/** How long a link works when the bot does not say. */
export const LOGIN_LINK_TTL_MS = 60 * 60_000;

/** A new link's raw token (32 random bytes, base64url): only its hash is stored. */
export async function createLoginLink(
  store: PlatformStore,
  studioId: number,
  telegramId: number,
  ttlMs: number = LOGIN_LINK_TTL_MS,
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await store.db
    .insertInto('login_links')
    .values({
      token_hash: sha256(token),
      studio_id: studioId,
      telegram_id: telegramId,
      expires_at: new Date(Date.now() + ttlMs).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/** The link the bot sends: the studio's welcome page under the platform's public URL. */
export const loginUrl = (publicUrl: string, slug: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/s/${slug}/welcome?token=${encodeURIComponent(token)}`;

/**
 * Uses the link up and answers its Telegram user, or null (unknown, another studio's, used, expired).
 * One UPDATE … WHERE used_at IS NULL decides: of two clicks at once, the one whose statement changes the
 * row gets it, the other changes nothing and is refused.
 */
export async function redeemLoginLink(
  store: PlatformStore,
  studioId: number,
  token: string,
): Promise<{ telegramId: number } | null> {
  const now = nowIso();
  const row = await store.db
    .updateTable('login_links')
    .set({ used_at: now })
    .where('token_hash', '=', sha256(token))
    .where('studio_id', '=', studioId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('telegram_id')
    .executeTakeFirst();
  return row ? { telegramId: Number(row.telegram_id) } : null;
}
