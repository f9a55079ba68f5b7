import type { Config } from '../config';
import type { Database } from '../../db/database';
import { countUsers, insertUser } from '../../db/repositories/users';
import { generatePassword, hashPassword } from './security';

/** On the first start (no user at all) creates the superuser; returns the password when it was generated. */
export async function ensureFirstSuperuser(database: Database, config: Config): Promise<{ email: string; password: string; generated: boolean } | null> {
  if ((await countUsers(database.db)) > 0) return null;
  const generated = !config.firstSuperuserPassword;
  const password = config.firstSuperuserPassword ?? generatePassword();
  await insertUser(database.db, {
    email: config.firstSuperuser,
    hashed_password: await hashPassword(password),
    full_name: null,
    is_active: true,
    is_superuser: true,
  });
  return { email: config.firstSuperuser, password, generated };
}
