import { appCertificates as en } from '../../../contract/texts/en/app-certificates';
import { appCertificates as ru, type CertificateTexts } from '../../../contract/texts/ru/app-certificates';
import { appCertificates as sr } from '../../../contract/texts/sr/app-certificates';
import { currentLanguage, useT } from './index';

/*
 * Gift certificates' and promo codes' texts load with their screens (/apply step 2, /record, the purchase),
 * not with the first one (the first load's budget).
 */

/** Each language's texts (the bot and the card name the button «У меня есть сертификат» as it is here). */
export const certificateCatalogues = { ru, en, sr };

/** The certificate and promo texts in the customer's current language (the component follows a change of it). */
export function useCertificateTexts(): CertificateTexts {
  useT();
  return certificateCatalogues[currentLanguage()];
}
