import { DEFAULT_SETTINGS, type Settings } from '../../contract';
import { bool, flag, type Executor } from '../database';

export async function getSettings(db: Executor, userId: number): Promise<Settings> {
  const row = await db.selectFrom('settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return DEFAULT_SETTINGS;
  return {
    notifications: {
      userApply: bool(row.user_apply),
      userCancel: bool(row.user_cancel),
      scheduled1d: bool(row.scheduled_1d),
    },
  };
}

export async function saveSettings(db: Executor, userId: number, s: Settings): Promise<Settings> {
  const values = {
    user_apply: flag(s.notifications.userApply),
    user_cancel: flag(s.notifications.userCancel),
    scheduled_1d: flag(s.notifications.scheduled1d),
  };
  await db
    .insertInto('settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
  return getSettings(db, userId);
}
