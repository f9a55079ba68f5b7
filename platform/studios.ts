import path from 'node:path';
import fs from 'node:fs';
import { sql, type Selectable } from 'kysely';
import { createDb, inSchema, nowIso, type Database } from '../db/database';
import { LATEST_MIGRATION, migrateToLatest } from '../db/migrate';
import type { PlatformStore, StudiosTable } from './store';
import { attachBot } from './bots';

/*
 * Where a studio's data lives and how it gets there: SQLite, a file of its own under
 * <DATA_DIR>/studios; PostgreSQL, a schema of its own (studio_<id>) on one of the configured servers.
 * core/ runs on a studio's database as on a single studio's: nothing of another studio is reachable
 * from it.
 */

export type Studio = Selectable<StudiosTable>;

/** The PostgreSQL servers studios live on, one pool each, opened when first used. */
export interface Servers {
  dialect: Database['dialect'];
  names(): string[];
  url(name: string): string;
  get(name: string): Database;
  close(): Promise<void>;
}

export function createServers(urls: Record<string, string>, opts: { poolSize?: number } = {}): Servers {
  const open = new Map<string, Database>();
  const url = (name: string) => {
    const u = urls[name];
    if (!u) throw new Error(`no database server named ${name}`);
    return u;
  };
  return {
    dialect: urls.main.startsWith('sqlite:') ? 'sqlite' : 'postgres',
    names: () => Object.keys(urls),
    url,
    get(name) {
      let d = open.get(name);
      // No schema to fall back on: a statement that does not name its studio's schema fails loudly
      // instead of reaching the default schema's tables (a first studio's data).
      if (!d) open.set(name, (d = createDb(url(name), { ...opts, searchPath: NO_SCHEMA })));
      return d;
    },
    async close() {
      await Promise.all([...open.values()].map((d) => d.close()));
      open.clear();
    },
  };
}

/** A schema that never exists: the search_path of the studios' pools. */
const NO_SCHEMA = 'no_studio_schema';

/** The schema of a new studio on PostgreSQL, or its file under the data folder on SQLite. */
export const newLocation = (dialect: Database['dialect'], id: number) =>
  dialect === 'postgres' ? `studio_${id}` : path.join('studios', `${id}.db`);

const sqliteFile = (dataDir: string, location: string) => path.resolve(dataDir, location);

/** The studio's database, as core/ uses it. Closing it closes a SQLite file; a PostgreSQL pool is the server's. */
export function openStudioDatabase(studio: Studio, servers: Servers, dataDir: string): Database {
  if (servers.dialect === 'sqlite') return createDb(`sqlite:${sqliteFile(dataDir, studio.location)}`);
  return inSchema(servers.get(studio.server), studio.location);
}

/**
 * Runs the studio's pending migrations. PostgreSQL: on a connection of their own whose search_path is
 * the studio's schema (migrations name their tables unqualified), closed afterwards, so no pooled
 * connection ever has a studio's search_path.
 */
export async function migrateStudioDatabase(
  studio: Pick<Studio, 'server' | 'location'>,
  servers: Servers,
  dataDir: string,
): Promise<void> {
  if (servers.dialect === 'sqlite') {
    const file = sqliteFile(dataDir, studio.location);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const d = createDb(`sqlite:${file}`);
    try {
      await migrateToLatest(d.db);
    } finally {
      await d.close();
    }
    return;
  }
  await sql`create schema if not exists ${sql.id(studio.location)}`.execute(servers.get(studio.server).db);
  const d = createDb(servers.url(studio.server), { poolSize: 1, searchPath: studio.location });
  try {
    await migrateToLatest(d.db, studio.location);
  } finally {
    await d.close();
  }
}

/** Migrates one studio and records it: a failure marks that studio failed (with why) and leaves the others. */
export async function migrateStudio(store: PlatformStore, servers: Servers, dataDir: string, studio: Studio) {
  try {
    await migrateStudioDatabase(studio, servers, dataDir);
    await store.db
      .updateTable('studios')
      .set({
        version: LATEST_MIGRATION,
        ...(studio.status === 'failed' && { status: 'active' as const, problem: null }),
      })
      .where('id', '=', studio.id)
      .execute();
    return { ok: true as const };
  } catch (err) {
    const problem = `Миграция не прошла: ${err instanceof Error ? err.message : String(err)}`;
    await store.db.updateTable('studios').set({ status: 'failed', problem }).where('id', '=', studio.id).execute();
    return { ok: false as const, problem };
  }
}

