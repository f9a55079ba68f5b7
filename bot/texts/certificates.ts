import { formatMoney, plural, pluralIn } from '../../contract/format';
import { LOCALES } from '../../contract/language';
import { escapeHtml as e } from './html';
import { rsd } from './money';

/*
 * What the bot says about gift certificates: the buyer's certificate, the reply to its link, the
 * reminder before it expires (in the customer's language: certificatesEn, certificatesSr), and staff's
 * alerts (Russian in every catalogue). A places certificate says places (with the language's plurals),
 * never an amount: its value is the workshop's price when used.
 */

const places = (n: number) => `${n} ${plural(n, ['место', 'места', 'мест'])}`;

const staff = {
  requested: (code: string, amount: number, buyer: string) =>
    `🎁 Запрос на подарочный сертификат ${rsd(amount)} от ${e(buyer)} (${code}). Когда оплата поступит, подтвердите его в разделе «Сертификаты».`,
  late: (code: string, amount: number) =>
    `⚠️ Оплата ${rsd(amount)} через Telegram пришла за сертификат ${code}, который уже не ждал оплаты: верните её покупателю.`,
  expired: (code: string, amount: number) =>
    `⌛ Срок сертификата ${code} истёк: неиспользованный остаток ${rsd(amount)} списан.`,
  expiredPlaces: (code: string, n: number) =>
    `⌛ Срок сертификата ${code} истёк: списано неиспользованных мест — ${n}.`,
  unknownBuyer: 'клиента',
  openList: '🎁 Сертификаты',
};

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
  refused: {
    malformed: 'Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM.',
    notFound: 'Сертификат с таким кодом не найден.',
    expired: 'Срок действия этого сертификата истёк.',
    usedUp: 'Этот сертификат уже израсходован.',
    voided: 'Этот сертификат аннулирован.',
    pending: 'Этот сертификат ещё не оплачен.',
    tooMany: 'Слишком много попыток ввести код. Попробуйте позже.',
  },
  /** The message the buyer's «Подарить сертификат» prepares for the recipient (plain text, with the card's link). */
  share: (amount: number, code: string) =>
    `🎁 Дарю тебе подарочный сертификат на ${rsd(amount)} на мастер-класс! Код: ${code}`,
  sharePlaces: (n: number, code: string) =>
    `🎁 Дарю тебе подарочный сертификат на ${places(n)} на любой мастер-класс! Код: ${code}`,
  buttons: { card: '🎁 Открыть сертификат', book: 'Записаться с сертификатом', share: '📨 Подарить сертификат' },
  staff,
};

const rsdEn = (amount: number) => formatMoney(amount, 'en');
const placesEn = (n: number) => `${n} ${pluralIn(LOCALES.en, n, { one: 'place', other: 'places' })}`;
export const certificatesEn: typeof certificates = {
  ready: (amount) => `🎁 Your gift certificate for ${rsdEn(amount)} is ready!`,
  readyPlaces: (n) => `🎁 Your gift certificate for ${placesEn(n)} at any workshop is ready!`,
  code: (code) => `Code: <code>${e(code)}</code>`,
  recipient: (name) => `For: ${e(name)}`,
  greeting: (text) => `“${e(text)}”`,
  balance: (amount) => `Balance: ${rsdEn(amount)}`,
  balancePlaces: (n) => `Left: ${placesEn(n)} at any workshop`,
  validUntil: (until) => `Valid until ${until}`,
  howToUse:
    'To pay for a workshop with it, choose “I have a gift certificate” when booking in the app and enter the code. To give it, tap “Give the certificate” or forward this message.',
  opened: 'Gift certificate',
  openedHint: 'Book a workshop in the app: the certificate pays the booking up to its balance.',
  openedHintPlaces: 'Book a workshop in the app: the certificate pays one place for each person in the booking.',
  expiring: (code, amount, until) =>
    `⏳ Your gift certificate ${e(code)} still holds ${rsdEn(amount)}. It is valid until ${until}: book a workshop in time!`,
  expiringPlaces: (code, n, until) =>
    `⏳ Your gift certificate ${e(code)} still has ${placesEn(n)} at any workshop. It is valid until ${until}: book in time!`,
  refused: {
    malformed: 'A certificate code is 12 letters and digits, e.g. ABCD-EFGH-JKLM.',
    notFound: 'No certificate has this code.',
    expired: 'This certificate has expired.',
    usedUp: 'This certificate has been used up.',
    voided: 'This certificate was cancelled.',
    pending: 'This certificate is not paid yet.',
    tooMany: 'Too many attempts to enter a code. Please try later.',
  },
  share: (amount, code) => `🎁 A gift certificate for ${rsdEn(amount)} at a workshop, for you! Code: ${code}`,
  sharePlaces: (n, code) => `🎁 A gift certificate for ${placesEn(n)} at any workshop, for you! Code: ${code}`,
  buttons: { card: '🎁 Open the certificate', book: 'Book with the certificate', share: '📨 Give the certificate' },
  staff,
};

