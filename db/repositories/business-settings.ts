import { randomUUID } from 'node:crypto';
import type { Executor } from '../database';
import { inTransaction } from '../lock';
import { prepared } from '../prepared';

/**
 * The row that names the state of the stored settings: every write gives it a new random value, in the
 * write's transaction and after the values it changes, so the same version always means the same values,
 * whichever process or database wrote them (migration 20261201_2223 gives every database its first).
 */
export const SETTINGS_VERSION_KEY = '~version';

type Stored = Readonly<Record<string, unknown>>;

/**
 * The settings this process read last and their version. A booking reads them several times; each read
 * asks only for the version row and reads the rest again when it changed (written here, by another
 * instance or in another database of this process), so no process serves settings another one replaced.
 */
let last: { version: string; values: Stored } | null = null;

/** Within one transaction the settings are read once (a command reads them in several steps); its own write reads them again. */
const ofTransaction = new WeakMap<Executor, Stored>();

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') for (const v of Object.values(Object.freeze(value))) deepFreeze(v);
  return value;
};

async function readAll(db: Executor): Promise<Stored> {
  const rows = await db.selectFrom('business_settings').select(['key', 'value']).execute();
  const out: Record<string, unknown> = {};
  let version: string | null = null;
  for (const row of rows) {
    if (row.key === SETTINGS_VERSION_KEY) {
      version = row.value;
      continue;
    }
    try {
      out[row.key] = JSON.parse(row.value);
    } catch {
      // A value that is not JSON reads as missing: the default applies.
    }
  }
  const values = deepFreeze(out);
  if (version !== null) last = { version, values };
  return values;
}

/**
 * Every stored setting as key → parsed JSON value (frozen: the same object while the settings stay the
 * same, so callers may keep what they derive from it by its identity); what is missing is the caller's default.
 */
export async function readBusinessSettings(db: Executor): Promise<Stored> {
  const known = ofTransaction.get(db);
  if (known) return known;
  const values = await readCurrent(db);
  if (inTransaction(db)) ofTransaction.set(db, values);
  return values;
}

const versionRow = prepared((db: Executor, key: string) =>
  db.selectFrom('business_settings').select('value').where('key', '=', key),
);

async function readCurrent(db: Executor): Promise<Stored> {
  const seen = last;
  if (seen) {
    // Built once per kind of database and studio schema, as it runs with every command.
    const rows = await versionRow(db, SETTINGS_VERSION_KEY);
    if (rows[0]?.value === seen.version) return seen.values;
  }
  return readAll(db);
}

/** Upserts the given keys (values stored as JSON), then the version. */
export async function writeBusinessSettings(db: Executor, values: Record<string, unknown>): Promise<void> {
  ofTransaction.delete(db);
  for (const [key, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const value = JSON.stringify(v);
    await upsert(db, key, value);
  }
  await upsert(db, SETTINGS_VERSION_KEY, randomUUID());
  ofTransaction.delete(db);
}

const upsert = (db: Executor, key: string, value: string) =>
  db
    .insertInto('business_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
