import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { consumeToken, insertToken } from '../../db/repositories/tokens';
import { clearTelegramIdOfOthers, updateUser, type UserRow } from '../../db/repositories/users';

/** Linking a staff account to Telegram: a one-time deep link `t.me/<bot>?start=link_<token>`, valid 15 minutes. */
export const LINK_TTL_MS = 15 * 60 * 1000;
export const LINK_PREFIX = 'link_';

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** A new token for this user; only its hash is stored. Telegram allows 64 characters of [A-Za-z0-9_-] after ?start=. */
export async function createLinkToken(
  database: Database,
  userId: number,
  nowMs = Date.now(),
): Promise<{ token: string; expires_at: string }> {
  const token = crypto.randomBytes(24).toString('base64url');
  const expires_at = new Date(nowMs + LINK_TTL_MS).toISOString();
  await insertToken(database.db, 'telegram_links', { token_hash: hash(token), user_id: userId, expires_at });
  return { token, expires_at };
}

export const linkUrl = (botUsername: string, token: string) =>
  `https://t.me/${botUsername}?start=${LINK_PREFIX}${token}`;

/**
 * Uses the token once: the user gets this Telegram account (id and handle), which no other
 * staff member keeps. Null when the token is unknown, used or expired.
 */
export async function consumeLinkToken(
  database: Database,
  token: string,
  tg: { id: number; username?: string },
): Promise<UserRow | null> {
  return withWriteTransaction(database, async (trx) => {
    const userId = await consumeToken(trx, 'telegram_links', hash(token), nowIso());
    if (userId === null) return null;
    await clearTelegramIdOfOthers(trx, tg.id, userId);
    return (await updateUser(trx, userId, { telegram_id: tg.id, telegram_login: tg.username ?? null })) ?? null;
  });
}
