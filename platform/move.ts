import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type ControlledTransaction, type Kysely } from 'kysely';
import { createDb, inSchema } from '../db/database';
import { LATEST_MIGRATION } from '../db/migrate';
import type { PlatformStore, StudioStatus } from './store';
import { migrateStudioDatabase, type Servers, type Studio } from './studios';
import {
  dropStudioData,
  exportOnTransaction,
  importStudio,
  studioRowCounts,
  studioTables,
  type ArchiveHeader,
} from './studio-archive';

/*
 * Moving a studio to another PostgreSQL server of the platform, for operators without Citus (with
 * Citus, citus_schema_move does it: docs/citus.md). The studio is frozen for as long as its data is
 * copied, and nothing it acknowledged can be lost:
 *
 *   1. the target schema is created and migrated while the studio still serves (it is empty);
 *   2. the studio's status becomes 'moving' (the platform answers its requests 503, MOVING_ANSWER) and
 *      the host is told to close its live context (opts.closeLive);
 *   3. one transaction on the source takes ACCESS EXCLUSIVE locks on every table of the studio's schema:
 *      it waits for the work in flight to end, and anything that started before the status changed
 *      and writes after this point waits behind it; the archive is read under those locks;
 *   4. the archive is imported on the target in one transaction, and each table's rows counted there;
 *   5. still in the source's transaction, the source schema is dropped; the platform store switches the
 *      studio's server and status back; then the source's transaction commits. A write that waited on
 *      the source then fails (its table is gone): it was never acknowledged, so it is not lost.
 *
 * Any failure before the switch rolls the source's transaction back (its data untouched, the waiting
 * writes proceed there), drops the target schema this move created and puts the studio back where it
 * was, 'active' again. The one window left is the source's COMMIT itself failing after the switch
 * (a connection lost at that instant): the source schema then stays, reported as `leftover`.
 */

/** What the platform answers a studio's requests while it moves. */
export const MOVING_ANSWER = { status: 503, message: 'Студия переезжает, попробуйте через минуту' } as const;

export interface MoveOptions {
  /** The host closes the studio's live context (bot, cached database, timers) and resolves once it has. */
  closeLive?: (slug: string) => Promise<void>;
  /** How long to wait for the studio's work in flight before giving up (default 15 s). */
  lockTimeoutMs?: number;
  /** Each archive line as it is copied (a copy of what moved: tests compare it with the target). */
  onArchiveLine?: (line: string) => void;
}

export interface MoveResult {
  studio: Studio;
  from: string;
  to: string;
  /** From the status 'moving' to the status back, on the target: how long the studio answered 503 or waited. */
  frozenMs: number;
  /** Of which: waiting for the work in flight (the source's locks). */
  lockMs: number;
  /** Of which: reading the source, writing and counting the target. */
  copyMs: number;
  /** Rows moved, per table. */
  rows: Record<string, number>;
  total: number;
  /** The source schema could not be dropped after the switch: drop it by hand (dropStudioData on the source). */
  leftover?: string;
}

/** The move did not happen: the studio is on its source server, as it was. */
export class MoveFailed extends Error {
  override name = 'MoveFailed';
  constructor(
    message: string,
    /** How long the studio was frozen before it was put back (0 when the failure came before). */
    readonly frozenMs: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const LOCK_STEP_MS = 250;

const pgCode = (err: unknown) => (err as { code?: unknown } | null)?.code;

// Kysely<any>: the studio's tables by the names the catalog gives.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTransaction = ControlledTransaction<any>;

/**
 * A transaction on the source holding ACCESS EXCLUSIVE locks on every table of the schema. Each attempt
 * waits at most LOCK_STEP_MS per lock, below PostgreSQL's deadlock_timeout (1 s): a booking in flight
 * that needs a table already locked makes this attempt give way (its partial locks released) instead
 * of either being chosen as a deadlock's victim; attempts repeat until `timeoutMs`.
 */
async function lockSource(db: AnyDb, schema: string, timeoutMs: number): Promise<AnyTransaction> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const trx = await db.startTransaction().execute();
    try {
      const tables = await studioTables(trx, schema);
      if (tables.length === 0) throw new Error(`Schema ${schema} has no tables on the source server`);
      await sql`select set_config('lock_timeout', ${`${LOCK_STEP_MS}ms`}, true)`.execute(trx);
      await sql`lock table ${sql.join(tables.map((t) => sql.id(schema, t)))} in access exclusive mode`.execute(trx);
      // The rest (reading, the drop) holds every table already; nothing it needs should wait long.
      await sql`select set_config('lock_timeout', ${`${timeoutMs}ms`}, true)`.execute(trx);
      return trx;
    } catch (err) {
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      const busy = pgCode(err) === '55P03' || pgCode(err) === '40P01';
      if (!busy) throw err;
      if (Date.now() >= deadline)
        throw new Error(`The studio's work in flight did not end within ${timeoutMs} ms`, { cause: err });
      await sleep(Math.min(20 * attempt, 200));
    }
  }
}

async function* tee(lines: AsyncIterable<string>, seen: (line: string) => void): AsyncGenerator<string> {
  for await (const line of lines) {
    seen(line);
    yield line;
  }
}

/**
 * Moves a studio's schema to `targetServer` (a name of `servers`) as described above; returns how long
 * the studio was frozen. Refuses (before freezing anything) a SQLite platform, the default schema, a
 * studio not active or suspended, one behind LATEST_MIGRATION, and a target where the schema exists.
 */
