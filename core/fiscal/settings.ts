import { DEFAULT_FISCAL_SETTINGS, FiscalSettings, type FiscalSettingsUpdate } from '../../contract/fiscal';
import type { Executor } from '../../db/database';
import { readBusinessSettings, writeBusinessSettings } from '../../db/repositories/business-settings';

const FIELDS = Object.keys(DEFAULT_FISCAL_SETTINGS) as (keyof FiscalSettings)[];

/** The studio's fiscal settings (kept beside the business settings): each stored value that passes its rule, else its default. */
export async function getFiscalSettings(db: Executor): Promise<FiscalSettings> {
  const stored = await readBusinessSettings(db);
  const out: Record<string, unknown> = { ...DEFAULT_FISCAL_SETTINGS };
  for (const field of FIELDS) {
    if (!(field in stored)) continue;
    const parsed = FiscalSettings.shape[field].safeParse(stored[field]);
    if (parsed.success) out[field] = parsed.data;
  }
  return FiscalSettings.parse(out);
}

/** Saves the given fields (already validated by the contract) and returns the whole set. */
export async function writeFiscalSettings(db: Executor, update: FiscalSettingsUpdate): Promise<FiscalSettings> {
  await writeBusinessSettings(db, update);
  return getFiscalSettings(db);
}
