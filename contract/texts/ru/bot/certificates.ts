import { plural } from '../../../format';
import { escapeHtml as e } from '../../html';
import { rsd } from './money';

/*
 * What the bot says to customers about gift certificates: the buyer's certificate, the reply to its link
 * (a refusal there is said by its code), the reminder before it expires. A places certificate says places
 * (with the language's plurals), never an amount: its value is the workshop's price when used.
 */

const places = (n: number) => `${n} ${plural(n, ['место', 'места', 'мест'])}`;

export const certificates = {
  ready: (amount: number) => `🎁 Ваш подарочный сертификат на ${rsd(amount)} готов!`,
  readyPlaces: (n: number) => `🎁 Ваш подарочный сертификат на ${places(n)} на любой мастер-класс готов!`,
  code: (code: string) => `Код: <code>${e(code)}</code>`,
  recipient: (name: string) => `Для: ${e(name)}`,
  greeting: (text: string) => `«${e(text)}»`,
  balance: (amount: number) => `Остаток: ${rsd(amount)}`,
  balancePlaces: (n: number) => `Осталось: ${places(n)} на любой мастер-класс`,
  /** `until`: a date as common.date writes it. */
  validUntil: (until: string) => `Действует до ${until}`,
  howToUse:
    'Чтобы оплатить им мастер-класс, при записи в приложении выберите «У меня есть сертификат» и введите код. Чтобы подарить его, нажмите «Подарить сертификат» или перешлите это сообщение.',
  opened: 'Подарочный сертификат',
  openedHint: 'Запишитесь на мастер-класс в приложении: сертификат оплатит запись на сумму остатка.',
  openedHintPlaces: 'Запишитесь на мастер-класс в приложении: сертификат оплатит по месту на каждого участника.',
  expiring: (code: string, amount: number, until: string) =>
    `⏳ На подарочном сертификате ${e(code)} осталось ${rsd(amount)}. Он действует до ${until}: успейте записаться на мастер-класс!`,
  expiringPlaces: (code: string, n: number, until: string) =>
    `⏳ На подарочном сертификате ${e(code)} осталось ${places(n)} на любой мастер-класс. Он действует до ${until}: успейте записаться!`,
  /** The message the buyer's «Подарить сертификат» prepares for the recipient (plain text, with the card's link). */
  share: (amount: number, code: string) =>
    `🎁 Дарю тебе подарочный сертификат на ${rsd(amount)} на мастер-класс! Код: ${code}`,
  sharePlaces: (n: number, code: string) =>
    `🎁 Дарю тебе подарочный сертификат на ${places(n)} на любой мастер-класс! Код: ${code}`,
  buttons: { card: '🎁 Открыть сертификат', book: 'Записаться с сертификатом', share: '📨 Подарить сертификат' },
};
