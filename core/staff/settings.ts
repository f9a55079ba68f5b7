import type { Settings } from '../../contract';
import type { BusinessSettings, BusinessSettingsUpdate } from '../../contract/business-settings';
import type { Database } from '../../db/database';
import { getSettings, saveSettings } from '../../db/repositories/settings';
import { assertCan, type Actor } from '../kernel/actor';
import { updateAudited } from '../notify/audited-change';
import { getBusinessSettings, updateBusinessSettings } from '../kernel/settings';

/** A staff member's own alert switches (which Telegram alerts they get). */
export async function saveOwnSettings(database: Database, actor: Actor, settings: Settings): Promise<Settings> {
  assertCan(actor, 'account');
  const id = actor.user_id;
  return (
    (await updateAudited(
      database,
      'settings',
      id,
      actor,
      (trx) => getSettings(trx, id),
      (trx) => saveSettings(trx, id, settings),
    )) ?? settings
  );
}

/** The owner changes the studio's settings; fields left out keep their values. One row for the studio: logged as business_settings #0. */
export async function changeBusinessSettings(
  database: Database,
  actor: Actor,
  update: BusinessSettingsUpdate,
): Promise<BusinessSettings> {
  assertCan(actor, 'business.settings');
  return (
    (await updateAudited(
      database,
      'business_settings',
      0,
      actor,
      (trx) => getBusinessSettings(trx),
      (trx) => updateBusinessSettings(trx, update),
    )) ?? getBusinessSettings(database.db)
  );
}
