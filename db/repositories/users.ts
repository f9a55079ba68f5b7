import { sql, type Selectable } from 'kysely';
import type { UserPublic } from '../../contract';
import { bool, flag, nowIso, type Executor } from '../database';
import { prepared } from '../prepared';
import type { UsersTable } from '../schema';

export type UserRow = Selectable<UsersTable>;

export const toUserPublic = (u: UserRow): UserPublic => ({
  id: u.id,
  email: u.email,
  full_name: u.full_name,
  is_active: bool(u.is_active),
  is_superuser: bool(u.is_superuser),
  telegram_id: u.telegram_id,
  telegram_login: u.telegram_login,
  role: bool(u.is_superuser) ? 'owner' : u.role === 'host' ? 'host' : 'manager',
});

export const getUserById = (db: Executor, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const getUserByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

export const getUserByTelegramId = (db: Executor, telegramId: number) =>
  db.selectFrom('users').selectAll().where('telegram_id', '=', telegramId).executeTakeFirst();

export async function listUsers(db: Executor, skip: number, limit: number) {
  const [rows, total] = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').offset(skip).limit(limit).execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export const countUsers = async (db: Executor) =>
  Number(
    (
      await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export interface UserInsert {
  email: string;
  hashed_password: string;
  full_name?: string | null;
  is_active: boolean;
  is_superuser: boolean;
  /** Wins over is_superuser when both are given; is_superuser is kept equal to role = owner. */
  role?: 'owner' | 'manager' | 'host';
}

export const insertUser = (db: Executor, u: UserInsert) =>
  db
    .insertInto('users')
    .values({
      email: u.email.toLowerCase(),
      hashed_password: u.hashed_password,
      full_name: u.full_name ?? null,
      is_active: flag(u.is_active),
      is_superuser: flag((u.role ?? (u.is_superuser ? 'owner' : 'manager')) === 'owner'),
      role: u.role ?? (u.is_superuser ? 'owner' : 'manager'),
      telegram_id: null,
      telegram_login: null,
      created_at: nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

export interface UserPatch {
  email?: string;
  full_name?: string | null;
  hashed_password?: string;
  is_active?: boolean;
  is_superuser?: boolean;
  role?: 'owner' | 'manager' | 'host';
  telegram_id?: number | null;
  telegram_login?: string | null;
}

export async function updateUser(db: Executor, id: number, patch: UserPatch) {
  const { is_active, is_superuser, role, email, ...rest } = patch;
  // One truth: is_superuser is role = owner. A role wins; the flag alone makes an owner, or turns one into a manager.
  const roleValues =
    role !== undefined
      ? { role, is_superuser: flag(role === 'owner') }
      : is_superuser !== undefined
        ? {
            is_superuser: flag(is_superuser),
            role: is_superuser
              ? ('owner' as const)
              : sql<'manager' | 'host'>`case when role = 'owner' then 'manager' else role end`,
          }
        : {};
  const values = {
    ...rest,
    ...(email !== undefined && { email: email.toLowerCase() }),
    ...(is_active !== undefined && { is_active: flag(is_active) }),
    ...roleValues,
  };
  if (Object.keys(values).length === 0) return getUserById(db, id);
  return db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Ends every access token signed so far for this user (they carry the previous version). */
export const bumpTokenVersion = (db: Executor, id: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .execute();

export const deleteUser = (db: Executor, id: number) => db.deleteFrom('users').where('id', '=', id).execute();

/**
 * Staff who get a Telegram alert of this kind: active, linked to Telegram, and not opted out. A host gets
 * only the day-before summary (a session within a day): alerts about bookings, cancellations and payments
 * name sessions on any date, beyond a host's today and tomorrow.
 */
type AlertSetting = 'user_apply' | 'user_cancel' | 'scheduled_1d';

const recipientsQuery = (setting: AlertSetting) =>
  prepared((db: Executor) => {
    const query = db
      .selectFrom('users')
      .leftJoin('settings', 'settings.user_id', 'users.id')
      .select(['users.id', 'users.telegram_id', `settings.${setting} as enabled`])
      .where('users.telegram_id', 'is not', null)
      .where('users.is_active', '=', 1);
    return setting === 'scheduled_1d' ? query : query.where('users.role', '!=', 'host');
  });
const recipientsOf = {
  user_apply: recipientsQuery('user_apply'),
  user_cancel: recipientsQuery('user_cancel'),
  scheduled_1d: recipientsQuery('scheduled_1d'),
};

export async function listAlertRecipients(db: Executor, setting: AlertSetting) {
  const rows = await recipientsOf[setting](db);
  // No settings row means the defaults: everything on.
  return rows
    .filter((r) => r.enabled === null || bool(r.enabled))
    .map((r) => ({ user_id: r.id, chat_id: r.telegram_id as number }));
}

/** One Telegram account alerts one staff member: forgets it on every other user (linking it to `keepUserId`). */
export const clearTelegramIdOfOthers = (db: Executor, telegramId: number, keepUserId: number) =>
  db
    .updateTable('users')
    .set({ telegram_id: null, telegram_login: null })
    .where('telegram_id', '=', telegramId)
    .where('id', '!=', keepUserId)
    .execute();
