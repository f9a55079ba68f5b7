import type { Executor } from '../database';

/** One-time tokens (password reset, Telegram link), stored only as hashes. */
export type TokenTable = 'password_resets' | 'telegram_links';

export const insertToken = (
  db: Executor,
  table: TokenTable,
  row: { token_hash: string; user_id: number; expires_at: string },
) =>
  db
    .insertInto(table)
    .values({ ...row, used_at: null })
    .execute();

/** Marks the token used and returns its user id, atomically: a token works once, and only before it expires. */
export async function consumeToken(
  db: Executor,
  table: TokenTable,
  tokenHash: string,
  now: string,
): Promise<number | null> {
  const row = await db
    .updateTable(table)
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Ends every outstanding token of a user (a password change ends all reset links). */
export const revokeUserTokens = (db: Executor, table: TokenTable, userId: number, now: string) =>
  db.updateTable(table).set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
