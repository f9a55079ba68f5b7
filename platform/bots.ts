import { nowIso } from '../db/database';
import type { PlatformStore } from './store';
import { encrypt, sha256, webhookSecretOf } from './secrets';

/*
 * Studios' bots in the platform store: the token sealed, and the hash of the webhook secret by which
 * an update finds its studio.
 */

export interface BotIdentity {
  id: number;
  username: string;
  token: string;
}

/** Gives the studio this bot (or this bot a new token); answers the webhook secret to register with Telegram. */
export async function attachBot(store: PlatformStore, secretKey: string, studioId: number, bot: BotIdentity) {
  const secret = webhookSecretOf(secretKey, bot.token);
  const row = {
    studio_id: studioId,
    username: bot.username,
    token: encrypt(secretKey, bot.token),
    secret_hash: sha256(secret),
    state: 'ok' as const,
    problem: null,
    updated_at: nowIso(),
  };
  await store.db
    .insertInto('bots')
    .values({ bot_id: bot.id, ...row })
    .onConflict((oc) => oc.column('bot_id').doUpdateSet(row))
    .execute();
  return { secret };
}

/** A bot that can no longer be used (revoked, deleted): its studio's updates are refused and it sends nothing. */
export async function markBotLost(store: PlatformStore, botId: number, problem: string) {
  await store.db
    .updateTable('bots')
    .set({ state: 'lost', problem, updated_at: nowIso() })
    .where('bot_id', '=', botId)
    .execute();
}
