import type { Language } from '../../contract/language';
import { catalogue } from '../../contract/texts';
import { staff } from './staff';

/*
 * Every text the bot sends: the customer's sections come from the language's catalogue
 * (contract/texts/*\/bot.ts); staff read Russian, the studio's language, in every catalogue.
 */
const withStaff = (language: Language) => ({ ...catalogue(language).bot, staff });

export type BotTexts = ReturnType<typeof withStaff>;

const catalogues: Record<Language, BotTexts> = { ru: withStaff('ru'), en: withStaff('en'), sr: withStaff('sr') };

export const ru = catalogues.ru;

/** The catalogue the bot speaks to staff, and to customers without another language. */
export const texts: BotTexts = ru;

/** The catalogue of a customer's language. */
export const textsFor = (language: Language): BotTexts => catalogues[language];
