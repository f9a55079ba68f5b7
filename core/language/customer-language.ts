import { DEFAULT_LANGUAGE, isLanguage, languageFromCode, type Language } from '../../contract/language';
import type { Executor } from '../../db/database';
import {
  readCustomerLanguage,
  upsertChosenLanguage,
  upsertTelegramLanguageCode,
} from '../../db/repositories/customer-languages';

/**
 * The language a customer is written to: the one they chose with /language, else the one of their
 * Telegram app (language_code), else Russian. The one definition, for replies and notifications alike.
 */
export async function customerLanguage(db: Executor, telegramId: number): Promise<Language> {
  const row = await readCustomerLanguage(db, telegramId);
  if (!row) return DEFAULT_LANGUAGE;
  return isLanguage(row.chosen) ? row.chosen : languageFromCode(row.telegram_code);
}

/**
 * Telegram sends the user's language_code with every update and in the mini-app's init data: it is
 * stored when it differs from the stored one, so a notification written later is in that language.
 * Returns the customer's language.
 */
export async function noteTelegramLanguage(
  db: Executor,
  telegramId: number,
  code: string | null | undefined,
): Promise<Language> {
  const row = await readCustomerLanguage(db, telegramId);
  const telegramCode = code ?? null;
  if (telegramCode !== null && row?.telegram_code !== telegramCode)
    await upsertTelegramLanguageCode(db, telegramId, telegramCode);
  if (isLanguage(row?.chosen)) return row.chosen;
  return languageFromCode(telegramCode ?? row?.telegram_code);
}

/** /language: the customer's own choice, kept over what Telegram says. */
export async function chooseLanguage(db: Executor, telegramId: number, language: Language): Promise<void> {
  await upsertChosenLanguage(db, telegramId, language);
}
