import type { Config } from '../server/config';
import type { OnboardingPort } from './onboarding-port';
import type { PlatformStore } from './store';
import type { StudioHost } from './host';
import { createStudio, slugOf, type Servers } from './studios';
import { attachBot, markBotLost, setUpBot } from './bots';
import { createLoginLink, loginUrl } from './login-links';

/*
 * What the platform's own bot does in the platform: a studio for an owner's new bot (its database, its
 * bot set up with Telegram, a one-time login link), a bot's new token, a bot lost.
 */

/** A bot already serving another owner's studio: its token alone (leaked, pasted) opens nothing. */
export class NotYourBot extends Error {
  constructor() {
    super('Этот бот уже подключён к студии другого владельца.');
  }
}

export function onboardingPort(deps: {
  config: Config;
  store: PlatformStore;
  servers: Servers;
  host: StudioHost;
}): OnboardingPort {
  const { config, store, servers, host } = deps;
  const linkOf = async (studio: { id: number; slug: string }, telegramId: number) =>
    loginUrl(config.publicUrl, studio.slug, await createLoginLink(store, studio.id, telegramId));

  const studioOfBot = (botId: number) =>
    store.db
      .selectFrom('bots')
      .innerJoin('studios', 'studios.id', 'bots.studio_id')
      .select(['studios.id', 'studios.slug', 'studios.owner_telegram_id', 'bots.username'])
      .where('bots.bot_id', '=', botId)
      .executeTakeFirst();

  return {
    async createStudio({ ownerTelegramId, ownerName, bot }) {
      const existing = await studioOfBot(bot.id);
      if (existing) {
        if (existing.owner_telegram_id !== ownerTelegramId) throw new NotYourBot();
        return { slug: existing.slug, loginUrl: await linkOf(existing, ownerTelegramId) };
      }
      const studio = await createStudio(store, servers, config.dataDir, {
        name: bot.firstName || `Студия ${ownerName}`,
        slug: slugOf(bot.username),
        timezone: config.businessTimezone,
        ownerTelegramId,
      });
      await attachBot(store, config.secretKey, studio.id, bot);
      // Telegram unreachable: the studio works already, its bot is set up at the next start.
      await setUpBot(store, config, bot.id);
      return { slug: studio.slug, loginUrl: await linkOf(studio, ownerTelegramId) };
    },
    async replaceToken(botId, token) {
      const studio = await studioOfBot(botId);
      if (!studio) return false;
      await attachBot(store, config.secretKey, studio.id, { id: botId, username: studio.username, token });
      await setUpBot(store, config, botId);
      // Its live contexts still hold the old token: they open again with the new one.
      await host.closeStudio(studio.slug);
      return true;
    },
    async botLost(botId, reason) {
      await markBotLost(store, botId, reason);
      const studio = await studioOfBot(botId);
      if (studio) await host.closeStudio(studio.slug);
    },
    async studiosOf(ownerTelegramId) {
      const rows = await store.db
        .selectFrom('studios')
        .leftJoin('bots', 'bots.studio_id', 'studios.id')
        .select(['studios.id', 'studios.slug', 'studios.name', 'bots.username', 'bots.bot_id'])
        .where('studios.owner_telegram_id', '=', ownerTelegramId)
        .orderBy('studios.id')
        .execute();
      return Promise.all(
        rows.map(async (r) => ({
          slug: r.slug,
          name: r.name,
          botUsername: r.username ?? '',
          botId: r.bot_id ?? undefined,
          loginUrl: await linkOf(r, ownerTelegramId),
        })),
      );
    },
  };
}
