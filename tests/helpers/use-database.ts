import { afterAll, beforeAll } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { freshDatabaseUrl } from './db';

/**
 * The core suite's fixture: a fresh, migrated database for a whole test file, without HTTP (SQLite, or
 * PostgreSQL with TEST_DATABASE_URL), dropped after the last test. `ready` hands it to the file.
 */
export function useDatabase(ready: (database: Database) => unknown): void {
  let fresh: Awaited<ReturnType<typeof freshDatabaseUrl>> | undefined;
  let database: Database | undefined;
  beforeAll(async () => {
    fresh = await freshDatabaseUrl();
    database = createDb(fresh.url);
    await migrateToLatest(database.db);
    await ready(database);
  });
  afterAll(async () => {
    await database?.close();
    await fresh?.drop();
  });
}
