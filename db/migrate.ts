import type { DB } from './schema';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/20261121_0001_initial';

/** Statically imported so the migrations run the same under tsx, vitest and a bundle. */
const migrations: Record<string, Migration> = {
  '20261121_0001_initial': m0001,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<DB>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

export async function migrateDown(db: Kysely<DB>): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateDown();
  if (error) throw error;
}
