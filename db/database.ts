import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  WithSchemaPlugin,
  sql,
  type KyselyPlugin,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import type { DB } from './schema';

export type Dialect = 'sqlite' | 'postgres';
/** What repositories take: the database or a transaction on it. */
export type Executor = Kysely<DB> | Transaction<DB>;

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The SQLite file, for backups; null on PostgreSQL. */
  file: string | null;
  /** Bumped after every committed locked write (db/lock.ts): lets in-process caches know they are stale. */
  writes: number;
  /** PostgreSQL: the schema of one studio of a platform, named in every statement; none: the default schema. */
  schema?: string;
  close(): Promise<void>;
}

/** Each studio's schema plugin, so a statement can tell whose it is (prepared statements, advisory lock keys). */
const schemaOfPlugin = new WeakMap<KyselyPlugin, string>();

/**
 * One studio of a platform on a PostgreSQL database shared with others: every statement built on it
 * names the studio's schema (Kysely's withSchema), so a pooled connection carries nothing from one
 * studio's request into another's. Closing it leaves the shared pool open.
 */
export function inSchema(base: Database, schema: string): Database {
  const plugin = new WithSchemaPlugin(schema);
  schemaOfPlugin.set(plugin, schema);
  return {
    db: base.db.withPlugin(plugin),
    dialect: base.dialect,
    file: null,
    writes: 0,
    schema,
    close: async () => {},
  };
}

/** The studio schema `db` runs in, if any. */
export function schemaOf(db: Executor): string | undefined {
  for (const p of db.getExecutor().plugins) {
    const s = schemaOfPlugin.get(p);
    if (s !== undefined) return s;
  }
  return undefined;
}

/**
 * The key of a PostgreSQL advisory lock named `name`, of this executor's studio: advisory locks belong
 * to the whole database, so each studio's are its own. `legacy`: the fixed number the default schema used.
 */
export function advisoryKey(db: Executor, name: string, legacy?: number): RawBuilder<unknown> {
  const schema = schemaOf(db);
  if (schema === undefined && legacy !== undefined) return sql`${legacy}`;
  return sql`hashtextextended(${schema === undefined ? name : `${schema}/${name}`}, 0)`;
}

/** `sqlite:./data/app.db`, `sqlite::memory:` or `postgres://user:pass@host/db`. */
export function createDb(url: string, opts: { poolSize?: number; searchPath?: string } = {}): Database {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    // pg is loaded by the first query, so a server on SQLite never loads it (a faster start).
    const pool = async () => {
      const { default: pg } = await import('pg');
      const p = new pg.Pool({
        connectionString: url,
        max: opts.poolSize ?? 10,
        // The same for every connection of the pool: one that no studio's request sets or changes.
        ...(opts.searchPath && { options: `-c search_path=${opts.searchPath}` }),
        types: { getTypeParser: pgTypeParser(pg.types) },
      });
      // A connection that breaks (the database restarted, the network dropped) leaves the pool and the
      // next query opens a new one; unheard, pg's 'error' event (of the pool for an idle connection, of
      // the connection itself while one is held, e.g. for a session lock) would end the process.
      p.on('error', () => {});
      p.on('connect', (client) => client.on('error', () => {}));
      return namedStatements(p);
    };
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', file: null, writes: 0, close: () => db.destroy() };
  }
  if (!url.startsWith('sqlite:')) throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got ${url}`);
  const file = url.slice('sqlite:'.length);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers (and the online backup) run beside the writer; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // SQLite's own lower() knows ASCII only; searches by a Cyrillic name need Unicode case folding, as on PostgreSQL.
  sqlite.function('lower', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: preparedOnce(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    file: file === ':memory:' ? null : path.resolve(file),
    writes: 0,
    close: () => db.destroy(),
  };
}

/** Distinct statements kept prepared (a list's IN (…) of each length is one): the app's queries fit many times over. */
const PREPARED_MAX = 2000;

/**
 * The connection as Kysely sees it, with each statement's text prepared once: Kysely's SQLite driver
 * prepares every query again, which was a fifth of a booking's time. The driver runs one statement at a
 * time on its one connection and reads each to the end, so a prepared statement is never busy when asked
 * for again; SQLite prepares it again by itself after a schema change. The oldest is dropped past the limit.
 */
function preparedOnce(sqlite: SQLite.Database) {
  const prepared = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = prepared.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (prepared.size >= PREPARED_MAX) prepared.delete(prepared.keys().next().value!);
        prepared.set(text, statement);
      }
      return statement;
    },
  };
}

/** Distinct statements named on PostgreSQL (each connection prepares those it runs): the app's fit many times over. */
const NAMED_MAX = 1000;

/**
 * The pool as Kysely sees it, running each statement as a named prepared statement: PostgreSQL then
 * parses and plans it once per connection instead of for every query, which was most of what it spent
 * on a booking's short statements. Not a statement with `*`: a migration that adds a column (run by
 * another instance at its start) would change its result's columns, which a prepared statement refuses.
 */
function namedStatements(pool: pg.Pool) {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    if (text.includes('*')) return undefined;
    let name = names.get(text);
    if (name === undefined && names.size < NAMED_MAX) names.set(text, (name = `k${names.size}`));
    return name;
  };
  // One wrapper per connection: Kysely keeps its own state per client object.
  const wrapped = new WeakMap<pg.PoolClient, object>();
  return {
    async connect() {
      const client = await pool.connect();
      let w = wrapped.get(client);
      if (!w) {
        w = {
          query: (text: unknown, values?: unknown[]) =>
            typeof text === 'string' ? client.query({ name: nameOf(text), text, values }) : client.query(text as never),
          release: () => client.release(),
        };
        wrapped.set(client, w);
      }
      return w as pg.PoolClient;
    },
    end: () => pool.end(),
  };
}

const INT8 = 20;
const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;

/** Telegram ids are bigint columns but below 2^53; timestamps come back as the ISO strings SQLite stores. */
const pgTypeParser = (types: typeof pg.types): typeof pg.types.getTypeParser =>
  ((oid: number, format: 'text' | 'binary' = 'text') => {
    if (oid === INT8) return (v: string) => Number(v);
    if (oid === TIMESTAMPTZ || oid === TIMESTAMP)
      return (v: string) => new Date(oid === TIMESTAMP ? `${v}Z` : v).toISOString();
    return format === 'binary' ? types.getTypeParser(oid, 'binary') : types.getTypeParser(oid, 'text');
  }) as typeof pg.types.getTypeParser;

/**
 * Every column of a table, by name, for the hottest statements: a prepared statement that names its
 * columns keeps working after another instance's migration adds one (one with `*` changes its result,
 * which PostgreSQL refuses, so those are never prepared). It fails to compile while a column of the
 * table's type is missing from the list.
 */
export const allColumns =
  <T>() =>
  <const C extends readonly (keyof T & string)[]>(
    columns: C & (Exclude<keyof T, C[number]> extends never ? unknown : { missing: Exclude<keyof T, C[number]> }),
  ): C =>
    columns;

export const bool = (v: boolean | number | null | undefined): boolean => Boolean(v);
export const flag = (v: boolean): number => (v ? 1 : 0);
export const nowIso = (): string => new Date().toISOString();

/**
 * Which integrity rule of the database refused a write, if one did: a foreign key (a row that was
 * deleted meanwhile, or that a new row now uses) or a unique key (the same thing created twice at
 * once). Concurrent requests can get past a check and still hit the rule; callers answer such a
 * refusal as a conflict instead of a failure.
 */
export function integrityViolation(err: unknown): 'foreign_key' | 'unique' | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'foreign_key';
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
    return 'unique';
  return null;
}