/**
 * Every studio at an older version, migrated one after another (a deploy runs it): resumable, as each
 * studio's version is recorded when it is done; one that fails stops only itself.
 */
export async function migrateStudios(store: PlatformStore, servers: Servers, dataDir: string) {
  const behind = await store.db
    .selectFrom('studios')
    .selectAll()
    .where('version', '!=', LATEST_MIGRATION)
    .where('status', '!=', 'moving')
    .orderBy('id')
    .execute();
  const failed: { slug: string; problem: string }[] = [];
  for (const studio of behind) {
    const r = await migrateStudio(store, servers, dataDir, studio);
    if (!r.ok) failed.push({ slug: studio.slug, problem: r.problem });
  }
  return { migrated: behind.length - failed.length, failed };
}

/** A slug from a name: Latin lowercase, digits and dashes (a bot's username is already Latin). */
export function slugOf(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/_?bot$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return s.length >= 2 ? s : `studio-${s}`;
}

/** A new studio: its row, its database created and migrated, and its jobs due at once. */
export async function createStudio(
  store: PlatformStore,
  servers: Servers,
  dataDir: string,
  input: { name: string; slug: string; timezone: string; ownerTelegramId: number | null; server?: string },
): Promise<Studio> {
  const server = input.server ?? 'main';
  servers.url(server);
  let slug = input.slug;
  for (let n = 2; await store.db.selectFrom('studios').select('id').where('slug', '=', slug).executeTakeFirst(); n++)
    slug = `${input.slug}-${n}`;
  const row = await store.db
    .insertInto('studios')
    .values({
      slug,
      name: input.name,
      timezone: input.timezone,
      status: 'active',
      problem: null,
      server,
      location: '',
      version: '',
      owner_telegram_id: input.ownerTelegramId,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const location = newLocation(servers.dialect, row.id);
  await store.db.updateTable('studios').set({ location }).where('id', '=', row.id).execute();
  const studio = await store.db.selectFrom('studios').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  const r = await migrateStudio(store, servers, dataDir, studio);
  if (!r.ok) throw new Error(r.problem);
  await store.db.insertInto('wakes').values({ studio_id: row.id, due_at: nowIso() }).execute();
  return store.db.selectFrom('studios').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
}

/**
 * A single-studio deployment becoming a platform: its database is the first studio as it is (SQLite:
 * the same file; PostgreSQL: the default schema), so nothing is copied and nothing can be lost.
 */
export async function adoptSingleStudio(
  store: PlatformStore,
  servers: Servers,
  config: {
    databaseUrl: string;
    businessName: string;
    businessTimezone: string;
    slug: string;
    secretKey: string;
    botToken: string | undefined;
  },
): Promise<Studio | null> {
  if (await store.db.selectFrom('studios').select('id').executeTakeFirst()) return null;
  const sqlite = config.databaseUrl.startsWith('sqlite:');
  const location = sqlite ? path.resolve(config.databaseUrl.slice('sqlite:'.length)) : 'public';
  if (sqlite && !fs.existsSync(location)) return null;
  if (!sqlite) {
    const { rows } = await sql<{ found: string | null }>`select to_regclass('public.records')::text as found`.execute(
      servers.get('main').db,
    );
    if (!rows[0]?.found) return null;
  }
  await store.db
    .insertInto('studios')
    .values({
      slug: config.slug,
      name: config.businessName,
      timezone: config.businessTimezone,
      status: 'active',
      problem: null,
      server: 'main',
      location,
      version: '',
      owner_telegram_id: null,
      created_at: nowIso(),
    })
    .execute();
  const studio = await store.db
    .selectFrom('studios')
    .selectAll()
    .where('slug', '=', config.slug)
    .executeTakeFirstOrThrow();
  await store.db.insertInto('wakes').values({ studio_id: studio.id, due_at: nowIso() }).execute();
  // Its bot stays its bot; the platform sets it up again (its webhook now carries the bot's own secret).
  if (config.botToken)
    await attachBot(store, config.secretKey, studio.id, {
      id: Number(config.botToken.split(':')[0]),
      username: '',
      token: config.botToken,
    });
  return studio;
}
