import {
  BusinessSettings,
  DEFAULT_BUSINESS_SETTINGS,
  type BusinessSettingsUpdate,
} from '../../contract/business-settings';
import { normalizeBankAccount } from '../../contract/money';
import type { Executor } from '../../db/database';
import { readBusinessSettings, writeBusinessSettings } from '../../db/repositories/business-settings';

const FIELDS = Object.keys(DEFAULT_BUSINESS_SETTINGS) as (keyof BusinessSettings)[];

/** The settings checked from each stored set (the same object while the stored settings stay the same). */
const checked = new WeakMap<object, BusinessSettings>();

/** The studio's settings: each stored value that still passes its rule, otherwise its default. */
export async function getBusinessSettings(db: Executor): Promise<BusinessSettings> {
  const stored = await readBusinessSettings(db);
  let settings = checked.get(stored);
  if (!settings) {
    const out: Record<string, unknown> = { ...DEFAULT_BUSINESS_SETTINGS };
    for (const field of FIELDS) {
      if (!(field in stored)) continue;
      const parsed = BusinessSettings.shape[field].safeParse(stored[field]);
      if (parsed.success) out[field] = parsed.data;
    }
    settings = BusinessSettings.parse(out);
    checked.set(stored, settings);
  }
  return copyOf(settings);
}

/** A copy (the values are texts, numbers and lists of them): a caller may change what it was given without changing what the next one gets. */
const copyOf = (s: BusinessSettings): BusinessSettings => {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s))
    out[key] = Array.isArray(value)
      ? [...value]
      : typeof value === 'object' && value !== null
        ? structuredClone(value)
        : value;
  return out as BusinessSettings;
};

/** Saves the given fields (already validated by the contract) and returns the whole set. */
export async function updateBusinessSettings(db: Executor, update: BusinessSettingsUpdate): Promise<BusinessSettings> {
  const values: Partial<BusinessSettings> = { ...update };
  // Reminders in a stable order (latest first): the last one is the one followed by the venue pin.
  if (values.reminder_hours) values.reminder_hours = [...values.reminder_hours].sort((a, b) => b - a);
  // The account as the 18 digits the IPS QR code carries, however it was typed.
  if (values.bank_account) values.bank_account = normalizeBankAccount(values.bank_account) ?? values.bank_account;
  await writeBusinessSettings(db, values);
  return getBusinessSettings(db);
}
