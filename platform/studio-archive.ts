import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { createDb, type Database, type Dialect } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { PLATFORM_SCHEMA } from './store';
import type { Servers, Studio } from './studios';

/*
 * A studio's data as one archive, and back: NDJSON (gzip'ed on disk), a header line, then one line per
 * row, table after table in an order that satisfies the foreign keys, then an end line. Tables, columns,
 * keys and sequences are read from the database itself (sqlite_master / pg_catalog of the studio's
 * schema), never from a list kept here, so a new migration's table travels without a change.
 *
 * Values are written so that they come back exactly on the same dialect and portably across dialects:
 * booleans as PostgreSQL gives them (true/false) or SQLite stores them (1/0), each turned into what the
 * target's column takes on import; timestamps as ISO 8601 UTC strings with every digit PostgreSQL keeps
 * (microseconds only when there are some); bigints as numbers, or as strings past 2^53; JSON as the text
 * it is stored as (the studio's tables keep JSON in text columns); null as null.
 */

export const ARCHIVE_FORMAT = 'studio-archive';

export interface ArchiveTable {
  name: string;
  columns: string[];
  rows: number;
}

/** A serial/identity column's sequence (PostgreSQL) or an AUTOINCREMENT table's counter (SQLite). */
export interface ArchiveSequence {
  table: string;
  column: string;
  /** The last value handed out, null when none was: ids are never issued twice, even of rows deleted. */
  value: number | null;
}

export interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  /** The last migration the studio's database ran (LATEST_MIGRATION of the code that wrote it). */
  version: string;
  dialect: Dialect;
  exported_at: string;
  /** In import order: a table comes after every table it references. */
  tables: ArchiveTable[];
  sequences: ArchiveSequence[];
}

/** A row line: the table and its values, in the order of the header's columns. */
interface RowLine {
  t: string;
  r: unknown[];
}
interface EndLine {
  end: true;
  rows: number;
}

type Kind = 'bool' | 'int' | 'bigint' | 'float' | 'text' | 'timestamp' | 'other';

interface ColumnInfo {
  name: string;
  kind: Kind;
  /** PostgreSQL: an identity column GENERATED ALWAYS (inserts then need OVERRIDING SYSTEM VALUE). */
  identityAlways?: boolean;
}

interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  primaryKey: string[];
  references: string[];
}

interface SequenceInfo {
  table: string;
  column: string;
  /** PostgreSQL: the sequence's name in the studio's schema. */
  sequence?: string;
  value: number | null;
}

/** What a studio's database holds, as its catalog says. */
interface Catalog {
  dialect: Dialect;
  /** PostgreSQL: the studio's schema (the default schema resolved to its name); SQLite: none. */
  schema: string | undefined;
  version: string;
  tables: TableInfo[];
  sequences: SequenceInfo[];
}

/** Kysely's own tables: the target has its own, from its migrations. */
const isMigrationTable = (name: string) => name === 'kysely_migration' || name === 'kysely_migration_lock';

// Kysely<any>: the archive reads and writes whatever tables the catalog names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const rows = async <R>(db: AnyDb, query: RawBuilder<unknown>) => (await query.execute(db)).rows as R[];

const table = (catalog: Pick<Catalog, 'schema'>, name: string) =>
  catalog.schema === undefined ? sql.id(name) : sql.id(catalog.schema, name);

function pgKind(type: string): Kind {
  if (type === 'boolean') return 'bool';
  if (type === 'integer' || type === 'smallint') return 'int';
  if (type === 'bigint') return 'bigint';
  if (type === 'double precision' || type === 'real') return 'float';
  if (type === 'text' || type.startsWith('character varying') || type.startsWith('character(')) return 'text';
  if (type.startsWith('timestamp')) return 'timestamp';
  return 'other';
}

/** SQLite's declared types say little (booleans and timestamps are integer and text there): enough to order and bind. */
function sqliteKind(type: string): Kind {
  const t = type.toUpperCase();
  if (t.includes('INT')) return 'int';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'float';
  return 'other';
}

