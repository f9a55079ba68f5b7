import type { StudioGateway } from '../server/routes/deps';
import type { StudioHost } from './host';
import type { PlatformStore } from './store';
import { redeemLoginLink } from './login-links';
import { describeStudioBot } from './bot-setup';

export { createLoginLink, loginUrl, LOGIN_LINK_TTL_MS } from './login-links';

/**
 * What one studio's server gets of the platform (AppDeps.studio): its name and zone from the platform
 * store, changed there, and its owner's one-time login links. A change reopens the studio, so its
 * configuration (the pages' name and zone, the bot's texts, the jobs' clock) follows it: the close waits
 * until the request that made the change has been answered, as that request runs inside the studio's app.
 * A new name is also the bot's description's (what a customer reads before pressing Start).
 */
export function studioGateway(
  store: PlatformStore,
  host: Pick<StudioHost, 'closeStudio'>,
  studioId: number,
  slug: string,
  log?: { error(obj: object, msg: string): void },
  bot?: { apiRoot: string; token: string } | null,
): StudioGateway {
  return {
    async profile() {
      const row = await store.db
        .selectFrom('studios')
        .select(['name', 'timezone'])
        .where('id', '=', studioId)
        .executeTakeFirstOrThrow();
      return { name: row.name, timezone: row.timezone };
    },
    async updateProfile(patch) {
      const values = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.timezone !== undefined && { timezone: patch.timezone }),
      };
      if (Object.keys(values).length === 0) return;
      await store.db.updateTable('studios').set(values).where('id', '=', studioId).execute();
      // Telegram's answer is not waited for; a refusal leaves the old description and is logged.
      if (bot && patch.name !== undefined)
        describeStudioBot({ ...bot, studioName: patch.name }).catch((err: unknown) =>
          log?.error({ err, studio: slug }, "platform: the bot's description could not be renamed"),
        );
      // After this request's answer has gone (it is answered in this tick's microtasks; setImmediate runs after them).
      setImmediate(() => {
        host
          .closeStudio(slug)
          .catch((err: unknown) => log?.error({ err, studio: slug }, 'platform: reopening the studio failed'));
      });
    },
    redeemLoginLink: (token) => redeemLoginLink(store, studioId, token),
  };
}