export async function moveStudio(
  store: PlatformStore,
  servers: Servers,
  dataDir: string,
  studioId: number,
  targetServer: string,
  opts: MoveOptions = {},
): Promise<MoveResult> {
  if (servers.dialect !== 'postgres') throw new Error('Studios move between PostgreSQL servers only');
  const studio = await store.db.selectFrom('studios').selectAll().where('id', '=', studioId).executeTakeFirst();
  if (!studio) throw new Error(`There is no studio ${studioId}`);
  const targetUrl = servers.url(targetServer);
  const { slug, location: schema, server: source } = studio;
  if (source === targetServer) throw new Error(`Studio ${slug} is on ${targetServer} already`);
  if (schema === '')
    throw new Error(
      `Studio ${slug} lives in the default schema (a single studio adopted as it was): it cannot be moved`,
    );
  if (studio.status !== 'active' && studio.status !== 'suspended')
    throw new Error(`Studio ${slug} is ${studio.status}: only an active or suspended studio is moved`);
  if (studio.version !== LATEST_MIGRATION)
    throw new Error(`Studio ${slug} is at ${studio.version}, not ${LATEST_MIGRATION}: migrate it first`);
  const previous: StudioStatus = studio.status;
  const lockTimeoutMs = opts.lockTimeoutMs ?? 15_000;

  // Connections of the move's own: its long transaction holds none of the servers' pooled connections,
  // and its statements take no place among their prepared ones.
  const sourceBase = createDb(servers.url(source), { poolSize: 1 });
  const targetBase = createDb(targetUrl, { poolSize: 1 });
  let created = false;
  let frozenAt: number | null = null;
  let trx: AnyTransaction | null = null;
  try {
    // A plain CREATE SCHEMA: it fails when the schema exists (another move's, or a leftover), which this
    // move then neither uses nor drops.
    await sql`create schema ${sql.id(schema)}`.execute(targetBase.db).catch((err: unknown) => {
      if (pgCode(err) === '42P06')
        throw new Error(
          `Schema ${schema} already exists on ${targetServer}: a leftover of an earlier move? Drop it first`,
        );
      throw err;
    });
    created = true;
    await migrateStudioDatabase({ server: targetServer, location: schema }, servers, dataDir);

    const frozen = await store.db
      .updateTable('studios')
      .set({ status: 'moving' })
      .where('id', '=', studioId)
      .where('status', '=', previous)
      .where('server', '=', source)
      .executeTakeFirst();
    if (Number(frozen.numUpdatedRows) !== 1) throw new Error(`Studio ${slug} changed meanwhile: not moved`);
    frozenAt = performance.now();
    await opts.closeLive?.(slug);

    const frozenStart = frozenAt;
    trx = await lockSource(sourceBase.db, schema, lockTimeoutMs);
    const locked = performance.now();
    let header: ArchiveHeader | undefined;
    const lines = tee(exportOnTransaction(trx, 'postgres', schema), (line) => {
      header ??= JSON.parse(line) as ArchiveHeader;
      opts.onArchiveLine?.(line);
    });
    const imported = await importStudio(inSchema(targetBase, schema), lines);
    const counted = await studioRowCounts(inSchema(targetBase, schema));
    const differ = header!.tables.filter((t) => counted[t.name] !== t.rows || imported.rows[t.name] !== t.rows);
    if (differ.length > 0 || Object.keys(counted).length !== header!.tables.length)
      throw new Error(
        `Row counts differ on ${targetServer}: ${differ.map((t) => `${t.name} ${t.rows} → ${counted[t.name]}`).join(', ')}`,
      );
    const copyMs = performance.now() - locked;

    await sql`drop schema ${sql.id(schema)} cascade`.execute(trx);
    const switched = await store.db
      .updateTable('studios')
      .set({ server: targetServer, status: previous, problem: null })
      .where('id', '=', studioId)
      .where('status', '=', 'moving')
      .executeTakeFirst();
    if (Number(switched.numUpdatedRows) !== 1) throw new Error(`Studio ${slug}'s row changed during the move`);
    const frozenMs = performance.now() - frozenStart;
    frozenAt = null;
    created = false;

    let leftover: string | undefined;
    try {
      await trx.commit().execute();
    } catch (err) {
      leftover = `schema ${schema} on ${source} (${err instanceof Error ? err.message : String(err)})`;
    }
    trx = null;
    const moved = await store.db.selectFrom('studios').selectAll().where('id', '=', studioId).executeTakeFirstOrThrow();
    return {
      studio: moved,
      from: source,
      to: targetServer,
      frozenMs,
      lockMs: locked - frozenStart,
      copyMs,
      rows: imported.rows,
      total: imported.total,
      ...(leftover && { leftover }),
    };
  } catch (err) {
    const problems: string[] = [];
    if (trx)
      await trx
        .rollback()
        .execute()
        .catch(() => {});
    if (created)
      await dropStudioData({ server: targetServer, location: schema }, servers, dataDir).catch((e: unknown) =>
        problems.push(`the target schema ${schema} on ${targetServer} is left: ${String(e)}`),
      );
    let frozenMs = 0;
    if (frozenAt !== null) {
      frozenMs = performance.now() - frozenAt;
      // Unconditionally: whatever the switch did, the data is where it was.
      await store.db
        .updateTable('studios')
        .set({ server: source, status: previous })
        .where('id', '=', studioId)
        .execute()
        .catch((e: unknown) =>
          problems.push(`the studio stays 'moving' (503) until its row is set back: ${String(e)}`),
        );
    }
    const why = err instanceof Error ? err.message : String(err);
    throw new MoveFailed(
      `Studio ${slug} was not moved to ${targetServer}: ${why}${problems.length > 0 ? `; ${problems.join('; ')}` : ''}`,
      frozenMs,
      { cause: err },
    );
  } finally {
    await sourceBase.close();
    await targetBase.close();
  }
}
