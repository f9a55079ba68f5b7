import { nowIso } from '../db/database';
import { API_PREFIX } from '../server/app';
import { WEBHOOK_PATH } from '../server/routes/telegram';
import { ALLOWED_UPDATES } from '../bot/runtime';
import type { Config } from '../server/config';
import type { PlatformStore } from './store';
import { decrypt, encrypt, sha256, webhookSecretOf } from './secrets';
import { setUpStudioBot } from './bot-setup';

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
    // Its webhook, commands and menu button are set by setUpBot, which clears this.
    problem: SETUP_PENDING,
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

/** A bot whose webhook, commands and menu button are not set yet (Telegram was unreachable): tried again at start. */
export const SETUP_PENDING = 'setup-pending';

/**
 * Sets a studio's bot up with Telegram: the platform's one webhook with the bot's own secret, the
 * commands, the «Записаться» menu button under the studio's address, the descriptions. A failure leaves
 * it pending (with why) for the next start.
 */
export async function setUpBot(store: PlatformStore, config: Config, botId: number): Promise<boolean> {
  const row = await store.db
    .selectFrom('bots')
    .innerJoin('studios', 'studios.id', 'bots.studio_id')
    .select(['bots.token', 'studios.slug', 'studios.name'])
    .where('bots.bot_id', '=', botId)
    .executeTakeFirstOrThrow();
  const token = decrypt(config.secretKey, row.token);
  try {
    // Who the bot is (an adopted single studio's bot is known by its token only).
    const me = (await (await fetch(`${config.telegramApiRoot}/bot${token}/getMe`)).json()) as {
      ok: boolean;
      result?: { username?: string };
      description?: string;
    };
    if (!me.ok || !me.result?.username) throw new Error(`getMe: ${me.description ?? 'no answer'}`);
    await store.db.updateTable('bots').set({ username: me.result.username }).where('bot_id', '=', botId).execute();
    await setUpStudioBot({
      apiRoot: config.telegramApiRoot,
      token,
      webhookUrl: `${config.publicUrl}${API_PREFIX}${WEBHOOK_PATH}`,
      webhookSecret: webhookSecretOf(config.secretKey, token),
      publicUrl: `${config.publicUrl}/s/${row.slug}`,
      studioName: row.name,
      allowedUpdates: ALLOWED_UPDATES,
    });
    await store.db
      .updateTable('bots')
      .set({ problem: null, updated_at: nowIso() })
      .where('bot_id', '=', botId)
      .execute();
    return true;
  } catch (err) {
    const problem = `${SETUP_PENDING}: ${err instanceof Error ? err.message : String(err)}`;
    await store.db.updateTable('bots').set({ problem, updated_at: nowIso() }).where('bot_id', '=', botId).execute();
    return false;
  }
}

/** Every bot still pending set-up, tried again (at start). */
export async function setUpPendingBots(store: PlatformStore, config: Config): Promise<void> {
  const pending = await store.db
    .selectFrom('bots')
    .select('bot_id')
    .where('state', '=', 'ok')
    .where('problem', 'like', `${SETUP_PENDING}%`)
    .execute();
  for (const b of pending) await setUpBot(store, config, b.bot_id);
}