const rsdSr = (amount: number) => formatMoney(amount, 'sr');
const placesSr = (n: number) => `${n} ${pluralIn(LOCALES.sr, n, { one: 'mesto', few: 'mesta', other: 'mesta' })}`;
export const certificatesSr: typeof certificates = {
  ready: (amount) => `🎁 Vaš poklon-sertifikat na ${rsdSr(amount)} je spreman!`,
  readyPlaces: (n) => `🎁 Vaš poklon-sertifikat za ${placesSr(n)} na bilo kojoj radionici je spreman!`,
  code: (code) => `Kod: <code>${e(code)}</code>`,
  recipient: (name) => `Za: ${e(name)}`,
  greeting: (text) => `„${e(text)}“`,
  balance: (amount) => `Preostalo: ${rsdSr(amount)}`,
  balancePlaces: (n) => `Preostalo: ${placesSr(n)} na bilo kojoj radionici`,
  validUntil: (until) => `Važi do ${until}`,
  howToUse:
    'Da njime platite radionicu, pri prijavi u aplikaciji izaberite „Imam poklon-sertifikat“ i unesite kod. Da ga poklonite, dodirnite „Pokloni sertifikat“ ili prosledite ovu poruku.',
  opened: 'Poklon-sertifikat',
  openedHint: 'Prijavite se na radionicu u aplikaciji: sertifikat plaća prijavu do iznosa koji je preostao.',
  openedHintPlaces:
    'Prijavite se na radionicu u aplikaciji: sertifikat plaća po jedno mesto za svakog učesnika prijave.',
  expiring: (code, amount, until) =>
    `⏳ Na poklon-sertifikatu ${e(code)} je preostalo ${rsdSr(amount)}. Važi do ${until}: prijavite se na radionicu na vreme!`,
  expiringPlaces: (code, n, until) =>
    `⏳ Na poklon-sertifikatu ${e(code)} je preostalo ${placesSr(n)} na bilo kojoj radionici. Važi do ${until}: prijavite se na vreme!`,
  refused: {
    malformed: 'Kod sertifikata ima 12 slova i cifara, npr. ABCD-EFGH-JKLM.',
    notFound: 'Sertifikat sa ovim kodom nije pronađen.',
    expired: 'Ovom sertifikatu je istekao rok.',
    usedUp: 'Ovaj sertifikat je već iskorišćen.',
    voided: 'Ovaj sertifikat je poništen.',
    pending: 'Ovaj sertifikat još nije plaćen.',
    tooMany: 'Previše pokušaja unosa koda. Pokušajte kasnije.',
  },
  share: (amount, code) => `🎁 Poklanjam ti poklon-sertifikat na ${rsdSr(amount)} za radionicu! Kod: ${code}`,
  sharePlaces: (n, code) => `🎁 Poklanjam ti poklon-sertifikat za ${placesSr(n)} na bilo kojoj radionici! Kod: ${code}`,
  buttons: { card: '🎁 Otvori sertifikat', book: 'Prijava sa sertifikatom', share: '📨 Pokloni sertifikat' },
  staff,
};
