import type { Capability } from '../contract/roles';
import { actorCan, staffActor, type StaffActor } from '../core/kernel/actor';
import { bool } from '../db/database';
import { getUserByTelegramId } from '../db/repositories/users';
import type { BotDeps } from './context';

/**
 * The staff member behind a Telegram account, as an actor (a host with their days on the studio's clock):
 * an active account linked to it whose role has the capability (contract/roles.ts), else null.
 * Every staff feature of the bot asks here, so the bot and the API answer a role alike.
 */
export async function staffActorOf(
  deps: Pick<BotDeps, 'database' | 'config'>,
  telegramId: number,
  capability: Capability,
): Promise<StaffActor | null> {
  const user = await getUserByTelegramId(deps.database.db, telegramId);
  if (!user || !bool(user.is_active)) return null;
  const actor = staffActor(user, deps.config.businessTimezone);
  return actorCan(actor, capability) ? actor : null;
}
