import type { UserMe, UserPublic } from '../../contract';
import { capabilitiesOf } from '../../contract/roles';
import { bool, integrityViolation, type Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { consumeToken, insertToken, revokeUserTokens } from '../../db/repositories/tokens';
import { clearLoginFailures, countLoginFailures, recordLoginFailure } from '../../db/repositories/login-failures';
import {
  bumpTokenVersion,
  countUsers,
  deleteUser,
  getUserByEmail,
  getUserById,
  insertUser,
  toUserPublic,
  updateUser,
  type UserPatch,
  type UserRow,
} from '../../db/repositories/users';
import { Conflict, Forbidden, Invalid, NotFound, TooManyRequests } from '../kernel/errors';
import { SYSTEM, assertCan, staffRole, type Actor } from '../kernel/actor';
import { deleteAudited } from '../notify/audited-change';
import { publish } from '../notify/publish';
import type { Executor } from '../../db/database';
import { generatePassword, hashPassword, newToken, sha256, verifyDummy, verifyPassword } from './passwords';

/** Staff accounts: creation, credentials and password resets. */

export const USER_MSG = {
  emailTaken: 'emailTaken',
  badCredentials: 'badCredentials',
  inactive: 'inactive',
  wrongPassword: 'wrongPassword',
  samePassword: 'samePassword',
  badResetToken: 'badResetToken',
  tooManyFailures: 'tooManyFailures',
} as const;

/** Failed logins allowed per email in LOGIN_FAILURE_WINDOW_MS, from any number of addresses. */
export const LOGIN_FAILURES_MAX = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

/** How long a password-reset link works. */
export const RESET_TOKEN_HOURS = 48;

/** Refuses an email that another account (not `selfId`) already has. */
export async function assertEmailFree(database: Database, email: string | undefined, selfId = 0): Promise<void> {
  if (email === undefined) return;
  const other = await getUserByEmail(database.db, email);
  if (other && other.id !== selfId) throw new Conflict(USER_MSG.emailTaken);
}

export interface NewUser {
  email: string;
  password: string;
  full_name?: string | null;
  is_active: boolean;
  is_superuser: boolean;
}

export async function createUser(database: Database, u: NewUser, actor: Actor = SYSTEM): Promise<UserPublic> {
  await assertEmailFree(database, u.email);
  const { password, ...rest } = u;
  const hashed_password = await hashPassword(password);
  return withWriteTransaction(database, async (trx) => {
    const user = toUserPublic(await insertUser(trx, { ...rest, full_name: u.full_name || null, hashed_password }));
    await publish(trx, [{ type: 'entity.created', actor, entity: 'user', entity_id: user.id, after: user }]);
    return user;
  });
}

/**
 * The account behind a login; the same time is spent whether or not the email exists. After
 * LOGIN_FAILURES_MAX failures of one email within the window, that email is refused without checking
 * the password (so rotating client addresses gains nothing) until the window has passed.
 */
export async function authenticate(database: Database, email: string, password: string): Promise<UserRow> {
  const now = Date.now();
  const windowStart = new Date(now - LOGIN_FAILURE_WINDOW_MS).toISOString();
  if ((await countLoginFailures(database.db, email, windowStart)) >= LOGIN_FAILURES_MAX)
    throw new TooManyRequests(USER_MSG.tooManyFailures);
  const user = await getUserByEmail(database.db, email);
  const ok = user ? await verifyPassword(password, user.hashed_password) : await verifyDummy(password);
  if (!user || !ok) {
    await recordLoginFailure(database.db, email, new Date(now).toISOString(), windowStart);
    throw new Invalid(USER_MSG.badCredentials);
  }
  if (!bool(user.is_active)) throw new Invalid(USER_MSG.inactive);
  await clearLoginFailures(database.db, email);
  return user;
}

/**
 * The one way a password is set on an existing account: every access token signed before it and
 * every outstanding reset link stop working.
 */
async function setPassword(trx: Executor, userId: number, hashed: string): Promise<void> {
  await updateUser(trx, userId, { hashed_password: hashed });
  await bumpTokenVersion(trx, userId);
  await revokeUserTokens(trx, 'password_resets', userId, new Date().toISOString());
}

export async function changeOwnPassword(database: Database, me: UserRow, current: string, next: string): Promise<void> {
  if (!(await verifyPassword(current, me.hashed_password))) throw new Invalid(USER_MSG.wrongPassword);
  if (current === next) throw new Invalid(USER_MSG.samePassword);
  const hashed = await hashPassword(next);
  await withWriteTransaction(database, (trx) => setPassword(trx, me.id, hashed));
}

/** A superuser's edit of an account; a new password is hashed here. */
export async function editUser(
  database: Database,
  actor: Actor,
  id: number,
  patch: Omit<UserPatch, 'hashed_password'> & { password?: string },
): Promise<UserPublic> {
  assertCan(actor, 'users.manage');
  if (!(await getUserById(database.db, id))) throw new NotFound(ACCESS_MSG.notFound);
  await assertEmailFree(database, patch.email ?? undefined, id);
  const { password, ...rest } = patch;
  const clean: UserPatch = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  // Clearing the Telegram id (the only change allowed to it here) forgets the handle too.
  if (clean.telegram_id === null) clean.telegram_login = null;
  const hashed = password ? await hashPassword(password) : undefined;
  return withWriteTransaction(database, async (trx) => {
    const before = await getUserById(trx, id);
    if (hashed) await setPassword(trx, id, hashed);
    const after = await updateUser(trx, id, clean);
    // The log says a password was set, never what it is.
    const mark = (u: UserRow, pw: string) => ({ ...toUserPublic(u), ...(hashed && { password: pw }) });
    if (before && after)
      await publish(trx, [
        {
          type: 'entity.updated',
          actor,
          entity: 'user',
          entity_id: id,
          before: mark(before, '—'),
          after: mark(after, 'изменён'),
        },
      ]);
    if (!after) throw new NotFound(ACCESS_MSG.notFound);
    return toUserPublic(after);
  });
}

/** The owner adds a staff account. */
export function addUser(database: Database, actor: Actor, u: NewUser): Promise<UserPublic> {
  assertCan(actor, 'users.manage');
  return createUser(database, u, actor);
}

/** A one-time reset token for an existing active account (only its hash is stored), or null. */
export async function createResetToken(
  database: Database,
  email: string,
): Promise<{ user: UserRow; token: string } | null> {
  const user = await getUserByEmail(database.db, email);
  if (!user || !bool(user.is_active)) return null;
  const { token, hash } = newToken();
  const expires = new Date(Date.now() + RESET_TOKEN_HOURS * 3600_000).toISOString();
  await insertToken(database.db, 'password_resets', { token_hash: hash, user_id: user.id, expires_at: expires });
  return { user, token };
}

export async function resetPassword(database: Database, token: string, newPassword: string): Promise<void> {
  const hashed = await hashPassword(newPassword);
  await withWriteTransaction(database, async (trx) => {
    const userId = await consumeToken(trx, 'password_resets', sha256(token), new Date().toISOString());
    if (userId === null) throw new Invalid(USER_MSG.badResetToken);
    await setPassword(trx, userId, hashed);
  });
}

/** On the first start (no user at all) creates the superuser; returns the password when it was generated. */
export async function ensureFirstSuperuser(
  database: Database,
  first: { email: string; password?: string },
): Promise<{ email: string; password: string; generated: boolean } | null> {
  if ((await countUsers(database.db)) > 0) return null;
  const generated = !first.password;
  const password = first.password ?? generatePassword();
  try {
    await insertUser(database.db, {
      email: first.email,
      hashed_password: await hashPassword(password),
      full_name: null,
      is_active: true,
      is_superuser: true,
    });
  } catch (err) {
    // Instances started together on a new database: another one created it (and prints its password).
    if (integrityViolation(err) === 'unique') return null;
    throw err;
  }
  return { email: first.email, password, generated };
}

export const ACCESS_MSG = {
  notFound: 'userNotFound',
  deleteSelf: 'deleteSelf',
  openRegistration: 'openRegistration',
} as const;

/** The caller's own account and what their role may do (the admin's pages and menu follow it). */
export const viewMe = (me: UserRow): UserMe => ({ ...toUserPublic(me), capabilities: capabilitiesOf(staffRole(me)) });

/** An account as a staff member may see it: their own, or any for the owner. */
export async function viewUser(database: Database, actor: Actor, id: number): Promise<UserPublic> {
  assertCan(actor, 'account');
  if (id !== actor.user_id) assertCan(actor, 'users.manage');
  const user = await getUserById(database.db, id);
  if (!user) throw new NotFound(ACCESS_MSG.notFound);
  return toUserPublic(user);
}

/** A staff member's own name and email; their Telegram link may only be cleared here (linking is the bot's one-time link). */
export async function updateOwnProfile(
  database: Database,
  actor: Actor,
  input: { email?: string; full_name?: string | null; telegram_id?: number | null },
): Promise<UserPublic> {
  assertCan(actor, 'account');
  await assertEmailFree(database, input.email, actor.user_id);
  const patch: UserPatch = { email: input.email, full_name: input.full_name };
  if (input.telegram_id === null) Object.assign(patch, { telegram_id: null, telegram_login: null });
  const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  return withWriteTransaction(database, async (trx) => {
    const before = await getUserById(trx, actor.user_id);
    if (!before) throw new NotFound(ACCESS_MSG.notFound);
    const after = (await updateUser(trx, actor.user_id, clean)) ?? before;
    await publish(trx, [
      {
        type: 'entity.updated',
        actor,
        entity: 'user',
        entity_id: actor.user_id,
        before: toUserPublic(before),
        after: toUserPublic(after),
      },
    ]);
    return toUserPublic(after);
  });
}

/** Sign-up without an invitation, when the server allows it: an active account without rights. */
export function registerOpen(
  database: Database,
  allowed: boolean,
  input: { email: string; password: string; full_name?: string | null },
): Promise<UserPublic> {
  if (!allowed) throw new Forbidden(ACCESS_MSG.openRegistration);
  return createUser(database, { ...input, is_active: true, is_superuser: false });
}

/** The owner deletes another account; the log keeps what it was (a deleted user's changes then read «удалённый пользователь»). */
export async function removeUser(database: Database, actor: Actor, id: number): Promise<void> {
  assertCan(actor, 'users.manage');
  if (id === actor.user_id) throw new Forbidden(ACCESS_MSG.deleteSelf);
  const deleted = await deleteAudited(
    database,
    'user',
    id,
    actor,
    async (trx) => {
      const u = await getUserById(trx, id);
      return u && toUserPublic(u);
    },
    (trx) => deleteUser(trx, id),
  );
  if (!deleted) throw new NotFound(ACCESS_MSG.notFound);
}
