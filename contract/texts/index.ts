import type { Language } from '../language';
import type { ApiTexts } from './ru/api';
import type { AppTexts } from './ru/app-later';
import type { CertificateTexts } from './ru/app-certificates';
import type { BotTexts } from './ru/bot';
import type { CustomerRefusals } from './refusal';
import type { SayIssue } from './validation';
import * as en from './en';
import * as ru from './ru';
import * as sr from './sr';

/*
 * One catalogue per language, by surface: `api` (what the server writes to a customer: invoices,
 * shared messages, the certificate's card), `refusals` (what the studio refuses, by code),
 * `validation` (a refused field, the API's 422), `bot` (what the bot says to customers), `app` and
 * `appCertificates` (the mini-app's screens). Staff texts stay Russian where they are used.
 * The mini-app imports the sections it shows directly, never this module, so its first load carries
 * only its first screen.
 */
export interface Catalogue {
  api: ApiTexts;
  refusals: CustomerRefusals;
  validation: SayIssue;
  bot: BotTexts;
  app: AppTexts;
  appCertificates: CertificateTexts;
}

export const catalogues: Record<Language, Catalogue> = { ru, en, sr };

/** The catalogue of a language. */
export const catalogue = (language: Language): Catalogue => catalogues[language];
