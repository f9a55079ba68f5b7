import type { Executor } from '../database';
import { nowIso } from '../database';
import { prepared } from '../prepared';

const languageOf = prepared((db: Executor, telegramId: number) =>
  db.selectFrom('customer_languages').select(['telegram_code', 'chosen']).where('telegram_id', '=', telegramId),
);

export const readCustomerLanguage = async (db: Executor, telegramId: number) => (await languageOf(db, telegramId))[0];

/** Telegram's language_code as last seen; a choice made with /language is kept. */
export const upsertTelegramLanguageCode = (db: Executor, telegramId: number, code: string | null) =>
  db
    .insertInto('customer_languages')
    .values({ telegram_id: telegramId, telegram_code: code, chosen: null, updated_at: nowIso() })
    .onConflict((oc) => oc.column('telegram_id').doUpdateSet({ telegram_code: code, updated_at: nowIso() }))
    .execute();

export const upsertChosenLanguage = (db: Executor, telegramId: number, chosen: string) =>
  db
    .insertInto('customer_languages')
    .values({ telegram_id: telegramId, telegram_code: null, chosen, updated_at: nowIso() })
    .onConflict((oc) => oc.column('telegram_id').doUpdateSet({ chosen, updated_at: nowIso() }))
    .execute();

export const deleteCustomerLanguage = (db: Executor, telegramId: number) =>
  db.deleteFrom('customer_languages').where('telegram_id', '=', telegramId).execute();