/** Tables in an order where each comes after those it references (self-references aside), by name otherwise. */
function foreignKeyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const ordered: TableInfo[] = [];
  const visiting = new Set<string>();
  const visit = (t: TableInfo) => {
    if (done.has(t.name) || visiting.has(t.name)) return;
    visiting.add(t.name);
    for (const r of [...t.references].sort()) {
      const ref = byName.get(r);
      if (ref && ref !== t) visit(ref);
    }
    visiting.delete(t.name);
    done.add(t.name);
    ordered.push(t);
  };
  for (const t of [...tables].sort((a, b) => (a.name < b.name ? -1 : 1))) visit(t);
  return ordered;
}

async function readCatalog(db: AnyDb, dialect: Dialect, schemaName: string | undefined): Promise<Catalog> {
  if (dialect === 'sqlite') {
    const names = await rows<{ name: string }>(
      db,
      sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`,
    );
    const tables: TableInfo[] = [];
    let hasMigrations = false;
    for (const { name } of names) {
      if (isMigrationTable(name)) {
        hasMigrations ||= name === 'kysely_migration';
        continue;
      }
      const cols = await rows<{ name: string; type: string; pk: number }>(
        db,
        sql`select name, type, pk from pragma_table_info(${name}) order by cid`,
      );
      const fks = await rows<{ table: string }>(db, sql`select distinct "table" from pragma_foreign_key_list(${name})`);
      tables.push({
        name,
        columns: cols.map((c) => ({ name: c.name, kind: sqliteKind(c.type) })),
        primaryKey: cols
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
        references: fks.map((f) => f.table),
      });
    }
    const sequences: SequenceInfo[] = [];
    if (names.some((n) => n.name === 'sqlite_sequence'))
      for (const s of await rows<{ name: string; seq: number }>(db, sql`select name, seq from sqlite_sequence`)) {
        const t = tables.find((x) => x.name === s.name);
        if (t?.primaryKey.length === 1) sequences.push({ table: t.name, column: t.primaryKey[0], value: s.seq });
      }
    const version = hasMigrations
      ? ((await rows<{ v: string | null }>(db, sql`select max(name) as v from kysely_migration`))[0]?.v ?? '')
      : '';
    return { dialect, schema: undefined, version, tables: foreignKeyOrder(tables), sequences };
  }

  const schema = schemaName ?? (await rows<{ s: string }>(db, sql`select current_schema() as s`))[0]?.s ?? 'public';
  const cols = await rows<{ table: string; column: string; type: string; identity: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type",
               a.attidentity as "identity"
          from pg_class c
          join pg_namespace n on n.oid = c.relnamespace
          join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
         where n.nspname = ${schema} and c.relkind in ('r', 'p') and not c.relispartition
         order by c.relname, a.attnum`,
  );
  const keys = await rows<{ table: string; column: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column"
          from pg_constraint con
          join pg_class c on c.oid = con.conrelid
          join pg_namespace n on n.oid = c.relnamespace
          cross join lateral unnest(con.conkey) with ordinality as k(attnum, ord)
          join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
         where n.nspname = ${schema} and con.contype = 'p'
         order by c.relname, k.ord`,
  );
  const fks = await rows<{ table: string; references: string }>(
    db,
    sql`select distinct c.relname as "table", f.relname as "references"
          from pg_constraint con
          join pg_class c on c.oid = con.conrelid
          join pg_class f on f.oid = con.confrelid
          join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = ${schema} and con.contype = 'f'`,
  );
  const seqs = await rows<{ table: string; column: string; sequence: string; value: number | null }>(
    db,
    sql`select t.relname as "table", a.attname as "column", s.relname as "sequence", ps.last_value as "value"
          from pg_class s
          join pg_namespace n on n.oid = s.relnamespace
          join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass
                          and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
          join pg_class t on t.oid = d.refobjid
          join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
          left join pg_sequences ps on ps.schemaname = n.nspname and ps.sequencename = s.relname
         where s.relkind = 'S' and n.nspname = ${schema}
         order by t.relname, a.attname`,
  );
  const byTable = new Map<string, TableInfo>();
  let hasMigrations = false;
  for (const c of cols) {
    if (isMigrationTable(c.table)) {
      hasMigrations ||= c.table === 'kysely_migration';
      continue;
    }
    let t = byTable.get(c.table);
    if (!t) byTable.set(c.table, (t = { name: c.table, columns: [], primaryKey: [], references: [] }));
    t.columns.push({ name: c.column, kind: pgKind(c.type), identityAlways: c.identity === 'a' });
  }
  for (const k of keys) byTable.get(k.table)?.primaryKey.push(k.column);
  for (const f of fks) byTable.get(f.table)?.references.push(f.references);
  const version = hasMigrations
    ? ((await rows<{ v: string | null }>(db, sql`select max(name) as v from ${sql.id(schema, 'kysely_migration')}`))[0]
        ?.v ?? '')
    : '';
  return {
    dialect,
    schema,
    version,
    tables: foreignKeyOrder([...byTable.values()]),
    sequences: seqs
      .filter((s) => byTable.has(s.table))
      .map((s) => ({ table: s.table, column: s.column, sequence: s.sequence, value: s.value })),
  };
}

/** PostgreSQL's text of a timestamptz (TimeZone UTC, DateStyle ISO) as the ISO string the app writes. */
function isoTimestamp(text: string): string {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?(?:\+00)?$/.exec(text);
  if (!m) return text; // infinity, BC or five-digit years: PostgreSQL reads its own text back
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0')}Z`;
}

const selectExpression = (dialect: Dialect, c: ColumnInfo) => {
  const id = sql.id(c.name);
  // Past what the driver's parsers keep: bigints beyond 2^53, microseconds, types the archive does not know.
  if (dialect === 'postgres' && (c.kind === 'bigint' || c.kind === 'timestamp' || c.kind === 'other'))
    return sql`${id}::text as ${id}`;
  return id;
};

/** The same order on both dialects: byte order of text (PostgreSQL's "C"), nulls first as SQLite has them. */
const orderExpression = (dialect: Dialect, c: ColumnInfo) => {
  const id = sql.id(c.name);
  if (dialect === 'sqlite') return id;
  return c.kind === 'text' ? sql`${id} collate "C" asc nulls first` : sql`${id} asc nulls first`;
};

function exportValue(dialect: Dialect, c: ColumnInfo, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) return { $bytes: v.toString('base64') };
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (dialect === 'postgres' && typeof v === 'string') {
    if (c.kind === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
    if (c.kind === 'timestamp') return isoTimestamp(v);
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return { $float: String(v) };
  return v;
}

function importValue(dialect: Dialect, c: ColumnInfo, v: unknown): unknown {
  if (v === null) return null;
  if (typeof v === 'object') {
    const o = v as { $bytes?: string; $float?: string };
    if (o.$bytes !== undefined) return Buffer.from(o.$bytes, 'base64');
    if (o.$float !== undefined) return dialect === 'postgres' ? o.$float : Number(o.$float);
    throw new Error(`column ${c.name}: a value the archive format has no place for`);
  }
  if (dialect === 'sqlite' && typeof v === 'boolean') return v ? 1 : 0;
  if (dialect === 'postgres' && c.kind === 'bool' && typeof v === 'number') return v !== 0;
  return v;
}

const PAGE = 2000;

/**
 * The archive's lines, read on `db` (a transaction, for a consistent snapshot) of a studio's database
 * whose catalog is `catalog`. Used by exportStudio and by moveStudio, which reads under its own locks.
 */
async function* archiveLines(db: AnyDb, catalog: Catalog): AsyncGenerator<string> {
  const counts: number[] = [];
  for (const t of catalog.tables)
    counts.push(
      Number((await rows<{ n: number | string }>(db, sql`select count(*) as n from ${table(catalog, t.name)}`))[0].n),
    );
  const header: ArchiveHeader = {
    format: ARCHIVE_FORMAT,
    version: catalog.version,
    dialect: catalog.dialect,
    exported_at: new Date().toISOString(),
    tables: catalog.tables.map((t, i) => ({ name: t.name, columns: t.columns.map((c) => c.name), rows: counts[i] })),
    sequences: catalog.sequences.map(({ table: t, column, value }) => ({ table: t, column, value })),
  };
  yield JSON.stringify(header);
  let total = 0;
  for (const [i, t] of catalog.tables.entries()) {
    const select = sql.join(t.columns.map((c) => selectExpression(catalog.dialect, c)));
    const orderBy = t.primaryKey.length > 0 ? t.columns.filter((c) => t.primaryKey.includes(c.name)) : t.columns;
    // Primary key order, as the catalog lists the key's columns.
    orderBy.sort((a, b) => t.primaryKey.indexOf(a.name) - t.primaryKey.indexOf(b.name));
    const order = sql.join(orderBy.map((c) => orderExpression(catalog.dialect, c)));
    for (let offset = 0; offset < counts[i]; offset += PAGE) {
      const page = await rows<Record<string, unknown>>(
        db,
        sql`select ${select} from ${table(catalog, t.name)} order by ${order} limit ${PAGE} offset ${offset}`,
      );
      for (const row of page) {
        const line: RowLine = { t: t.name, r: t.columns.map((c) => exportValue(catalog.dialect, c, row[c.name])) };
        yield JSON.stringify(line);
        total++;
      }
      if (page.length < PAGE) break;
    }
  }
  const end: EndLine = { end: true, rows: total };
  yield JSON.stringify(end);
}

/** PostgreSQL settings the archive's text depends on, for this transaction only. */
async function pgSessionForArchive(db: AnyDb) {
  await sql`select set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true),
                   set_config('extra_float_digits', '1', true), set_config('bytea_output', 'hex', true)`.execute(db);
}

/**
 * Reads a studio's database into archive lines (no newline at their ends), on one consistent snapshot:
 * PostgreSQL, a REPEATABLE READ READ ONLY transaction; SQLite, a read transaction on a connection of
 * its own (WAL lets it read beside the writer), so the studio keeps serving while it is written.
 */
export async function* exportStudio(database: Database): AsyncGenerator<string> {
  if (database.dialect === 'sqlite' && database.file) {
    const own = createDb(`sqlite:${database.file}`);
    try {
      const trx = await own.db.startTransaction().execute();
      try {
        yield* archiveLines(trx, await readCatalog(trx, 'sqlite', undefined));
      } finally {
        await trx.rollback().execute();
      }
    } finally {
      await own.close();
    }
    return;
  }
  const builder = database.db.startTransaction();
  const trx = await (
    database.dialect === 'postgres' ? builder.setIsolationLevel('repeatable read').setAccessMode('read only') : builder
  ).execute();
  try {
    if (database.dialect === 'postgres') await pgSessionForArchive(trx);
    yield* archiveLines(trx, await readCatalog(trx, database.dialect, database.schema));
  } finally {
    await trx.rollback().execute();
  }
}

/** For moveStudio: the archive of a studio read on a transaction the caller holds (its locks taken). */
export async function* exportOnTransaction(
  trx: AnyDb,
  dialect: Dialect,
  schema: string | undefined,
): AsyncGenerator<string> {
  if (dialect === 'postgres') await pgSessionForArchive(trx);
  yield* archiveLines(trx, await readCatalog(trx, dialect, schema));
}

/** The tables of a studio's database moveStudio locks (Kysely's included: no migration runs meanwhile). */
export async function studioTables(db: AnyDb, schema: string): Promise<string[]> {
  return (
    await rows<{ name: string }>(
      db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = ${schema} and c.relkind in ('r', 'p') order by c.relname`,
    )
  ).map((r) => r.name);
}

/** Writes a studio's archive to `file`, gzip'ed; returns the header it starts with. */
export async function writeArchive(database: Database, file: string): Promise<ArchiveHeader> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const gzip = createGzip();
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    gzip.on('error', reject);
  });
  gzip.pipe(out);
  let header: ArchiveHeader | undefined;
  try {
    for await (const line of exportStudio(database)) {
      header ??= JSON.parse(line) as ArchiveHeader;
      if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
    }
  } catch (err) {
    gzip.destroy();
    out.destroy();
    fs.rmSync(file, { force: true });
    throw err;
  }
  gzip.end();
  await done;
  return header!;
}

/** The lines of a gzip'ed archive file. */
export async function* readArchive(file: string): AsyncGenerator<string> {
  const lines = readline.createInterface({
    input: fs.createReadStream(file).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  for await (const line of lines) if (line !== '') yield line;
}

export interface ImportResult {
  version: string;
  /** Rows written, per table. */
  rows: Record<string, number>;
  total: number;
}

/** Refused before anything is written: a different version, other tables or columns, or data already there. */
export class ArchiveRefused extends Error {
  override name = 'ArchiveRefused';
}

let seeded: Promise<Map<string, number>> | undefined;

/** How many rows the migrations themselves write into each table, as a fresh in-memory database shows. */
function seededByMigrations(): Promise<Map<string, number>> {
  seeded ??= (async () => {
    const fresh = createDb('sqlite::memory:');
    try {
      await migrateToLatest(fresh.db);
      const catalog = await readCatalog(fresh.db, 'sqlite', undefined);
      const counts = new Map<string, number>();
      for (const t of catalog.tables) {
        const n = Number((await rows<{ n: number }>(fresh.db, sql`select count(*) as n from ${sql.id(t.name)}`))[0].n);
        if (n > 0) counts.set(t.name, n);
      }
      return counts;
    } finally {
      await fresh.close();
    }
  })();
  return seeded;
}

/** Rows per INSERT: under both databases' limits on bound values (SQLite 32766, PostgreSQL 65535). */
const batchSize = (columns: number) => Math.max(1, Math.min(500, Math.floor(30_000 / Math.max(1, columns))));

/**
 * Writes an archive into an empty, freshly migrated studio database of the same version, in one
 * transaction: all of it or nothing. Checks the header against the target's catalog first (the same
 * tables with the same columns), each table's count against the header as it goes, and the end line;
 * then sets every sequence (PostgreSQL serial/identity, SQLite AUTOINCREMENT) past max(id) and past the
 * value it had in the source, so new rows never collide and no id is issued twice.
 */
export async function importStudio(
  target: Database,
  archive: AsyncIterable<string> | Iterable<string>,
): Promise<ImportResult> {
  const it = (archive as AsyncIterable<string>)[Symbol.asyncIterator]
    ? (archive as AsyncIterable<string>)[Symbol.asyncIterator]()
    : (async function* () {
        yield* archive as Iterable<string>;
      })();
  try {
    return await importLines(target, it);
  } finally {
    // Ends the archive's source too: an export's own transaction, a file being read.
    await it.return?.();
  }
}

async function importLines(target: Database, it: AsyncIterator<string>): Promise<ImportResult> {
  const first = await it.next();
  if (first.done) throw new ArchiveRefused('The archive is empty');
  const header = JSON.parse(first.value) as ArchiveHeader;
  if (header.format !== ARCHIVE_FORMAT) throw new ArchiveRefused('Not a studio archive (no studio-archive header)');

  const trx = await target.db.startTransaction().execute();
  try {
    const catalog = await readCatalog(trx, target.dialect, target.schema);
    if (header.version !== catalog.version)
      throw new ArchiveRefused(
        `The archive is of version ${header.version}, the studio's database of version ${catalog.version || '(not migrated)'}: ` +
          'import it into a database migrated to the same version',
      );
    const targetTables = new Map(catalog.tables.map((t) => [t.name, t]));
    const missing = header.tables.filter((t) => !targetTables.has(t.name)).map((t) => t.name);
    const extra = catalog.tables.filter((t) => !header.tables.some((h) => h.name === t.name)).map((t) => t.name);
    if (missing.length > 0 || extra.length > 0)
      throw new ArchiveRefused(
        `The archive's tables differ from the database's: ${[...missing.map((m) => `only in the archive: ${m}`), ...extra.map((e) => `only in the database: ${e}`)].join(', ')}`,
      );
    for (const h of header.tables) {
      const have = targetTables.get(h.name)!.columns.map((c) => c.name);
      if (have.length !== h.columns.length || h.columns.some((c) => !have.includes(c)))
        throw new ArchiveRefused(
          `Table ${h.name}: the archive's columns (${h.columns.join(', ')}) differ from the database's (${have.join(', ')})`,
        );
    }
    // Fresh: no more rows than the migrations write themselves (a settings version, the fiscal state),
    // which the archive's rows then replace.
    const seeded = await seededByMigrations();
    const replaced: string[] = [];
    for (const t of catalog.tables) {
      const n = Number(
        (await rows<{ n: number | string }>(trx, sql`select count(*) as n from ${table(catalog, t.name)}`))[0].n,
      );
      if (n > (seeded.get(t.name) ?? 0))
        throw new ArchiveRefused(`The studio's database is not empty: table ${t.name} has rows`);
      if (n > 0) replaced.push(t.name);
    }
    for (const name of replaced) await sql`delete from ${table(catalog, name)}`.execute(trx);
    // SQLite checks foreign keys at the commit (a table that references itself, rows in any order);
    // PostgreSQL's are checked per statement, which the archive's table order satisfies.
    if (target.dialect === 'sqlite') await sql`pragma defer_foreign_keys = on`.execute(trx);

    const written: Record<string, number> = Object.fromEntries(header.tables.map((t) => [t.name, 0]));
    let total = 0;
    let pending: { table: ArchiveTable; info: TableInfo; values: unknown[][] } | null = null;
    const flush = async () => {
      if (!pending || pending.values.length === 0) return;
      const { table: h, info, values } = pending;
      const columns = h.columns.map((name) => info.columns.find((c) => c.name === name)!);
      const overriding = target.dialect === 'postgres' && columns.some((c) => c.identityAlways);
      const tuples = values.map((r) => sql`(${sql.join(r.map((v, i) => importValue(target.dialect, columns[i], v)))})`);
      const into = sql`insert into ${table(catalog, h.name)} (${sql.join(columns.map((c) => sql.id(c.name)))})`;
      await (
        overriding
          ? sql`${into} overriding system value values ${sql.join(tuples)}`
          : sql`${into} values ${sql.join(tuples)}`
      ).execute(trx);
      written[h.name] += values.length;
      total += values.length;
      pending.values = [];
    };
    const headerOf = new Map(header.tables.map((t) => [t.name, t]));
    const order = header.tables.map((t) => t.name);
    let position = 0;
    let ended: EndLine | null = null;
    for (let next = await it.next(); !next.done; next = await it.next()) {
      const line = JSON.parse(next.value) as RowLine | EndLine;
      if ('end' in line) {
        ended = line;
        break;
      }
      if (!pending || pending.table.name !== line.t) {
        await flush();
        const h = headerOf.get(line.t);
        if (!h) throw new Error(`The archive has a row of table ${line.t}, which its header does not list`);
        const at = order.indexOf(line.t, position);
        if (at < 0) throw new Error(`The archive's rows of table ${line.t} are out of the header's order`);
        position = at;
        pending = { table: h, info: targetTables.get(line.t)!, values: [] };
      }
      if (line.r.length !== pending.table.columns.length)
        throw new Error(
          `A row of table ${line.t} has ${line.r.length} values for ${pending.table.columns.length} columns`,
        );
      pending.values.push(line.r);
      if (pending.values.length >= batchSize(pending.table.columns.length)) await flush();
    }
    await flush();
    if (!ended) throw new Error('The archive ends early (no end line): nothing was imported');
    if (ended.rows !== total) throw new Error(`The archive's end line counts ${ended.rows} rows, it had ${total}`);
    for (const h of header.tables)
      if (written[h.name] !== h.rows)
        throw new Error(`Table ${h.name}: the header counts ${h.rows} rows, the archive had ${written[h.name]}`);

    await resetSequences(trx, catalog, header.sequences);
    await trx.commit().execute();
    target.writes++;
    return { version: header.version, rows: written, total };
  } catch (err) {
    await trx
      .rollback()
      .execute()
      .catch(() => {});
    throw err;
  }
}

async function resetSequences(trx: AnyDb, catalog: Catalog, archived: ArchiveSequence[]) {
  const before = (t: string, c: string) => archived.find((s) => s.table === t && s.column === c)?.value ?? 0;
  if (catalog.dialect === 'postgres') {
    for (const s of catalog.sequences) {
      const max = Number(
        (
          await rows<{ m: number | string | null }>(
            trx,
            sql`select max(${sql.id(s.column)}) as m from ${table(catalog, s.table)}`,
          )
        )[0].m ?? 0,
      );
      const value = Math.max(max, before(s.table, s.column));
      const seq = [catalog.schema!, s.sequence!].map((x) => `"${x.replace(/"/g, '""')}"`).join('.');
      if (value > 0) await sql`select setval(${seq}::regclass, ${value}, true)`.execute(trx);
      else await sql`select setval(${seq}::regclass, 1, false)`.execute(trx);
    }
    return;
  }
  // SQLite: inserting ids already moved each AUTOINCREMENT counter to max(id); an id handed out before
  // and since deleted moves it further.
  for (const s of archived) {
    if (s.value === null || !catalog.tables.some((t) => t.name === s.table && t.primaryKey.length === 1)) continue;
    const updated = await sql`update sqlite_sequence set seq = max(seq, ${s.value}) where name = ${s.table}`.execute(
      trx,
    );
    if (Number(updated.numAffectedRows ?? 0) === 0)
      await sql`insert into sqlite_sequence (name, seq) values (${s.table}, ${s.value})`.execute(trx);
  }
}

/** Rows per table of a studio's database (Kysely's tables aside), as its catalog lists them. */
export async function studioRowCounts(database: Database): Promise<Record<string, number>> {
  const catalog = await readCatalog(database.db, database.dialect, database.schema);
  const counts: Record<string, number> = {};
  for (const t of catalog.tables)
    counts[t.name] = Number(
      (await rows<{ n: number | string }>(database.db, sql`select count(*) as n from ${table(catalog, t.name)}`))[0].n,
    );
  return counts;
}

/** Schemas dropStudioData never drops, whatever a studio's row says. */
const NEVER_DROPPED = new Set(['', 'public', PLATFORM_SCHEMA, 'information_schema']);

/**
 * Deletes a studio's data: PostgreSQL, `drop schema … cascade` of its schema on its server (never the
 * default schema, the platform's or a system one); SQLite, its file with the -wal and -shm beside it.
 * The studio's row in the platform store is the caller's.
 */
export async function dropStudioData(
  studio: Pick<Studio, 'server' | 'location'>,
  servers: Servers,
  dataDir: string,
): Promise<void> {
  if (servers.dialect === 'sqlite') {
    if (studio.location === '') throw new Error('A studio without a file of its own has no data to drop');
    const file = path.resolve(dataDir, studio.location);
    for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
    return;
  }
  const schema = studio.location;
  if (NEVER_DROPPED.has(schema) || schema.startsWith('pg_'))
    throw new Error(`Refusing to drop schema "${schema}": it is not a studio's own schema`);
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(servers.get(studio.server).db);
}
