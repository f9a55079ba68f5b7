import type { StorageAdapter } from 'grammy';
import type { Database } from '../db/database';
import { deleteBotSession, readBotSession, writeBotSession } from '../db/repositories/botSessions';

/**
 * A grammY StorageAdapter over the bot_sessions table: session and conversation state live in
 * the database, so a restart (or another server instance) picks a conversation up where it was.
 * Values are stored as JSON under `prefix + key`.
 */
export class DbStorage<T> implements StorageAdapter<T> {
  constructor(
    private readonly database: Database,
    private readonly prefix: string,
  ) {}

  async read(key: string): Promise<T | undefined> {
    const raw = await readBotSession(this.database.db, this.prefix + key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }

  async write(key: string, value: T): Promise<void> {
    await writeBotSession(this.database.db, this.prefix + key, JSON.stringify(value));
  }

  async delete(key: string): Promise<void> {
    await deleteBotSession(this.database.db, this.prefix + key);
  }
}
