import crypto from 'node:crypto';
import type { BusinessSettings, PrivacyPublic } from '../../contract';
import { nowIso, type Executor } from '../../db/database';
import { getBusinessSettings } from '../kernel/settings';
import { Unprocessable } from '../kernel/errors';

/** The last text hashed and its version: the text changes seldom, and every booking asks. */
let lastVersion = { text: '', version: '' };

/** The version of a privacy text: a short hash, so it changes whenever the text does and needs no counter. */
export function privacyVersion(text: string): string {
  if (lastVersion.text !== text || !lastVersion.version)
    lastVersion = { text, version: crypto.createHash('sha256').update(text).digest('hex').slice(0, 12) };
  return lastVersion.version;
}

/** The privacy text the consent line links to, as the superuser last saved it (or the default). */
export async function currentPrivacy(db: Executor): Promise<PrivacyPublic> {
  const { privacy_text } = await getBusinessSettings(db);
  return { text: privacy_text, version: privacyVersion(privacy_text) };
}

export interface ConsentStamp {
  consent_at: string | null;
  consent_version: string | null;
}

/**
 * What a new booking records about consent. A customer booking from the mini-app must have accepted
 * the privacy text (refused with 422 otherwise); staff booking on a customer's behalf (by phone) may
 * say the customer agreed (stored the same way) or not (stored as null: the studio answers for it).
 */
export async function consentFor(
  db: Executor,
  given: boolean | undefined,
  required: boolean,
  /** The settings, when the caller has read them already. */
  settings?: Pick<BusinessSettings, 'privacy_text'>,
): Promise<ConsentStamp> {
  if (given !== true) {
    if (required) throw new Unprocessable('consentRequired');
    return { consent_at: null, consent_version: null };
  }
  const text = settings?.privacy_text ?? (await currentPrivacy(db)).text;
  return { consent_at: nowIso(), consent_version: privacyVersion(text) };
}
