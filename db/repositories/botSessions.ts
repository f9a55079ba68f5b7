import type { Executor } from '../database';

/** grammY session and conversation state (bot/storage.ts), one JSON value per key. */
export async function readBotSession(db: Executor, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('bot_sessions').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function writeBotSession(db: Executor, key: string, value: string): Promise<void> {
  await db
    .insertInto('bot_sessions')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export async function deleteBotSession(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('bot_sessions').where('key', '=', key).execute();
}

/** The grammY session and conversation state of a private chat (keys end in `:<chat id>`). */
export const deleteBotSessionsOfChat = (db: Executor, chatId: number) =>
  db
    .deleteFrom('bot_sessions')
    .where((eb) => eb.or([eb('key', '=', String(chatId)), eb('key', 'like', `%:${chatId}`)]))
    .executeTakeFirst();
