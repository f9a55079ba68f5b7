import type { StudioProfile, StudioUpdate } from '../../contract/studio';
import { bool, type Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { readBusinessSettings, writeBusinessSettings } from '../../db/repositories/business-settings';
import {
  clearTelegramIdOfOthers,
  getUserByEmail,
  getUserByTelegramId,
  insertUser,
  toUserPublic,
  updateUser,
  type UserPatch,
  type UserRow,
} from '../../db/repositories/users';
import { SYSTEM, assertCan, type Actor } from '../kernel/actor';
import { Conflict, Invalid } from '../kernel/errors';
import { publish } from '../notify/publish';
import { generatePassword, hashPassword } from './passwords';
import { USER_MSG } from './users';

/*
 * The studio as its owner sets it up: its name and time zone (kept by the platform, which serves each
 * studio with its own; a single-studio installation has them in the server's settings), the first-run
 * wizard's «done», and the owner's way in from the platform's bot: a one-time link instead of a password.
 */

/** The platform's side of a studio's name and zone (absent in a single-studio installation). */
export interface StudioProfiles {
  profile(): Promise<{ name: string; timezone: string }>;
  /** Stores them; the platform then reopens the studio so its configuration follows. */
  updateProfile(patch: { name?: string; timezone?: string }): Promise<void>;
}

/** The platform's one-time login links of this studio. */
export interface LoginLinks {
  /** The link's Telegram user when the token is this studio's, unused and unexpired (then it is used up), else null. */
  redeemLoginLink(token: string): Promise<{ telegramId: number; firstName?: string } | null>;
}

export const STUDIO_MSG = { linkExpired: 'loginLinkExpired', profileFixed: 'studioProfileFixed' } as const;

/** The business setting the wizard's «Готово» sets. */
const SETUP_DONE = 'setup_done';

/** The email of an account made from a Telegram login: unique per Telegram id, never mailed to. */
export const telegramPlaceholderEmail = (telegramId: number, n = 1) =>
  `tg${telegramId}${n > 1 ? `-${n}` : ''}@telegram.local`;

/**
 * The owner comes in by the platform bot's link: the link is used up (once, however many clicks race),
 * and the staff account of that Telegram user is found, or made, with the owner's role. The platform
 * sends these links only to the studio's owner, so an account already linked to that Telegram user (it
 * was linked by that user's own Telegram) becomes the owner's. A new one gets a placeholder email and a
 * password nobody knows: the owner sets a real email and password later.
 */
export async function loginByTelegramLink(
  database: Database,
  links: LoginLinks | null,
  token: string,
): Promise<UserRow> {
  const redeemed = links ? await links.redeemLoginLink(token) : null;
  if (!redeemed) throw new Invalid(STUDIO_MSG.linkExpired);
  const telegramId = redeemed.telegramId;
  // Hashed before the transaction (it takes tens of milliseconds), and only when there may be no account.
  const known = await getUserByTelegramId(database.db, telegramId);
  const hashed = known ? null : await hashPassword(generatePassword());
  return withWriteTransaction(database, async (trx) => {
    const existing = await getUserByTelegramId(trx, telegramId);
    if (existing) {
      if (!bool(existing.is_active)) throw new Invalid(USER_MSG.inactive);
      if (toUserPublic(existing).role === 'owner') return existing;
      const patch: UserPatch = { role: 'owner' };
      const after = (await updateUser(trx, existing.id, patch)) ?? existing;
      await publish(trx, [
        {
          type: 'entity.updated',
          actor: SYSTEM,
          entity: 'user',
          entity_id: existing.id,
          before: toUserPublic(existing),
          after: toUserPublic(after),
        },
      ]);
      return after;
    }
    // A placeholder taken (an earlier account of this Telegram user that was unlinked, or anyone who typed
    // it) is never taken over: the next free one is used.
    let n = 1;
    while (await getUserByEmail(trx, telegramPlaceholderEmail(telegramId, n))) n++;
    const made = await insertUser(trx, {
      email: telegramPlaceholderEmail(telegramId, n),
      hashed_password: hashed ?? (await hashPassword(generatePassword())),
      full_name: redeemed.firstName?.trim().slice(0, 30) || null,
      is_active: true,
      is_superuser: true,
      role: 'owner',
    });
    await clearTelegramIdOfOthers(trx, telegramId, made.id);
    const user = (await updateUser(trx, made.id, { telegram_id: telegramId })) ?? made;
    await publish(trx, [
      { type: 'entity.created', actor: SYSTEM, entity: 'user', entity_id: user.id, after: toUserPublic(user) },
    ]);
    return user;
  });
}

async function setupDone(database: Database): Promise<boolean> {
  return (await readBusinessSettings(database.db))[SETUP_DONE] === true;
}

/**
 * The studio's name and zone (the platform's, else the server's own `fallback`) and whether setup is
 * done. A single studio has nothing for the wizard to set (its name and zone are the server's settings),
 * so it counts as set up.
 */
export async function viewStudio(
  database: Database,
  actor: Actor,
  profiles: StudioProfiles | null,
  fallback: { name: string; timezone: string },
): Promise<StudioProfile> {
  assertCan(actor, 'business.read');
  if (!profiles) return { ...fallback, setup_done: true };
  const [profile, done] = await Promise.all([profiles.profile(), setupDone(database)]);
  return { name: profile.name, timezone: profile.timezone, setup_done: done };
}

/**
 * The owner renames the studio or changes its zone. Logged (as the studio's settings) before the platform
 * stores it: the platform closes this studio's database right after, to reopen it with the new values.
 */
export async function changeStudio(
  database: Database,
  actor: Actor,
  profiles: StudioProfiles | null,
  patch: StudioUpdate,
): Promise<void> {
  assertCan(actor, 'business.settings');
  if (!profiles) throw new Conflict(STUDIO_MSG.profileFixed);
  const before = await profiles.profile();
  const changed: { name?: string; timezone?: string } = {};
  if (patch.name !== undefined && patch.name !== before.name) changed.name = patch.name;
  if (patch.timezone !== undefined && patch.timezone !== before.timezone) changed.timezone = patch.timezone;
  if (Object.keys(changed).length === 0) return;
  // In the log the name is the studio's «Название».
  const logged = (p: { name?: string; timezone?: string }) => ({
    ...(changed.name !== undefined && { title: p.name }),
    ...(changed.timezone !== undefined && { timezone: p.timezone }),
  });
  await withWriteTransaction(database, (trx) =>
    publish(trx, [
      {
        type: 'entity.updated',
        actor,
        entity: 'business_settings',
        entity_id: 0,
        before: logged(before),
        after: logged(changed),
      },
    ]),
  );
  await profiles.updateProfile(changed);
}

/** The owner finished the wizard (or skipped through it); a second time changes nothing. */
export async function finishSetup(database: Database, actor: Actor): Promise<void> {
  assertCan(actor, 'business.settings');
  if (await setupDone(database)) return;
  await withWriteTransaction(database, async (trx) => {
    await writeBusinessSettings(trx, { [SETUP_DONE]: true });
    await publish(trx, [
      {
        type: 'entity.updated',
        actor,
        entity: 'business_settings',
        entity_id: 0,
        before: { [SETUP_DONE]: false },
        after: { [SETUP_DONE]: true },
      },
    ]);
  });
}
