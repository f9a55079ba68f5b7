import { Kysely, Migrator, PostgresAdapter, sql, type Generated, type Migration } from 'kysely';
import { createDb, inSchema, type Database } from '../db/database';
import { lookingIn } from '../db/migrate';

/*
 * The platform store: which studios there are, where each one's data lives, its bot, its owner, and
 * when its periodic jobs are due. A studio's own data is never here: it is a database of its own
 * (SQLite: a file; PostgreSQL: a schema), which core/ uses as it would a single studio's.
 */

export type StudioStatus = 'active' | 'suspended' | 'failed' | 'moving';

export interface StudiosTable {
  id: Generated<number>;
  slug: string;
  name: string;
  timezone: string;
  status: StudioStatus;
  /** Why the studio is not served (a migration that failed, who suspended it); null when served. */
  problem: string | null;
  /** Which database server holds it ("main" is DATABASE_URL; SQLite: always "main"). */
  server: string;
  /** SQLite: the file; PostgreSQL: the schema (`public` for the single studio a platform grew from). */
  location: string;
  /** The last migration its database ran: newer code never serves an older studio. */
  version: string;
  owner_telegram_id: number | null;
  created_at: string;
}

export interface BotsTable {
  /** Telegram's id of the bot: the number before the colon of its token. */
  bot_id: number;
  studio_id: number;
  username: string;
  /** The token, encrypted with the platform's key (platform/secrets.ts). */
  token: string;
  /** SHA-256 of the webhook secret Telegram sends with each update: how an update finds its studio. */
  secret_hash: string;
  /** 'ok', or 'lost' (the token was revoked or the bot deleted): the studio then sends nothing. */
  state: 'ok' | 'lost';
  problem: string | null;
  updated_at: string;
}

export interface LoginLinksTable {
  /** SHA-256 of the link's token: the link itself is never stored. */
  token_hash: string;
  studio_id: number;
  telegram_id: number;
  expires_at: string;
  used_at: string | null;
}

export interface WakesTable {
  studio_id: number;
  /** When the studio's periodic jobs are next due: the scheduler reads only the studios due. */
  due_at: string;
}

export interface OwnersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  created_at: string;
}

export interface PlatformDB {
  studios: StudiosTable;
  bots: BotsTable;
  login_links: LoginLinksTable;
  wakes: WakesTable;
  owners: OwnersTable;
}

export interface PlatformStore {
  db: Kysely<PlatformDB>;
  dialect: Database['dialect'];
  close(): Promise<void>;
}

/** The platform store's schema on PostgreSQL (studios have schemas of their own beside it). */
export const PLATFORM_SCHEMA = 'platform';

const initial: Migration = {
  async up(db) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    const ts = pg ? sql`timestamptz` : sql`text`;
    const bigint = pg ? sql`bigint` : sql`integer`;
    await db.schema
      .createTable('studios')
      .addColumn('id', pg ? 'serial' : 'integer', (c) => c.primaryKey().notNull())
      .addColumn('slug', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) =>
        c.notNull().check(sql`status in ('active', 'suspended', 'failed', 'moving')`),
      )
      .addColumn('problem', 'text')
      .addColumn('server', 'varchar(32)', (c) => c.notNull())
      .addColumn('location', 'varchar(255)', (c) => c.notNull())
      .addColumn('version', 'varchar(80)', (c) => c.notNull())
      .addColumn('owner_telegram_id', bigint)
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('bots')
      .addColumn('bot_id', bigint, (c) => c.primaryKey().notNull())
      .addColumn('studio_id', 'integer', (c) => c.notNull().unique().references('studios.id').onDelete('cascade'))
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('state', 'varchar(8)', (c) => c.notNull().check(sql`state in ('ok', 'lost')`))
      .addColumn('problem', 'text')
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('login_links')
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey().notNull())
      .addColumn('studio_id', 'integer', (c) => c.notNull().references('studios.id').onDelete('cascade'))
      .addColumn('telegram_id', bigint, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addColumn('used_at', ts)
      .execute();
    await db.schema
      .createTable('wakes')
      .addColumn('studio_id', 'integer', (c) => c.primaryKey().notNull().references('studios.id').onDelete('cascade'))
      .addColumn('due_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('wakes_due').on('wakes').columns(['due_at', 'studio_id']).execute();
    await db.schema
      .createTable('owners')
      .addColumn('id', pg ? 'serial' : 'integer', (c) => c.primaryKey().notNull())
      .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
  },
};

/** The platform store's migrations, in order (frozen once committed, like the studios'). */
export const platformMigrations: Record<string, Migration> = { '20261202_0800_platform': initial };

/**
 * Opens the platform store: SQLite `<DATA_DIR>/platform.db` beside the studios' files, PostgreSQL the
 * `platform` schema of DATABASE_URL. Migrated on open.
 */
export async function openPlatformStore(opts: { databaseUrl: string; dataDir: string }): Promise<PlatformStore> {
  const postgres = !opts.databaseUrl.startsWith('sqlite:');
  const base = createDb(postgres ? opts.databaseUrl : `sqlite:${opts.dataDir}/platform.db`);
  if (postgres) await sql`create schema if not exists ${sql.id(PLATFORM_SCHEMA)}`.execute(base.db);
  const database = postgres ? inSchema(base, PLATFORM_SCHEMA) : base;
  const db = database.db as unknown as Kysely<PlatformDB>;
  const migrator = new Migrator({
    db: postgres ? lookingIn(db, PLATFORM_SCHEMA) : db,
    provider: { getMigrations: async () => platformMigrations },
    ...(postgres && { migrationTableSchema: PLATFORM_SCHEMA }),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Platform migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  return { db, dialect: base.dialect, close: () => base.close() };
}
