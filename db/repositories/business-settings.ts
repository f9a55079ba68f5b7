import type { Executor } from '../database';

/** Every stored setting as key → parsed JSON value; what is missing is the caller's default. */
export async function readBusinessSettings(db: Executor): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom('business_settings').select(['key', 'value']).execute();
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      out[row.key] = JSON.parse(row.value);
    } catch {
      // A value that is not JSON reads as missing: the default applies.
    }
  }
  return out;
}

/** Upserts the given keys (values stored as JSON). */
export async function writeBusinessSettings(db: Executor, values: Record<string, unknown>): Promise<void> {
  for (const [key, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const value = JSON.stringify(v);
    await db
      .insertInto('business_settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
